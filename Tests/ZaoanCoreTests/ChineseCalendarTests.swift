import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// `{lunar}`, `{solar_term}`, `{next_solar_term}` in `status`, and LDML patterns in ICU's
/// Chinese calendar through the formatter cache.
@Suite("Chinese calendar in answers")
struct ChineseCalendarTests {
    func responder(template: String, language: String = "zh", timezone: String = "Asia/Shanghai", city: String? = "北京") throws -> Responder {
        var file = ConfigFile()
        file.language = language
        file.city = city
        file.timezone = city == nil ? timezone : nil
        file.statusTemplate = template
        return Responder(settings: try Settings.resolve(file, systemZone: try timeZone(timezone)))
    }

    func status(_ responder: Responder, at now: Instant) throws -> String {
        try responder.structured(.status, now: now, counters: ServiceFigures(startedAt: now)).text
    }

    @Test("冬至 on its day, nothing the day before; the lunar date beside it")
    func solsticeMorning() throws {
        let responder = try responder(template: "{greeting} · {solar_term} {lunar}")
        #expect(try status(responder, at: try localInstant(2026, 12, 22, 7, 30, in: "Asia/Shanghai")) == "早安·北京 · 冬至 丙午年冬月十四")
        #expect(try status(responder, at: try localInstant(2026, 12, 21, 23, 59, in: "Asia/Shanghai")) == "晚安·北京 · 丙午年冬月十三")
    }

    @Test("the next term and its day in Beijing")
    func nextTerm() throws {
        let chinese = try responder(template: "{next_solar_term}")
        #expect(try status(chinese, at: try localInstant(2026, 12, 1, 8, 0, in: "Asia/Shanghai")) == "大雪 12月7日")
        #expect(try status(chinese, at: try localInstant(2026, 12, 22, 8, 0, in: "Asia/Shanghai")) == "小寒 1月5日")
        let english = try responder(template: "{solar_term}|{next_solar_term}|{lunar}", language: "en", city: "Beijing")
        #expect(try status(english, at: try localInstant(2026, 12, 22, 8, 0, in: "Asia/Shanghai"))
                == "Winter Solstice|Minor Cold Jan 5|Year of Bing-Wu, month 11, day 14")
    }

    @Test("the user's own date: 21 December in New York is the 21st's lunar date, and not yet 冬至")
    func userZone() throws {
        let responder = try responder(template: "{lunar} {solar_term}", timezone: "America/New_York", city: nil)
        // 2026-12-21 20:00 in New York is 2026-12-22 09:00 in Beijing.
        #expect(try status(responder, at: try localInstant(2026, 12, 21, 20, 0, in: "America/New_York")) == "丙午年冬月十三")
    }

    @Test("a template without the placeholders computes no year")
    func noWorkWhenUnused() throws {
        let responder = try responder(template: "{greeting} {time}")
        _ = try status(responder, at: try localInstant(2026, 12, 22, 7, 30, in: "Asia/Shanghai"))
        #expect(responder.almanac.yearsComputed == 0)
    }

    @Test("LDML in the Chinese calendar: the almanac's dates in CLDR's words, one read pattern shared with the Gregorian calendar")
    func chinesePatterns() throws {
        let cache = FormatterCache()
        let almanac = Almanac()
        let shanghai = try timeZone("Asia/Shanghai")
        let now = try localInstant(2026, 11, 30, 8, 30, in: "Asia/Shanghai")
        #expect(try ChineseCalendar.format(now, pattern: "U年MMMd", zone: shanghai, almanac: almanac, cache: cache) == "丙午年十月廿二")
        #expect(try ChineseCalendar.format(try localInstant(2025, 7, 25, 8, 0, in: "Asia/Shanghai"), pattern: "U年MMMd",
                                       zone: shanghai, almanac: almanac, cache: cache) == "乙巳年闰六月初一")
        #expect(try ChineseCalendar.format(now, pattern: "r年MMMd HH:mm", zone: shanghai, almanac: almanac, cache: cache) == "2026年十月廿二 08:30")
        #expect(try ChineseCalendar.format(now, pattern: "MM-dd", zone: shanghai, almanac: almanac, cache: cache) == "10-廿二")
        #expect(try cache.string(from: now, pattern: "MM-dd", language: .zh, zone: shanghai) == "11-30")
        #expect(try ChineseCalendar.format(now, pattern: "U MMM d", zone: shanghai, language: .en, almanac: almanac, cache: cache) == "bing-wu Mo10 22")  // CLDR's English names of Chinese months
        // One read pattern serves both calendars: "U年MMMd" and "MM-dd" were kept and used twice.
        #expect(cache.statistics == FormatterCache.Statistics(entries: 4, hits: 2, misses: 4, evictions: 0))
    }
}
