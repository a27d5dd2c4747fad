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

        #expect(try cache.string(from: first, pattern: "yyyy-MM-dd HH:mm:ss", language: .en, zone: tokyo) == "2026-01-15 10:02:03")
        #expect(cache.statistics == Statistics(entries: 1, hits: 0, misses: 1, evictions: 0))

        // The kept formatter formats whatever date it is given next.
        #expect(try cache.string(from: second, pattern: "yyyy-MM-dd HH:mm:ss", language: .en, zone: tokyo) == "2026-07-05 00:16:17")
        #expect(try cache.string(from: first, pattern: "yyyy-MM-dd HH:mm:ss", language: .en, zone: tokyo) == "2026-01-15 10:02:03")
        #expect(cache.statistics == Statistics(entries: 1, hits: 2, misses: 1, evictions: 0))
    }

    /// The key is the pattern alone: one read pattern serves every language and zone, and
    /// each answer is still in its own language and zone.
    @Test func oneEntryPerPatternForEveryLanguageAndZone() throws {
        let cache = FormatterCache(capacity: 8)
        let now = try instant("2026-01-14T23:30:00Z")  // Thursday in Tokyo, Wednesday in LA
        let uses: [(String, Language, String, String)] = [
            ("EEEE", .en, "Asia/Tokyo", "Thursday"),
            ("EEEE", .zh, "Asia/Tokyo", "星期四"),
            ("EEEE", .en, "America/Los_Angeles", "Wednesday"),
            ("HH:mm", .en, "Asia/Tokyo", "08:30"),
            ("HH:mm", .en, "UTC", "23:30"),
        ]
        for (pattern, language, zone, expected) in uses {
            #expect(try cache.string(from: now, pattern: pattern, language: language, zone: try timeZone(zone)) == expected)
        }
        #expect(cache.statistics == Statistics(entries: 2, hits: 3, misses: 2, evictions: 0))
    }

    /// A refused pattern is kept with its reason: asking again is a hit, and throws the same.
    @Test func refusedPatternIsKeptWithItsReason() throws {
        let cache = FormatterCache(capacity: 4)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        var reasons: [String] = []
        for _ in 0..<2 {
            do {
                _ = try cache.string(from: now, pattern: "yyyy-MM-dd 'unclosed", language: .en, zone: utc)
            } catch {
                reasons.append("\(error)")
            }
        }
        #expect(reasons.count == 2 && reasons[0] == reasons[1] && !reasons[0].isEmpty, "\(reasons)")
        #expect(cache.statistics == Statistics(entries: 1, hits: 1, misses: 1, evictions: 0))
    }

    /// Capacity N, N + k distinct patterns: N stay, k were evicted, the oldest first.
    @Test(arguments: [(1, 1), (1, 5), (4, 3), (8, 8), (64, 10), (5, 0)])
    func evictionBound(capacity: Int, extra: Int) throws {
        let cache = FormatterCache(capacity: capacity)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        for index in 0..<(capacity + extra) {
            #expect(try cache.string(from: now, pattern: Self.pattern(index), language: .en, zone: utc) == "p\(index) 10")
        }
        #expect(cache.statistics == Statistics(entries: capacity, hits: 0, misses: capacity + extra, evictions: extra))

        // The newest N are still there...
        for index in extra..<(capacity + extra) {
            _ = try cache.string(from: now, pattern: Self.pattern(index), language: .en, zone: utc)
        }
        #expect(cache.statistics == Statistics(entries: capacity, hits: capacity, misses: capacity + extra, evictions: extra))
        // ...and the oldest is gone.
        if extra > 0 {
            #expect(try cache.string(from: now, pattern: Self.pattern(0), language: .en, zone: utc) == "p0 10")
            #expect(cache.statistics == Statistics(entries: capacity, hits: capacity, misses: capacity + extra + 1, evictions: extra + 1))
        }
    }

    @Test func leastRecentlyUsedGoesFirst() throws {
        let cache = FormatterCache(capacity: 3)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        func use(_ name: String) throws -> String {
            try cache.string(from: now, pattern: "'\(name)'", language: .en, zone: utc)
        }
        _ = try use("A"); _ = try use("B"); _ = try use("C")
        _ = try use("A")  // B is now the least recently used
        _ = try use("D")  // evicts B
        #expect(cache.statistics == Statistics(entries: 3, hits: 1, misses: 4, evictions: 1))

        _ = try use("C"); _ = try use("A"); _ = try use("D")  // all still there; D is now the newest, C the oldest
        #expect(cache.statistics == Statistics(entries: 3, hits: 4, misses: 4, evictions: 1))

        #expect(try use("B") == "B")  // B comes back and evicts C
        #expect(cache.statistics == Statistics(entries: 3, hits: 4, misses: 5, evictions: 2))
        _ = try use("A"); _ = try use("D"); _ = try use("B")
        #expect(cache.statistics.hits == 7)
        _ = try use("C")
        #expect(cache.statistics == Statistics(entries: 3, hits: 7, misses: 6, evictions: 3))
    }

    /// One client's flood of patterns each used once (distinct `time` requests) does not
    /// evict the formatters others use again and again (a bar's clock, every second).
    @Test func floodOfPatternsUsedOnceKeepsThoseUsedAgain() throws {
        let cache = FormatterCache(capacity: 8)
        #expect(cache.protectedCapacity == 6)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        func use(_ index: Int) throws { _ = try cache.string(from: now, pattern: Self.pattern(index), language: .en, zone: utc) }
        for _ in 0..<2 { for bar in 0..<6 { try use(bar) } }  // six bars' formatters, each used again
        #expect(cache.statistics == Statistics(entries: 6, hits: 6, misses: 6, evictions: 0))
        for flood in 100..<1_100 { try use(flood) }
        #expect(cache.statistics == Statistics(entries: 8, hits: 6, misses: 1_006, evictions: 998))
        for bar in 0..<6 { try use(bar) }
        #expect(cache.statistics.hits == 12, "the bars' formatters were evicted by the flood: \(cache.statistics)")
    }

    /// ICU's default calendar is Julian before 1582-10-15; the cache's formatters are
    /// proleptic Gregorian like ISO 8601 (`date -u -d @-14622264000 +%F` is 1506-08-22).
    @Test func prolepticGregorianBefore1582() throws {
        let cache = FormatterCache()
        let utc = try timeZone("UTC")
        #expect(try cache.string(from: Instant(secondsSince1970: -14_622_264_000), pattern: "yyyy-MM-dd", language: .en, zone: utc) == "1506-08-22")
        #expect(try cache.string(from: Instant(secondsSince1970: -12_219_292_800), pattern: "yyyy-MM-dd", language: .en, zone: utc) == "1582-10-15")
        #expect(try cache.string(from: Instant(secondsSince1970: -12_219_379_200), pattern: "yyyy-MM-dd", language: .en, zone: utc) == "1582-10-14")
        #expect(try cache.string(from: Instant(secondsSince1970: -62_135_596_800), pattern: "yyyy-MM-dd EEE", language: .en, zone: utc) == "0001-01-01 Mon")
    }

    /// 8 threads × 2000 calls over more patterns than fit: every answer what ICU's
    /// DateFormatter says, and the counters add up (each call is one hit or one miss; each
    /// miss adds an entry, each eviction removes one).
    @Test(arguments: [4, 64])
    func concurrentUse(capacity: Int) throws {
        let threads = 8
        let callsPerThread = 2000
        let cache = FormatterCache(capacity: capacity)
        let zones = ["Asia/Shanghai", "America/New_York"]
        let languages: [Language] = [.en, .zh]
        let patterns = ["yyyy-MM-dd HH:mm:ss", "HH:mm", "EEEE", "'p' HH", "MMMM d", "h:mm a"]
        let dates = [try instant("2026-01-15T01:02:03Z"), try instant("2026-07-04T15:16:17Z"), try instant("2026-12-31T23:59:59Z")]

        struct Key: Sendable { let pattern: String; let language: Language; let zoneName: String; let zone: Zone }
        var keys: [Key] = []
        for pattern in patterns {
            for language in languages {
                for zone in zones { keys.append(Key(pattern: pattern, language: language, zoneName: zone, zone: try timeZone(zone))) }
            }
        }
        // What ICU says, worked out on this thread before the race.
        let icu = ICUOracle()
        let expected: [[String]] = keys.map { key in
            dates.map { icu.string($0, pattern: key.pattern, locale: key.language.localeIdentifier, zone: key.zoneName) }
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
                    let text: String
                    do { text = try cache.string(from: dates[dateIndex], pattern: key.pattern, language: key.language, zone: key.zone) } catch { text = "refused: \(error)" }
                    if text != expected[keyIndex][dateIndex] {
                        wrong.list.withLock { $0.append("\(key.pattern) \(key.language) \(key.zoneName): \(text)") }
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
        #expect(statistics.entries == min(capacity, patterns.count))
        #expect(statistics.misses - statistics.evictions == statistics.entries)
        if capacity >= patterns.count {
            // Look-up and insert happen under one lock: no pattern is ever read twice.
            #expect(statistics.misses == patterns.count)
            #expect(statistics.evictions == 0)
        } else {
            #expect(statistics.misses > patterns.count)
        }
    }

    /// The same race through Swift concurrency, mixing languages and patterns.
    @Test func concurrentUseFromATaskGroup() async throws {
        let cache = FormatterCache(capacity: 4)
        let utc = try timeZone("UTC")
        let now = try instant("2026-01-15T10:00:00Z")
        @Sendable func text(_ pattern: String, _ language: Language) -> String {
            do { return try cache.string(from: now, pattern: pattern, language: language, zone: utc) } catch { return "refused: \(error)" }
        }
        let wrongCount = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for call in 0..<2000 {
                        switch (task + call) % 3 {
                        case 0:
                            if text("HH 'h'", .en) != "10 h" { wrong += 1 }
                        case 1:
                            let index = call % 5
                            if text(Self.pattern(index), .en) != "p\(index) 10" { wrong += 1 }
                        default:
                            if text("H时", .zh) != "10时" { wrong += 1 }
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
