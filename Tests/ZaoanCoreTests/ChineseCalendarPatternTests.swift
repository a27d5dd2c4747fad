import Foundation
import Testing
@testable import ZaoanAlmanac
@testable import ZaoanCore
@testable import ZaoanTime

/// `ChineseCalendarPattern` (the almanac's dates, ZaoanTime's LDML engine, CLDR 41's words)
/// against ICU's DateFormatter under the service's Chinese-calendar locales
/// (`ICUOracle.chineseLocale`: ICU 76, CLDR 46), over days of 1901–2100 — every day
/// where ICU's calendar is known to differ from the almanacs, the first and a middle day of
/// every leap month, random days — in three zones, for every date field at every width and
/// whole patterns, in the eight languages. A difference passes only when it is named: a day
/// of `icuCalendarDays` (rendering ICU's own date for that day then gives ICU's answer), or
/// an entry of `ChineseCLDRDifferences` (rendering with its CLDR 46 value gives ICU's).
@Suite struct ChineseCalendarPatternTests {
    static let patterns = ["U", "UU", "UUU", "UUUU", "UUUUU", "r", "rr", "rrrr", "y", "yy", "yyy", "yyyy", "G", "GGGG", "GGGGG",
                           "M", "MM", "MMM", "MMMM", "MMMMM", "L", "LL", "LLL", "LLLL", "LLLLL", "d", "dd", "D", "DDD",
                           "Q", "QQQ", "QQQQ", "q", "qqqq", "E", "EEEE", "Y", "YY", "YYYY", "w", "ww", "W",
                           "U年MMMd", "r年MMMd HH:mm", "rU年MMMMd", "rU年MMMdEEEE", "MM-dd", "U MMM d", "LLLL d, r",
                           "G y U MMMMM dd", "HH:mm:ss", "Y年第w周 EEEE", "U MMM W", "YYYY-'W'ww-c"]

    static let zones = ["Asia/Shanghai", "America/New_York", "Pacific/Kiritimati"]

    /// The 121 days of 1901–2100 on which ICU's Chinese calendar gives another date than the
    /// almanacs of China and `Almanac` (ChineseCalendar.swift names them): ICU reckons 1914,
    /// 1916 and 1920 at UTC+8, where the almanacs used Beijing mean time; and two new moons
    /// within a minute of midnight (2057-09-28, 2097-08-07), which ICU puts on the day before.
    static let icuCalendarRanges = [((1914, 11, 17), (1914, 12, 16)), ((1916, 2, 3), (1916, 3, 3)), ((1920, 11, 10), (1920, 12, 9)),
                                    ((2057, 9, 28), (2057, 9, 28)), ((2097, 8, 7), (2097, 9, 5))]
    static let icuCalendarDays = days(widenedBy: 0)

    /// The days of `icuCalendarRanges`, each range widened by `margin` days both ways.
    static func days(widenedBy margin: Int) -> Set<CivilDay> {
        var days: Set<CivilDay> = []
        for (first, last) in icuCalendarRanges {
            let (from, to) = (CivilDay(year: first.0, month: first.1, day: first.2), CivilDay(year: last.0, month: last.1, day: last.2))
            for day in (from.daysSince1970 - margin)...(to.daysSince1970 + margin) { days.insert(CivilDay(daysSince1970: day)) }
        }
        return days
    }

    /// The lunar year 1916 (丙辰), whose 正月初一 ICU puts on 02-04 and the almanacs on
    /// 02-03 (one of the 121 days): ICU's day of the year (`D`) is one less all year long.
    static let icuLateNewYear = CivilDay(year: 1916, month: 2, day: 3)..<CivilDay(year: 1917, month: 1, day: 23)
    /// And so its week numbers (`w`, and `Y` at the year's edges): ICU's first week starts a
    /// day later all through lunar 1916, and ICU's lunar 1915 is a day longer, which moves
    /// the week of its last six days (from 1916-01-28, the almanacs' last six) between years.
    static let icuLateNewYearWeeks = CivilDay(year: 1916, month: 1, day: 28)..<icuLateNewYear.upperBound

