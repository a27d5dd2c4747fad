import Foundation
import Testing
@testable import ZaoanAlmanac

/// The almanac's parts at their edges: days, ΔT, the terms nearest midnight, leap months,
/// new years, the pre-1929 clock, the texts and the cache. The oracle tests
/// (SolarTermOracleTests, LunarDateOracleTests) cover every term and day; these say what
/// each rule is for.
@Suite("Almanac")
struct AlmanacTests {
    @Test("days since 1970 and back", arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (2000, 3, 1, 11_017),
        (1900, 3, 1, -25_508), (1901, 1, 1, -25_202), (2100, 12, 31, 47_846), (2026, 12, 22, 20_809),
    ])
    func civilDays(_ year: Int, _ month: Int, _ day: Int, _ number: Int) {
        let civil = CivilDay(year: year, month: month, day: day)
        #expect(civil.daysSince1970 == number)
        #expect(civil.date == (year, month, day))
        #expect(CivilDay(daysSince1970: number).description.hasPrefix(String(year)))
    }

    @Test("a day at an offset: the UTC+8 day starts at 16:00 UTC the day before")
    func dayAtOffset() {
        let midnightBeijing = CivilDay(year: 2026, month: 12, day: 22).startUnixSeconds(offsetSeconds: 28_800)
        #expect(CivilDay(unixSeconds: midnightBeijing, offsetSeconds: 28_800) == CivilDay(year: 2026, month: 12, day: 22))
        #expect(CivilDay(unixSeconds: midnightBeijing - 0.001, offsetSeconds: 28_800) == CivilDay(year: 2026, month: 12, day: 21))
        #expect(CivilDay(unixSeconds: -0.5, offsetSeconds: 0) == CivilDay(year: 1969, month: 12, day: 31))
    }

    @Test("ΔT by Espenak & Meeus: known values, and no jump where one polynomial hands over to the next")
    func deltaT() {
        #expect(abs(DeltaT.seconds(decimalYear: 2000) - 63.86) < 0.01)
        #expect(abs(DeltaT.seconds(decimalYear: 1950) - 29.07) < 0.01)
        #expect(abs(DeltaT.seconds(decimalYear: 2100) - 202.74) < 0.1)
        for boundary in [1900.0, 1920, 1941, 1961, 1986, 2005, 2050, 2150] {
            let jump = DeltaT.seconds(decimalYear: boundary) - DeltaT.seconds(decimalYear: boundary - 1e-9)
            #expect(abs(jump) < 1, "ΔT jumps by \(jump) s at \(boundary)")
        }
    }

    /// The terms of 2000–2100 nearest midnight in Beijing (PyEphem: 2021 冬至 at 23:59:07,
    /// 2008 小满 at 00:01:01), and 冬至 2026 (04:49:59 on the 22nd).
    @Test("the day of a term is its day in Beijing", arguments: [
        (2021, SolarTerm.winterSolstice, 12, 21), (2008, SolarTerm.grainBuds, 5, 21),
        (2026, SolarTerm.winterSolstice, 12, 22), (2026, SolarTerm.minorCold, 1, 5),
        (2026, SolarTerm.springEquinox, 3, 20), (2026, SolarTerm.clearAndBright, 4, 5),
    ])
    func termDays(_ year: Int, _ term: SolarTerm, _ month: Int, _ day: Int) {
        let almanac = Almanac()
        let instant = almanac.solarTerms(ofYear: year)[term.rawValue]
        #expect(instant.term == term)
        #expect(instant.day == CivilDay(year: year, month: month, day: day))
        #expect(almanac.solarTerm(on: CivilDay(year: year, month: month, day: day))?.term == term)
        #expect(almanac.solarTerm(on: CivilDay(year: year, month: month, day: day).adding(days: 1)) == nil)
    }

    @Test("terms come in order, 14 to 16 days apart, with their longitudes and names")
    func termOrder() {
        let terms = Almanac().solarTerms(ofYear: 2026)
        #expect(terms.map(\.term) == SolarTerm.allCases)
        for (earlier, later) in zip(terms, terms.dropFirst()) {
            let days = (later.unixSeconds - earlier.unixSeconds) / 86_400
            #expect(days > 14 && days < 16.1, "\(earlier.term) → \(later.term): \(days) days")
        }
        #expect(SolarTerm.minorCold.longitudeDegrees == 285)
        #expect(SolarTerm.springEquinox.longitudeDegrees == 0)
        #expect(SolarTerm.winterSolstice.longitudeDegrees == 270)
        #expect(SolarTerm.allCases.filter(\.isPrincipal).count == 12)
        #expect(SolarTerm.winterSolstice.chineseName == "冬至" && SolarTerm.frostsDescent.englishName == "Frost's Descent")
    }

    @Test("the next term after a day")
    func nextTerm() {
        let almanac = Almanac()
        #expect(almanac.nextSolarTerm(after: CivilDay(year: 2026, month: 12, day: 1)).term == .majorSnow)
        let afterSolstice = almanac.nextSolarTerm(after: CivilDay(year: 2026, month: 12, day: 22))
        #expect(afterSolstice.term == .minorCold)
        #expect(afterSolstice.day.date.year == 2027)
    }

    /// Dates as lunar-python (and the almanacs) give them: new years, leap months (2033's
    /// 闰冬月 is the case a "first month without a principal term" rule taken per lunar year
    /// gets wrong), the pre-1929 clock and the new moons within seconds of midnight.
    @Test("lunar dates at the edges", arguments: [
        (2026, 11, 30, "丙午年十月廿二"), (2026, 2, 16, "乙巳年腊月廿九"), (2026, 2, 17, "丙午年正月初一"),
        (2025, 7, 25, "乙巳年闰六月初一"), (2025, 8, 22, "乙巳年闰六月廿九"), (2023, 3, 22, "癸卯年闰二月初一"),
        (2033, 12, 22, "癸丑年闰冬月初一"), (2034, 1, 20, "癸丑年腊月初一"), (1984, 2, 2, "甲子年正月初一"),
        (1901, 1, 1, "庚子年冬月十一"), (2100, 12, 31, "庚申年腊月初一"),
        (1914, 11, 17, "甲寅年十月初一"), (1906, 4, 24, "丙午年四月初一"),
        (2057, 9, 28, "丁丑年八月三十"), (2057, 9, 29, "丁丑年九月初一"), (2097, 8, 7, "丁巳年七月初一"),
    ])
    func lunarDates(_ year: Int, _ month: Int, _ day: Int, _ expected: String) {
        #expect(Almanac().lunarDate(on: CivilDay(year: year, month: month, day: day)).chineseText == expected)
    }

    @Test("lunar date texts")
    func lunarTexts() {
        let date = LunarDate(relatedYear: 2026, month: 10, isLeapMonth: false, day: 12)
        #expect(date.chineseText == "丙午年十月十二")
        #expect(date.englishText == "Year of Bing-Wu, month 10, day 12")
        #expect(date.cycleYear == 43)
        let leap = LunarDate(relatedYear: 2025, month: 6, isLeapMonth: true, day: 20)
        #expect(leap.chineseText == "乙巳年闰六月二十")
        #expect(leap.englishText == "Year of Yi-Si, leap month 6, day 20")
        #expect(LunarDate.dayNames[0] == "初一" && LunarDate.dayNames[9] == "初十" && LunarDate.dayNames[20] == "廿一"
                && LunarDate.dayNames[29] == "三十")
    }

    @Test("each year is computed once; the cache keeps at most its capacity")
    func cache() {
        let almanac = Almanac(capacity: 2)
        let day = CivilDay(year: 2026, month: 6, day: 1)
        _ = almanac.lunarDate(on: day)
        let computed = almanac.yearsComputed  // terms of 2025 and 2026, the span of 2026
        #expect(computed == 3)
        for _ in 0..<100 { _ = almanac.lunarDate(on: day); _ = almanac.solarTerm(on: day) }
        #expect(almanac.yearsComputed == computed)
        for year in 2030...2032 { _ = almanac.solarTerms(ofYear: year) }  // 2025 and 2026 go
        _ = almanac.solarTerms(ofYear: 2026)
        #expect(almanac.yearsComputed == computed + 4)
    }

    @Test("Beijing mean time for 1912–1928, UTC+8 before and after")
    func chinaTime() {
        #expect(ChinaTime.offsetSeconds(at: CivilDay(year: 1911, month: 6, day: 1).startUnixSeconds(offsetSeconds: 0)) == 28_800)
        #expect(ChinaTime.offsetSeconds(at: CivilDay(year: 1920, month: 6, day: 1).startUnixSeconds(offsetSeconds: 0)) == 27_940)
        #expect(ChinaTime.offsetSeconds(at: ChinaTime.standardTimeFrom - 1) == 27_940)
        #expect(ChinaTime.offsetSeconds(at: ChinaTime.standardTimeFrom) == 28_800)
        #expect(CivilDay(unixSeconds: ChinaTime.beijingMeanTimeFrom, offsetSeconds: 27_940) == CivilDay(year: 1912, month: 1, day: 1))
    }
}
