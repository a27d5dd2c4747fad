import Foundation

/// Date formatters are expensive to create (tens of microseconds) and cheap to use (about a
/// microsecond), so zaoan keeps them, keyed by what makes one differ from another.
///
/// The cache is bounded — a formatter goes when a new one would exceed `capacity` — so a
/// client sending endless distinct patterns cannot grow memory, and it is safe to use from
/// several threads at once: every use happens under one lock, which on the service's single
/// event-loop thread is never contended.
///
/// It is a segmented LRU, so that such a client cannot evict everyone else's formatters
/// either: a new formatter is kept on probation, and only one used again is protected (at
/// most `protectedCapacity`, three quarters; the least recently used protected one goes back
/// on probation when a newer one needs the room). What goes to make room is always the least
/// recently used on probation: a flood of patterns each used once only replaces other
/// patterns used once, and every bar's and prompt's formatter, used every second, stays.
public final class FormatterCache: Sendable {
    public struct Statistics: Sendable, Equatable {
        public var entries: Int
        public var hits: Int
        public var misses: Int
        public var evictions: Int
    }

    private struct Key: Hashable {
        var pattern: String
        var locale: String
        var zone: String
    }

    private struct Entry {
        var formatter: DateFormatter
        var lastUse: UInt64
        /// Used again after it was made (else on probation).
        var protected = false
    }

    private struct State {
        func leastRecentlyUsed(protected: Bool) -> Key? {
            entries.lazy.filter { $0.value.protected == protected }.min { $0.value.lastUse < $1.value.lastUse }?.key
        }

        var entries: [Key: Entry] = [:]
        var protectedCount = 0
        var clock: UInt64 = 0
        var statistics = Statistics(entries: 0, hits: 0, misses: 0, evictions: 0)
    }

    public let capacity: Int
    /// At most this many formatters are protected; at least one place is kept for probation.
    public let protectedCapacity: Int
    /// Guarded by `lock`. An NSLock (a pthread mutex) rather than Synchronization's Mutex:
    /// ThreadSanitizer sees a pthread mutex, but not the Swift Mutex on Linux, and reported
    /// every use of the cache from several threads as a race (checked with a four-thread
    /// counter: Mutex — warnings, NSLock — none).
    nonisolated(unsafe) private var state = State()
    private let lock = NSLock()

    public init(capacity: Int = 64) {
        precondition(capacity >= 1, "a formatter cache holds at least one formatter")
        self.capacity = capacity
        protectedCapacity = capacity - max(1, capacity / 4)
    }

    /// Formats `date` with an LDML pattern (`yyyy-MM-dd HH:mm`) in a locale and zone.
    public func string(from date: Date, pattern: String, locale: String, zone: TimeZone) -> String {
        let key = Key(pattern: pattern, locale: locale, zone: zone.identifier)
        return withFormatter(key, make: {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = zone
            formatter.dateFormat = pattern
            // ISO 8601's proleptic Gregorian calendar for every date, not ICU's default switch
            // to the Julian calendar before 1582-10-15.
            formatter.gregorianStartDate = Date.distantPast
            return formatter
        }) { $0.string(from: date) }
    }

    public var statistics: Statistics {
        lock.withLock { state.statistics }
    }

    private func withFormatter(_ key: Key, make: () -> DateFormatter, use: (DateFormatter) -> String) -> String {
        lock.withLock {
            state.clock &+= 1
            if var entry = state.entries[key] {
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
                state.entries[key] = entry
                return use(entry.formatter)
            }
            state.statistics.misses += 1
            // Full: there is always one on probation (`protectedCapacity` < `capacity`).
            if state.entries.count >= capacity, let oldest = state.leastRecentlyUsed(protected: false) {
                state.entries.removeValue(forKey: oldest)
                state.statistics.evictions += 1
            }
            let formatter = make()
            state.entries[key] = Entry(formatter: formatter, lastUse: state.clock)
            state.statistics.entries = state.entries.count
            return use(formatter)
        }
    }
}