    /// Instants at a random time of day (Shanghai's) on every almanac-difference day and the
    /// ten days either side of each range (so a day left off the list, or one too many, shows),
    /// on the first and the 15th day of every leap month, on the first and last days of every
    /// fourth lunar year (where a week crosses between years), and on 600 random days of 1901–2100.
    static func instants(almanac: Almanac, random: inout SplitMix) -> [Int] {
        var days = Array(days(widenedBy: 10))
        for year in 1901...2100 {
            let months = almanac.lunarMonths(ofYear: year)
            for month in months where month.isLeap {
                days += [month.firstDay, month.firstDay.adding(days: 14)]
            }
            if year % 4 == 2, let first = months.first, let last = months.last {
                days += [first.firstDay, last.firstDay.adding(days: last.length - 1)]
            }
        }
        let (first, last) = (CivilDay(year: 1901, month: 2, day: 19), CivilDay(year: 2100, month: 12, day: 31))
        for _ in 0..<600 { days.append(CivilDay(daysSince1970: Int.random(in: first.daysSince1970...last.daysSince1970, using: &random))) }
        return days.sorted().map { Int($0.startUnixSeconds(offsetSeconds: 8 * 3_600)) + Int.random(in: 0..<86_400, using: &random) }
    }

    /// ICU's own Chinese date of the instant's day in `zone`, with ICU's lengths of its year
    /// and the year before.
    static func icuDate(_ date: Date, zone: TimeZone) -> LDMLChineseDate {
        var calendar = Calendar(identifier: .chinese)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.era, .year, .month, .day], from: date)
        let extendedYear = ((parts.era ?? 0) - 1) * 60 + (parts.year ?? 0)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 0
        let lastYear = calendar.date(byAdding: .day, value: -dayOfYear, to: date) ?? date
        return LDMLChineseDate(relatedYear: extendedYear - 2_637, month: parts.month ?? 0, isLeapMonth: parts.isLeapMonth ?? false,
                               day: parts.day ?? 0, dayOfYear: dayOfYear,
                               daysInYear: calendar.range(of: .day, in: .year, for: date)?.count ?? 0,
                               daysInPreviousYear: calendar.range(of: .day, in: .year, for: lastYear)?.count ?? 0)
    }

    @Test("the Chinese calendar's patterns as ICU formats them, but for ICU's own dates and CLDR 41–46 differences, named")
    func differential() throws {
        var random = SplitMix(seed: 0xC41E_5E)
        let almanac = Almanac(capacity: 256)
        let instants = Self.instants(almanac: almanac, random: &random)
        var compared = 0
        var almanacDays: Set<CivilDay> = []
        var documented: [String: Int] = [:]
        var failures: [String: (count: Int, first: String)] = [:]
        for zoneName in Self.zones {
            let zone = try ZoneInfoStore.shared.zoneInfo(named: zoneName)
            let foundationZone = try #require(TimeZone(identifier: zoneName))
            // Shanghai takes every day; the other zones every third, for time.
            let theirs = zoneName == "Asia/Shanghai" ? instants : instants.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            for language in LDMLLanguage.allCases {
                let service = try #require(Language(rawValue: language == .zhHant ? "zh-Hant" : language.rawValue))
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: ICUOracle.chineseLocale(for: service))
                formatter.timeZone = foundationZone
                let tables = (LDMLWords.words(for: language), LDMLChineseWords.words(for: language))
                let cldr46 = ChineseCLDRDifferences.cldr46Words(language)
                for text in Self.patterns {
                    let pattern = try LDMLPattern(text)
                    formatter.dateFormat = text
                    for instant in theirs {
                        let date = Date(timeIntervalSince1970: Double(instant))
                        let icu = formatter.string(from: date)
                        let ours = ChineseCalendarPattern.render(pattern, instant: instant, zone: zone, zoneIdentifier: zoneName,
                                                                 language: language, almanac: almanac) ?? "nil"  // within the almanac's years: never nil
                        compared += 1
                        if icu == ours { continue }
                        let local = CivilDay(daysSince1970: CivilCalendar.floorDivide(instant + WallClock.offset(zone, at: instant), 86_400))
                        let icuDay = Self.icuDate(date, zone: foundationZone)
                        let candidates = ChineseCLDRDifferences.candidates(text, language, ours: ours)
                        func rendered(_ words: (LDMLWords, LDMLChineseWords), _ dated: Bool) -> String {
                            LDMLChineseRenderer.render(pattern, instant: instant, nanoseconds: 0, zone: zone, zoneIdentifier: zoneName,
                                                       words: words.0, zoneWords: LDMLZoneWords.words(for: language), zoneData: .cldr,
                                                       chinese: words.1) { day in
                                dated ? icuDay : ChineseCalendarPattern.date(on: day, almanac: almanac)
                            } ?? "nil"
                        }
                        let icuDated = Self.icuCalendarDays.contains(local)
                        let icuNewYear = text.contains("D") && Self.icuLateNewYear.contains(local)
                            || text.contains { "wY".contains($0) } && Self.icuLateNewYearWeeks.contains(local)
                        if icuDated || icuNewYear, rendered(tables, true) == icu || (!candidates.isEmpty && rendered(cldr46, true) == icu) {
                            if icuDated { almanacDays.insert(local) }
                            documented[icuDated ? "ICU's own date on an almanac-difference day"
                                       : "ICU's lunar year 1916 (a day late: its days of the year and weeks)", default: 0] += 1
                            continue
                        }
                        if !candidates.isEmpty, rendered(cldr46, false) == icu {
                            for name in candidates { documented[name, default: 0] += 1 }
                            continue
                        }
                        let key = "\(language) '\(text)'"
                        let example = "\(zoneName) \(local) @\(instant): ICU '\(icu)', ours '\(ours)'"
                        failures[key] = ((failures[key]?.count ?? 0) + 1, failures[key]?.first ?? example)
                    }
                }
            }
        }
        let listed = failures.sorted { $0.key < $1.key }.prefix(80).map { "\($0.key) ×\($0.value.count): \($0.value.first)" }
        #expect(failures.isEmpty, "\(failures.values.reduce(0) { $0 + $1.count }) differences:\n\(listed.joined(separator: "\n"))")
        #expect(compared > 200_000)
        // Each of the 121 days differs, and no other (a difference elsewhere is a failure above).
        #expect(almanacDays == Self.icuCalendarDays, "\(Self.icuCalendarDays.symmetricDifference(almanacDays).sorted())")
        #expect(Self.icuCalendarDays.count == 121)
        for entry in ChineseCLDRDifferences.entries {
            #expect(documented[entry.name, default: 0] > 0, "no case needs the known difference '\(entry.name)'")
        }
        print("ChineseCalendarPatternTests: \(compared) answers compared; named differences: \(documented.sorted { $0.key < $1.key })")
    }

    @Test("a pattern without date fields asks the almanac nothing")
    func timeOnly() throws {
        let almanac = Almanac()
        let shanghai = try ZoneInfoStore.shared.zoneInfo(named: "Asia/Shanghai")
        let instant = try localInstant(2026, 11, 30, 8, 30, in: "Asia/Shanghai").unixSeconds
        #expect(ChineseCalendarPattern.render(try LDMLPattern("HH:mm EEEE"), instant: instant, zone: shanghai, language: .zh,
                                              almanac: almanac) == "08:30 星期一")
        #expect(almanac.yearsComputed == 0)
        #expect(ChineseCalendarPattern.render(try LDMLPattern("rU年MMMd"), instant: instant, zone: shanghai, language: .zh,
                                              almanac: almanac) == "2026丙午年十月廿二")
        #expect(almanac.yearsComputed > 0)
    }
}

