import Foundation
import Testing
@testable import ZaoanTime

/// The Chinese calendar's side of the LDML engine, without the almanac (the differential test
/// against ICU with the almanac's dates is ZaoanCoreTests' ChineseCalendarPatternTests): the
/// generated table is the generator's output, `U` and `r` in the Gregorian calendar are ICU's,
/// a given lunar date renders in each width's words and leap pattern and its weeks as ICU
/// counts them, and the fields no calendar changes are the Gregorian engine's.
@Suite struct LDMLChineseTests {
    @Test("the committed LDMLChineseWords+CLDR.swift is what scripts/generate/chinese-calendar-words.py makes from CLDR 41")
    func generatedTable() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [LDMLPatternTests.root + "/scripts/generate/chinese-calendar-words.py"]
        process.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run scripts/ensure-oracles first (it installs Debian's unicode-cldr-core)")
        let committed = try String(contentsOfFile: LDMLPatternTests.root + "/Sources/ZaoanTime/LDMLChineseWords+CLDR.swift", encoding: .utf8)
        #expect(String(decoding: data, as: UTF8.self) == committed,
                "run scripts/generate/chinese-calendar-words.py > Sources/ZaoanTime/LDMLChineseWords+CLDR.swift")
    }

    @Test("U takes widths 1–5, r any width")
    func reading() throws {
        #expect(try LDMLPattern("UUUUU").pieces == [.field(.cyclicYear, width: 5)])
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "U", width: 6)) { try LDMLPattern("UUUUUU") }
        #expect(try LDMLPattern("rrrrrrr年").pieces == [.field(.relatedYear, width: 7), .literal("年")])
    }

    @Test("in the Gregorian calendar U is the year as y writes it and r the proleptic year with its sign, as ICU has them")
    func gregorian() throws {
        var random = LDMLDifferentialTests.Generator(state: 0x0C1C_11C)
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        let instants = (0..<300).map { _ in Int.random(in: -80_000_000_000...80_000_000_000, using: &random) }
        for language in LDMLLanguage.allCases {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: LDMLDifferentialTests.icuLocale(language))
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.gregorianStartDate = Date.distantPast
            for text in ["U", "UU", "UUU", "UUUU", "UUUUU", "r", "rr", "rrr", "rrrrr", "U r y"] {
                formatter.dateFormat = text
                let pattern = try LDMLPattern(text)
                for instant in instants {
                    let icu = formatter.string(from: Date(timeIntervalSince1970: Double(instant)))
                    let ours = LDMLRenderer.render(pattern, instant: instant, zone: zone, language: language)
                    #expect(icu == ours, "\(language) '\(text)' @\(instant)")
                }
            }
        }
    }

    static let leapSix = LDMLChineseDate(relatedYear: 2025, month: 6, isLeapMonth: true, day: 1, dayOfYear: 178, daysInYear: 384,
                                         daysInPreviousYear: 354)

    @Test("a leap month in each width's words and pattern, the cycle's era and year, hanidays for zh only", arguments: [
        (LDMLLanguage.zh, "G y U r MMMMM M MM LLLL d dd D", "78 42 乙巳 2025 闰六 闰6 闰06 闰六月 初一 初一 178"),
        (.zhHant, "U年MMMd", "乙巳年閏六月初一"),
        (.en, "U MMMM MMMMM LLL dd", "yi-si Sixth Monthbis 6b Mo6bis 01"),
        (.ko, "U년 MMM d일", "을사년 윤6월 1일"),
        (.de, "MMM yy", "M06bis 42"),
    ])
    func rendered(language: LDMLLanguage, pattern: String, expected: String) throws {
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        var asked: [CivilDay] = []
        let text = LDMLChineseRenderer.render(try LDMLPattern(pattern), instant: 1_753_401_600, zone: zone, language: language) { day in
            asked.append(day)
            return Self.leapSix
        }
        #expect(text == expected)
        #expect(asked == [CivilDay(year: 2025, month: 7, day: 25)])  // once, for the local day
    }

    /// Week fields at the lunar years' edges, each answer ICU 76's (`@calendar=chinese`, UTC):
    /// 2024-02-10 is 正月初一 of a year after a 384-day one, in de (weeks from Monday, 4 days
    /// in the first) week 55 of the year before; 2027-02-05 is the 354th and last day of its
    /// year, in en (from Sunday, 1 day) in week 1 of the next, in de still in week 51.
    @Test("week fields count in the lunar year and month, the year's edges in the week of the year next to it", arguments: [
        (LDMLLanguage.de, (2024, 2, 10), LDMLChineseDate(relatedYear: 2024, month: 1, isLeapMonth: false, day: 1, dayOfYear: 1,
                                                          daysInYear: 354, daysInPreviousYear: 384), "4660 55 0 60 4660"),
        (.en, (2027, 2, 5), LDMLChineseDate(relatedYear: 2026, month: 12, isLeapMonth: false, day: 29, dayOfYear: 354,
                                            daysInYear: 354, daysInPreviousYear: 384), "4664 1 5 64 4664"),
        (.de, (2027, 2, 5), LDMLChineseDate(relatedYear: 2026, month: 12, isLeapMonth: false, day: 29, dayOfYear: 354,
                                            daysInYear: 354, daysInPreviousYear: 384), "4663 51 4 63 4663"),
    ])
    func weeks(language: LDMLLanguage, day: (Int, Int, Int), date: LDMLChineseDate, expected: String) throws {
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        let instant = Int(CivilDay(year: day.0, month: day.1, day: day.2).startUnixSeconds(offsetSeconds: 0)) + 43_200
        #expect(LDMLChineseRenderer.render(try LDMLPattern("Y w W YY YYYY"), instant: instant, zone: zone, language: language) { _ in date }
                == expected)
    }

    /// The fields no calendar changes, every width the reader takes, in whole patterns too.
    static let calendarFree = ["E", "EEEE", "EEEEE", "e", "ee", "eeee", "c", "cccc", "a", "aaaa", "b", "bbbb", "bbbbb", "B", "BBBB",
                               "BBBBB", "h", "hh", "H", "K", "k", "mm", "ss", "S", "SSS", "SSSSSS", "Z", "ZZZZ", "ZZZZZ", "x",
                               "xxx", "XXXXX", "O", "OOOO", "z", "zzzz", "v", "vvvv", "VV", "VVV", "VVVV",
                               "h:mm B", "HH:mm:ss zzzz", "h:mm:ss bbbb (VVV)", "EEEE HH:mm v"]

    @Test("the fields the calendar does not give render as the Gregorian engine renders them, zone names by the zone's name")
    func calendarFreeFields() throws {
        var random = LDMLDifferentialTests.Generator(state: 0xC41E_F1E1D)
        var compared = 0
        for (name, identifier) in [("Asia/Shanghai", "Asia/Shanghai"), ("America/New_York", "America/New_York"),
                                   ("Europe/Dublin", "Europe/Dublin"), ("UTC", nil)] {
            let zone = try ZoneInfoStore.shared.zoneInfo(named: name)
            for _ in 0..<60 {
                let instant = Int.random(in: -2_500_000_000...4_200_000_000, using: &random)
                let nanoseconds = Int.random(in: 0..<1_000_000_000, using: &random)
                for language in LDMLLanguage.allCases {
                    for text in Self.calendarFree {
                        let pattern = try LDMLPattern(text)
                        let chinese = LDMLChineseRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone,
                                                                 zoneIdentifier: identifier, language: language) { _ in nil }
                        let gregorian = LDMLRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone,
                                                            zoneIdentifier: identifier, language: language)
                        #expect(chinese == gregorian, "\(language) '\(text)' \(name) @\(instant)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 4 * 60 * 8 * Self.calendarFree.count)
    }

    @Test("no date from the caller: no answer, unless the pattern needs none")
    func noDate() throws {
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "UTC")
        #expect(LDMLChineseRenderer.render(try LDMLPattern("HH:mm d"), instant: 0, zone: zone, language: .zh) { _ in nil } == nil)
        #expect(LDMLChineseRenderer.render(try LDMLPattern("HH:mm EEE"), instant: 0, zone: zone, language: .en) { _ in nil } == "00:00 Thu")
    }
}
