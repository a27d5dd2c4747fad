import ZaoanSystem

extension NumericDatePattern {
    /// `strftimeFormat(for:)` remembered by pattern: a bar clock asks for the same pattern
    /// every second, and converting it again cost more than the rest of the time's lookup
    /// (bench/tick-profile.sh; docs/benchmarks.md). Patterns that stay with ICU (nil) are
    /// remembered too. Shared by every responder; at most `conversionCacheCapacity`
    /// patterns of at most `maxCachedPatternBytes` each, so a client sending new patterns
    /// costs bounded memory: when full, the cache is emptied and fills again.
    package static func cachedStrftimeFormat(for pattern: String) -> String? {
        guard pattern.utf8.count <= maxCachedPatternBytes else { return strftimeFormat(for: pattern) }
        if let known = conversions.withLock({ $0[pattern] }) { return known }
        let format = strftimeFormat(for: pattern)
        conversions.withLock { kept in
            if kept.count >= conversionCacheCapacity { kept.removeAll(keepingCapacity: true) }
            kept[pattern] = .some(format)
        }
        return format
    }

    package static let conversionCacheCapacity = 64
    package static let maxCachedPatternBytes = 256
    /// How many patterns are remembered now (at most `conversionCacheCapacity`).
    package static var cachedConversionCount: Int { conversions.withLock { $0.count } }

    /// Pattern → its strftime format, or nil (`.some(nil)`) for a pattern that stays with ICU.
    private static let conversions = Locked<[String: String?]>([:])
}

/// A value behind a `Lock`, for the conversion cache above.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