extension ChineseCalendarPatternTests {
    /// The first and last instants of the almanac's years and the seconds beyond them, and
    /// instants far outside (year 78,000 made the almanac trap).
    static let edges: [(instant: Int, inRange: Bool)] = {
        let first = CivilDay(year: ChineseCalendarPattern.years.lowerBound, month: 1, day: 1).startUnixSeconds(offsetSeconds: 0)
        let end = CivilDay(year: ChineseCalendarPattern.years.upperBound + 1, month: 1, day: 1).startUnixSeconds(offsetSeconds: 0)
        let (low, high) = (Int(first), Int(end))
        return [(low, true), (low - 1, false), (high - 1, true), (high, false), (low * 40, false), (2_400_000_000_000, false)]
    }()

    @Test("a date field renders within the almanac's years and is refused beyond, a time field anywhere", arguments: edges)
    func yearsRendered(edge: (instant: Int, inRange: Bool)) throws {
        let almanac = Almanac()
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        let text = ChineseCalendarPattern.render(try LDMLPattern("G rU年MMMd D"), instant: edge.instant, zone: zone, language: .zh, almanac: almanac)
        #expect((text != nil) == edge.inRange, "\(text ?? "nil")")
        #expect(ChineseCalendarPattern.render(try LDMLPattern("HH:mm"), instant: edge.instant, zone: zone, language: .zh, almanac: almanac) != nil)
    }

    @Test("the almanac gives a date all through its years: a day of every 50th year, −1999 to 3000")
    func yearsThrough() throws {
        let almanac = Almanac()
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        let pattern = try LDMLPattern("rU年MMMd")
        for year in stride(from: ChineseCalendarPattern.years.lowerBound, through: ChineseCalendarPattern.years.upperBound, by: 50) {
            let instant = Int(CivilDay(year: year, month: 6, day: 15).startUnixSeconds(offsetSeconds: 0))
            let text = ChineseCalendarPattern.render(pattern, instant: instant, zone: zone, language: .zh, almanac: almanac)
            #expect(text?.hasPrefix("\(year)") == true, "\(year): \(text ?? "nil")")
        }
    }
}
