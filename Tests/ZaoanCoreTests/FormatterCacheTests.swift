import Foundation
import Synchronization
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct FormatterCacheTests {
    typealias Statistics = FormatterCache.Statistics

    /// A distinct pattern per index whose output names the index: "'p3' HH" → "p3 10".
    static func pattern(_ index: Int) -> String { "'p\(index)' HH" }

    @Test func startsEmpty() {
        let cache = FormatterCache(capacity: 5)
        #expect(cache.capacity == 5)
        #expect(cache.statistics == Statistics(entries: 0, hits: 0, misses: 0, evictions: 0))
    }

    @Test func defaultCapacityIs64() {
        #expect(FormatterCache().capacity == 64)
    }

    @Test func firstUseMissesAndLaterUsesHit() throws {
        let cache = FormatterCache(capacity: 4)
        let tokyo = try timeZone("Asia/Tokyo")
        let first = try instant("2026-01-15T01:02:03Z")
        let second = try instant("2026-07-04T15:16:17Z")

        #expect(cache.string(from: first, pattern: "yyyy-MM-dd HH:mm:ss", locale: "en_US", zone: tokyo) == "2026-01-15 10:02:03")
        #expect(cache.statistics == Statistics(entries: 1, hits: 0, misses: 1, evictions: 0))

        // The kept formatter formats whatever date it is given next.
        #expect(cache.string(from: second, pattern: "yyyy-MM-dd HH:mm:ss", locale: "en_US", zone: tokyo) == "2026-07-05 00:16:17")
        #expect(cache.string(from: first, pattern: "yyyy-MM-dd HH:mm:ss", locale: "en_US", zone: tokyo) == "2026-01-15 10:02:03")
        #expect(cache.statistics == Statistics(entries: 1, hits: 2, misses: 1, evictions: 0))
    }

    /// Pattern, locale and zone each make a formatter differ, and each gets its own entry.
    @Test(arguments: [
        ("EEEE", "en_US", "Asia/Tokyo", "Thursday"),
        ("EEEE", "zh_CN", "Asia/Tokyo", "星期四"),
        ("EEEE", "en_US", "America/Los_Angeles", "Wednesday"),
        ("HH:mm", "en_US", "Asia/Tokyo", "08:30"),
        ("HH:mm", "en_US", "UTC", "23:30"),
    ])
    func keyIsPatternLocaleAndZone(pattern: String, locale: String, zone: String, expected: String) throws {
        let cache = FormatterCache(capacity: 8)
        let now = try instant("2026-01-14T23:30:00Z")  // Thursday in Tokyo, Wednesday in LA
        // Warm the cache with the four other keys; ours must still be a miss.
        for other in [("EEEE", "en_US", "Asia/Tokyo"), ("EEEE", "zh_CN", "Asia/Tokyo"),
                      ("EEEE", "en_US", "America/Los_Angeles"), ("HH:mm", "en_US", "Asia/Tokyo"),
                      ("HH:mm", "en_US", "UTC")] where other != (pattern, locale, zone) {
            _ = cache.string(from: now, pattern: other.0, locale: other.1, zone: try timeZone(other.2))
        }
        #expect(cache.statistics == Statistics(entries: 4, hits: 0, misses: 4, evictions: 0))
        #expect(cache.string(from: now, pattern: pattern, locale: locale, zone: try timeZone(zone)) == expected)
        #expect(cache.statistics == Statistics(entries: 5, hits: 0, misses: 5, evictions: 0))
        #expect(cache.string(from: now, pattern: pattern, locale: locale, zone: try timeZone(zone)) == expected)
        #expect(cache.statistics.hits == 1)
    }

    /// Capacity N, N + k distinct patterns: N stay, k were evicted, the oldest first.
    @Test(arguments: [(1, 1), (1, 5), (4, 3), (8, 8), (64, 10), (5, 0)])
    func evictionBound(capacity: Int, extra: Int) throws {
        let cache = FormatterCache(capacity: capacity)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        for index in 0..<(capacity + extra) {
            #expect(cache.string(from: now, pattern: Self.pattern(index), locale: "en_US", zone: utc) == "p\(index) 10")
        }
        #expect(cache.statistics == Statistics(entries: capacity, hits: 0, misses: capacity + extra, evictions: extra))

        // The newest N are still there...
        for index in extra..<(capacity + extra) {
            _ = cache.string(from: now, pattern: Self.pattern(index), locale: "en_US", zone: utc)
        }
        #expect(cache.statistics == Statistics(entries: capacity, hits: capacity, misses: capacity + extra, evictions: extra))
        // ...and the oldest is gone.
        if extra > 0 {
            #expect(cache.string(from: now, pattern: Self.pattern(0), locale: "en_US", zone: utc) == "p0 10")
            #expect(cache.statistics == Statistics(entries: capacity, hits: capacity, misses: capacity + extra + 1, evictions: extra + 1))
        }
    }

    @Test func leastRecentlyUsedGoesFirst() throws {
        let cache = FormatterCache(capacity: 3)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        func use(_ name: String) -> String {
            cache.string(from: now, pattern: "'\(name)'", locale: "en_US", zone: utc)
        }
        _ = use("A"); _ = use("B"); _ = use("C")
        _ = use("A")  // B is now the least recently used
        _ = use("D")  // evicts B
        #expect(cache.statistics == Statistics(entries: 3, hits: 1, misses: 4, evictions: 1))

        _ = use("C"); _ = use("A"); _ = use("D")  // all still there; D is now the newest, C the oldest
        #expect(cache.statistics == Statistics(entries: 3, hits: 4, misses: 4, evictions: 1))

        #expect(use("B") == "B")  // B comes back and evicts C
        #expect(cache.statistics == Statistics(entries: 3, hits: 4, misses: 5, evictions: 2))
        _ = use("A"); _ = use("D"); _ = use("B")
        #expect(cache.statistics.hits == 7)
        _ = use("C")
        #expect(cache.statistics == Statistics(entries: 3, hits: 7, misses: 6, evictions: 3))
    }

    /// One client's flood of patterns each used once (distinct `time` requests) does not
    /// evict the formatters others use again and again (a bar's clock, every second).
    @Test func floodOfPatternsUsedOnceKeepsThoseUsedAgain() throws {
        let cache = FormatterCache(capacity: 8)
        #expect(cache.protectedCapacity == 6)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        func use(_ index: Int) { _ = cache.string(from: now, pattern: Self.pattern(index), locale: "en_US", zone: utc) }
        for _ in 0..<2 { for bar in 0..<6 { use(bar) } }  // six bars' formatters, each used again
        #expect(cache.statistics == Statistics(entries: 6, hits: 6, misses: 6, evictions: 0))
        for flood in 100..<1_100 { use(flood) }
        #expect(cache.statistics == Statistics(entries: 8, hits: 6, misses: 1_006, evictions: 998))
        for bar in 0..<6 { use(bar) }
        #expect(cache.statistics.hits == 12, "the bars' formatters were evicted by the flood: \(cache.statistics)")
    }

    /// ICU's default calendar is Julian before 1582-10-15; the cache's formatters are
    /// proleptic Gregorian like ISO 8601 (`date -u -d @-14622264000 +%F` is 1506-08-22).
    @Test func prolepticGregorianBefore1582() throws {
        let cache = FormatterCache()
        let utc = try timeZone("UTC")
        #expect(cache.string(from: Date(timeIntervalSince1970: -14_622_264_000), pattern: "yyyy-MM-dd", locale: "en_US", zone: utc) == "1506-08-22")
        #expect(cache.string(from: Date(timeIntervalSince1970: -12_219_292_800), pattern: "yyyy-MM-dd", locale: "en_US", zone: utc) == "1582-10-15")
        #expect(cache.string(from: Date(timeIntervalSince1970: -12_219_379_200), pattern: "yyyy-MM-dd", locale: "en_US", zone: utc) == "1582-10-14")
        #expect(cache.string(from: Date(timeIntervalSince1970: -62_135_596_800), pattern: "yyyy-MM-dd EEE", locale: "en_US", zone: utc) == "0001-01-01 Mon")
    }

    /// 8 threads × 2000 calls over more keys than fit: every answer right, and the counters
    /// add up (each call is one hit or one miss; each miss adds an entry, each eviction
    /// removes one).
    @Test(arguments: [8, 64])
    func concurrentUse(capacity: Int) throws {
        let threads = 8
        let callsPerThread = 2000
        let cache = FormatterCache(capacity: capacity)
        let zones = [try timeZone("Asia/Shanghai"), try timeZone("America/New_York")]
        let locales = ["en_US", "zh_CN"]
        let patterns = ["yyyy-MM-dd HH:mm:ss", "HH:mm", "EEEE", "'p' HH", "MMMM d", "h:mm a"]
        let dates = [try instant("2026-01-15T01:02:03Z"), try instant("2026-07-04T15:16:17Z"), try instant("2026-12-31T23:59:59Z")]

        struct Key: Sendable { let pattern: String; let locale: String; let zone: TimeZone }
        var keys: [Key] = []
        for pattern in patterns { for locale in locales { for zone in zones { keys.append(Key(pattern: pattern, locale: locale, zone: zone)) } } }
        // What a fresh DateFormatter says, worked out on this thread before the race.
        let expected: [[String]] = keys.map { key in
            dates.map { date in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: key.locale)
                formatter.timeZone = key.zone
                formatter.dateFormat = key.pattern
                return formatter.string(from: date)
            }
        }
        #expect(keys.count == 24)

        // Eight real threads, whatever the machine's core count, started together.
        final class Mismatches: Sendable { let list = Mutex<[String]>([]) }
        let wrong = Mismatches()
        let frozenKeys = keys
        let start = DispatchGroup()
        start.enter()
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread {
                start.wait()
                for call in 0..<callsPerThread {
                    let keyIndex = (thread * 7 + call * 13) % frozenKeys.count
                    let dateIndex = (thread + call) % dates.count
                    let key = frozenKeys[keyIndex]
                    let text = cache.string(from: dates[dateIndex], pattern: key.pattern, locale: key.locale, zone: key.zone)
                    if text != expected[keyIndex][dateIndex] {
                        wrong.list.withLock { $0.append("\(key.pattern) \(key.locale) \(key.zone.identifier): \(text)") }
                    }
                }
                done.leave()
            }.start()
        }
        start.leave()
        done.wait()

        #expect(wrong.list.withLock { $0 } == [])
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == threads * callsPerThread)
        #expect(statistics.entries == min(capacity, keys.count))
        #expect(statistics.misses - statistics.evictions == statistics.entries)
        if capacity >= keys.count {
            // Look-up and insert happen under one lock: no key is ever built twice.
            #expect(statistics.misses == keys.count)
            #expect(statistics.evictions == 0)
        } else {
            #expect(statistics.misses > keys.count)
        }
    }

    /// The same race through Swift concurrency, mixing locales and patterns.
    @Test func concurrentUseFromATaskGroup() async throws {
        let cache = FormatterCache(capacity: 4)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        let wrongCount = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for call in 0..<2000 {
                        switch (task + call) % 3 {
                        case 0:
                            if cache.string(from: now, pattern: "HH 'h'", locale: "en_US", zone: utc) != "10 h" { wrong += 1 }
                        case 1:
                            let index = call % 5
                            if cache.string(from: now, pattern: Self.pattern(index), locale: "en_US", zone: utc) != "p\(index) 10" { wrong += 1 }
                        default:
                            if cache.string(from: now, pattern: "H时", locale: "zh_CN", zone: utc) != "10时" { wrong += 1 }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrongCount == 0)
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == 16_000)
        #expect(statistics.entries == 4)
        #expect(statistics.misses - statistics.evictions == 4)
    }
}
