import ZaoanSystem

/// LDML patterns as `time` and the service's own texts use them (`yyyy-MM-dd HH:mm`), each
/// read once (`LDMLPattern`) and kept, keyed by the pattern's text: the language and the zone
/// come with each use and cost nothing to change, so one read pattern serves every language,
/// zone and instant. A refused pattern is kept too, with its reason, so a client repeating a
/// bad one costs a lookup. (Until issue 34 the entries were ICU DateFormatters, tens of
/// microseconds each to create; docs/benchmarks.md says what keeping read patterns buys.)
///
/// The cache is bounded — a pattern goes when a new one would exceed `capacity` — so a
/// client sending endless distinct patterns cannot grow memory, and it is safe to use from
/// several threads at once: every use happens under one lock, which on the service's single
/// event-loop thread is never contended.
///
/// It is a segmented LRU, so that such a client cannot evict everyone else's patterns either:
/// a new pattern is kept on probation, and only one used again is protected (at most
/// `protectedCapacity`, three quarters; the least recently used protected one goes back on
/// probation when a newer one needs the room). What goes to make room is always the least
/// recently used on probation: a flood of patterns each used once only replaces other
/// patterns used once, and every bar's and prompt's pattern, used every second, stays.
public final class FormatterCache: Sendable {
    public struct Statistics: Sendable, Equatable {
        public var entries: Int
        public var hits: Int
        public var misses: Int
        public var evictions: Int
    }

    private struct Entry {
        var pattern: Result<LDMLPattern, LDMLPatternError>
        var lastUse: UInt64
        /// Used again after it was read (else on probation).
        var protected = false
    }

    private struct State {
        func leastRecentlyUsed(protected: Bool) -> String? {
            entries.lazy.filter { $0.value.protected == protected }.min { $0.value.lastUse < $1.value.lastUse }?.key
        }

        var entries: [String: Entry] = [:]
        var protectedCount = 0
        var clock: UInt64 = 0
        var statistics = Statistics(entries: 0, hits: 0, misses: 0, evictions: 0)
    }

    public let capacity: Int
    /// At most this many patterns are protected; at least one place is kept for probation.
    public let protectedCapacity: Int
    /// Guarded by `lock` (a pthread mutex, which ThreadSanitizer sees; see `Lock`).
    nonisolated(unsafe) private var state = State()
    private let lock = Lock()

    public init(capacity: Int = 64) {
        precondition(capacity >= 1, "a formatter cache holds at least one pattern")
        self.capacity = capacity
        protectedCapacity = capacity - max(1, capacity / 4)
    }

    /// Formats `instant` with an LDML pattern (`yyyy-MM-dd HH:mm`) in a language's CLDR words
    /// and a zone, in the proleptic Gregorian calendar (ISO 8601's, for every date); throws
    /// why a pattern is refused.
    package func string(from instant: Instant, pattern: String, language: Language, zone: Zone) throws(LDMLPatternError) -> String {
        let read = try self.pattern(pattern).get()
        return LDMLRenderer.render(read, instant: instant.unixSeconds, nanoseconds: instant.nanosecondsPastUnixSeconds, zone: zone.info(), zoneIdentifier: zone.tzName,
                                   language: language.ldml)
    }

    /// A pattern the service writes itself (`yyyy-MM-dd HH:mm`): known good, so a refusal is a
    /// bug of zaoan's, which the tests that render each one catch.
    package func string(from instant: Instant, ownPattern pattern: String, language: Language, zone: Zone) -> String {
        do throws(LDMLPatternError) {
            return try string(from: instant, pattern: pattern, language: language, zone: zone)
        } catch {
            preconditionFailure("zaoan's own pattern '\(pattern)' is refused: \(error)")
        }
    }

    public var statistics: Statistics {
        lock.withLock { state.statistics }
    }

    /// `text` read, from the cache or now (and then kept).
    func pattern(_ text: String) -> Result<LDMLPattern, LDMLPatternError> {
        lock.withLock {
            state.clock &+= 1
            if var entry = state.entries[text] {
                state.statistics.hits += 1
                entry.lastUse = state.clock
                if !entry.protected && protectedCapacity > 0 {
                    if state.protectedCount >= protectedCapacity, let oldest = state.leastRecentlyUsed(protected: true) {
                        state.entries[oldest]?.protected = false
                        state.protectedCount -= 1
                    }
                    entry.protected = true
                    state.protectedCount += 1
                }
                state.entries[text] = entry
                return entry.pattern
            }
            state.statistics.misses += 1
            // Full: there is always one on probation (`protectedCapacity` < `capacity`).
            if state.entries.count >= capacity, let oldest = state.leastRecentlyUsed(protected: false) {
                state.entries.removeValue(forKey: oldest)
                state.statistics.evictions += 1
            }
            let read = Result { () throws(LDMLPatternError) in try LDMLPattern(text) }
            state.entries[text] = Entry(pattern: read, lastUse: state.clock)
            state.statistics.entries = state.entries.count
            return read
        }
    }
}

extension Language {
    /// The LDML engine's name for this language (the same eight, with CLDR's words).
    var ldml: LDMLLanguage {
        switch self {
        case .zh: return .zh
        case .zhHant: return .zhHant
        case .en: return .en
        case .ja: return .ja
        case .ko: return .ko
        case .de: return .de
        case .fr: return .fr
        case .es: return .es
        }
    }
}
