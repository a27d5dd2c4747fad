import Foundation
import Testing
import ZaoanTime
@testable import ZaoanCalendar
@testable import ZaoanRecurrence

extension CalendarTests {
    /// Rules of the Chinese calendar (RFC 7529's RSCALE=CHINESE) and SKIP, through the
    /// engine (`RuleIterator`), against lunar-python's months for every lunar year 1901–2100.
    @Suite struct ChineseRuleTests {
        struct OracleMonth: Equatable {
            let number: Int
            let isLeap: Bool
            let firstDay: Int64
            let length: Int
        }

        /// lunar-python's months (Tests/Oracles/lunar_months.py), by lunar year.
        static func oracleMonths() throws -> [Int: [OracleMonth]] {
            var years: [Int: [OracleMonth]] = [:]
            for line in try CalendarOracle.runLunar("lunar_months.py", ["1901", "2100"]) {
                let fields = line.split(separator: " ").compactMap { Int($0) }
                guard fields.count == 5 else { throw OracleFailure("lunar_months.py: odd line '\(line)'") }
                years[fields[0], default: []].append(OracleMonth(number: fields[1], isLeap: fields[2] == 1, firstDay: Int64(fields[3]), length: fields[4]))
            }
            return years
        }

        /// What RFC 7529 §4.1 gives for month `number` (leap or not), day `day`, in `year`'s
        /// months, under `skip`: nil when OMIT leaves it out.
        static func expected(_ months: [OracleMonth], number: Int, leap: Bool, day: Int, skip: RuleParts.Skip) -> Int64? {
            var month = months.first { $0.number == number && $0.isLeap == leap }
            if month == nil, leap {
                switch skip {
                case .omit: return nil
                case .backward: month = months.first { $0.number == number && !$0.isLeap }
                case .forward: month = number < 12 ? months.first { $0.number == number + 1 && !$0.isLeap } : nil
                }
            }
            guard let month else { return nil }
            if day <= month.length { return month.firstDay + Int64(day - 1) }
            switch skip {
            case .omit: return nil
            case .backward: return month.firstDay + Int64(month.length - 1)
            case .forward: return month.firstDay + Int64(month.length)
            }
        }

        static func days(_ rule: String, from start: LocalDateTime, through last: LocalDateTime) -> [Int64] {
            guard let parts = RuleParts.read(rule).parts else { return [] }
            var iterator = RuleIterator(parts: parts, start: start, through: last, budget: 1_000_000)
            var days: [Int64] = []
            while let wall = iterator.next(), wall <= last { days.append(wall.day.dayNumber) }
            return days
        }

        /// After the last day of lunar 2100 (its 腊月 ends in January 2101).
        static let lastDay = LocalDateTime(year: 2101, month: 3, day: 31)!

        @Test("the table's months are lunar-python's, every lunar year 1901–2100")
        func monthsAgree() throws {
            let oracle = try Self.oracleMonths()
            #expect(oracle.count == 200)
            var differing: [Int] = []
            for year in 1901...2100 {
                let ours = ChineseMonthTable.months(ofYear: year)?.map { OracleMonth(number: $0.number, isLeap: $0.isLeap, firstDay: $0.firstDay, length: $0.length) }
                if ours != oracle[year] { differing.append(year) }
            }
            #expect(differing.isEmpty, "years whose months differ: \(differing.prefix(10))")
            #expect(ChineseMonthTable.months(ofYear: 1900) == nil && ChineseMonthTable.months(ofYear: 2101) == nil)
        }

        @Test("BYMONTH (leap months too) and BYMONTHDAY 1, 29, 30 under OMIT, BACKWARD and FORWARD: every year 1901–2100 as lunar-python has it")
        func yearlyRulesAgree() throws {
            let oracle = try Self.oracleMonths()
            // DTSTART: 正月初一 of 1901 (1901-02-19), an instance of its own (RFC 5545 §3.8.5.3).
            let start = LocalDateTime(year: 1901, month: 2, day: 19)!
            var differences: [String] = []
            var compared = 0
            for number in 1...12 {
                for leap in [false, true] {
                    for day in [1, 29, 30] {
                        for skip in RuleParts.Skip.allCases {
                            let rule = "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=\(number)\(leap ? "L" : "");BYMONTHDAY=\(day);SKIP=\(skip.rawValue)"
                            let want = (1901...2100).compactMap { Self.expected(oracle[$0] ?? [], number: number, leap: leap, day: day, skip: skip) }
                            var got = Self.days(rule, from: start, through: Self.lastDay)
                            if got.first == start.day.dayNumber, want.first != got.first { got.removeFirst() }
                            compared += want.count
                            if got != want {
                                let first = zip(got, want).first { $0 != $1 }.map { "zaoan \(CivilDay.inCalendar(daysSince1970: $0.0)!) vs \(CivilDay.inCalendar(daysSince1970: $0.1)!)" } ?? "\(got.count) vs \(want.count) instances"
                                differences.append("\(rule): \(first)")
                            }
                        }
                    }
                }
            }
            #expect(differences.isEmpty, "\(differences.count) rules differ:\n\(differences.prefix(10).joined(separator: "\n"))")
            #expect(compared > 30_000)
        }

        @Test("lunar-yearly (DTSTART's month and day; SKIP=BACKWARD) from a leap month's day and from a 30th, to 2100")
        func birthdaysFromStart() throws {
            let oracle = try Self.oracleMonths()
            // A start in each kind of month: 闰六月十五 of 2025, 八月初四 of 2026, the first 腊月三十
            // after 1930, and the first 30th of a leap month after 1950.
            var cases: [(number: Int, leap: Bool, day: Int, year: Int)] = [(6, true, 15, 2025), (8, false, 4, 2026)]
            if let year = (1930...2100).first(where: { oracle[$0]?.last?.length == 30 }) { cases.append((12, false, 30, year)) }
            for year in 1950...2100 {
                if let month = oracle[year]?.first(where: { $0.isLeap && $0.length == 30 }) {
                    cases.append((month.number, true, 30, year))
                    break
                }
            }
            #expect(cases.count == 4)
            for item in cases {
                guard let first = Self.expected(oracle[item.year] ?? [], number: item.number, leap: item.leap, day: item.day, skip: .omit),
                      let startDay = CivilDay.inCalendar(daysSince1970: first) else {
                    Issue.record("no \(item) in lunar-python")
                    continue
                }
                let start = LocalDateTime(startDay, hour: 19)
                let rule = try RecurrenceRule(parsing: "lunar-yearly").text
                #expect(rule == "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
                let want = (item.year...2100).compactMap { Self.expected(oracle[$0] ?? [], number: item.number, leap: item.leap, day: item.day, skip: .backward) }
                #expect(Self.days(rule, from: start, through: Self.lastDay) == want, "from \(startDay)")
                // OMIT (RFC 7529's default) leaves the years without that day out.
                let omitted = (item.year...2100).compactMap { Self.expected(oracle[$0] ?? [], number: item.number, leap: item.leap, day: item.day, skip: .omit) }
                #expect(Self.days("RSCALE=CHINESE;FREQ=YEARLY", from: start, through: Self.lastDay) == omitted, "from \(startDay), OMIT")
            }
        }

        @Test("MONTHLY counts leap months: BYMONTHDAY=30 with FORWARD, and INTERVAL=2, every month 1901–2100")
        func monthlyRulesAgree() throws {
            let oracle = try Self.oracleMonths()
            let months = (1901...2100).flatMap { oracle[$0] ?? [] }
            let start = LocalDateTime(year: 1901, month: 2, day: 19)!
            let forward = months.map { $0.length == 30 ? $0.firstDay + 29 : $0.firstDay + Int64($0.length) }
            var got = Self.days("RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=30;SKIP=FORWARD", from: start, through: Self.lastDay)
            if got.first == start.day.dayNumber { got.removeFirst() }
            // The FORWARD day of 2100's last month lies past the window's end.
            #expect(got == Array(forward.prefix(got.count)) && got.count >= forward.count - 1)
            let everyOther = stride(from: 0, to: months.count, by: 2).map { months[$0].firstDay }
            #expect(Self.days("RSCALE=CHINESE;FREQ=MONTHLY;INTERVAL=2", from: start, through: Self.lastDay) == everyOther)
        }

        @Test("a window far from DTSTART: the iterator jumps to it (few steps), and no instance outside 1901–2100")
        func jumpsAndEnds() throws {
            let parts = try #require(RuleParts.read("RSCALE=CHINESE;FREQ=YEARLY").parts)
            let start = LocalDateTime(year: 1901, month: 2, day: 19)!
            var iterator = RuleIterator(parts: parts, start: start, from: LocalDateTime(year: 2090, month: 1, day: 1)!)
            var walls: [LocalDateTime] = []
            while let wall = iterator.next() { walls.append(wall) }
            // From the lunar year holding 2090-01-01 (2089's, whose 正月 began in 2089) to 2100's.
            #expect(walls.first?.day.year == 2089 && walls.last?.day.year == 2100 && walls.count == 12, "\(walls.first.map(String.init(describing:)) ?? "-") … \(walls.count)")
            #expect(iterator.steps < 40)
            // DTSTART before 1901: the rule gives DTSTART alone.
            var early = RuleIterator(parts: parts, start: LocalDateTime(year: 1850, month: 3, day: 1)!)
            #expect(early.next() != nil && early.next() == nil)
        }

        @Test("SKIP in the Gregorian calendar (RSCALE=GREGORIAN): the 31st and February 29, in periods and where BYMONTHDAY limits")
        func gregorianSkip() {
            func dates(_ rule: String, _ start: LocalDateTime) -> [String] {
                guard let parts = RuleParts.read(rule).parts else { return ["unreadable"] }
                var iterator = RuleIterator(parts: parts, start: start)
                var out: [String] = []
                while out.count < 4, let wall = iterator.next() { out.append("\(wall.day)") }
                return out
            }
            let december31 = LocalDateTime(year: 2014, month: 12, day: 31)!
            #expect(dates("FREQ=MONTHLY", december31) == ["2014-12-31", "2015-01-31", "2015-03-31", "2015-05-31"])
            #expect(dates("RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD", december31) == ["2014-12-31", "2015-01-31", "2015-02-28", "2015-03-31"])
            #expect(dates("RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=FORWARD", december31) == ["2014-12-31", "2015-01-31", "2015-03-01", "2015-03-31"])
            let leapDay = LocalDateTime(year: 2024, month: 2, day: 29)!
            #expect(dates("RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD", leapDay) == ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28"])
            #expect(dates("RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD", leapDay) == ["2024-02-29", "2025-03-01", "2026-03-01", "2027-03-01"])
            let january31 = LocalDateTime(year: 2025, month: 1, day: 31)!
            #expect(dates("RSCALE=GREGORIAN;FREQ=DAILY;BYMONTHDAY=31;SKIP=BACKWARD", january31) == ["2025-01-31", "2025-02-28", "2025-03-31", "2025-04-30"])
            #expect(dates("RSCALE=GREGORIAN;FREQ=DAILY;BYMONTHDAY=31;SKIP=FORWARD", january31) == ["2025-01-31", "2025-03-01", "2025-03-31", "2025-05-01"])
            // A moved day that another BYMONTHDAY gives too is one instance.
            #expect(dates("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=1,31;SKIP=FORWARD", january31) == ["2025-01-31", "2025-02-01", "2025-03-01", "2025-03-31"])
        }

        @Test("reading RSCALE and SKIP: round trips, leap months only in the Chinese calendar, what is refused and why")
        func reading() throws {
            let chinese = RuleParts.read("rscale=chinese;freq=yearly;bymonth=5l,5;bymonthday=30;skip=forward")
            #expect(chinese.problems.isEmpty)
            #expect(chinese.parts?.text == "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=5,5L;SKIP=FORWARD")
            #expect(RuleParts.read(chinese.parts!.text).parts == chinese.parts)
            let gregorianLeap = RuleParts.read("FREQ=YEARLY;BYMONTH=5L,6")
            #expect(gregorianLeap.parts?.months == [6] && gregorianLeap.problems.count == 1)
            let lunar = RuleParts.read("FREQ=LUNAR_YEARLY")
            #expect(lunar.parts?.text == "RSCALE=CHINESE;FREQ=YEARLY" && lunar.problems == ["FREQ=LUNAR_YEARLY is no RFC 5545 frequency; read as RSCALE=CHINESE;FREQ=YEARLY"])
            let hebrew = RuleParts.read("RSCALE=HEBREW;FREQ=YEARLY")
            #expect(hebrew.parts == nil && hebrew.problems.first?.contains("Gregorian and the Chinese calendar") == true)
            let daily = RuleParts.read("RSCALE=CHINESE;FREQ=DAILY;BYMONTHDAY=1")
            #expect(daily.parts == nil && daily.problems.first?.contains("FREQ=YEARLY and MONTHLY") == true)
            let bareSkip = RuleParts.read("FREQ=MONTHLY;SKIP=BACKWARD")
            #expect(bareSkip.parts?.scale == .gregorian && bareSkip.problems.count == 1)
            // Rooms: the short form, the tolerated frequency, a SKIP typed alone, and the culprit named.
            #expect(try RecurrenceRule(parsing: "FREQ=LUNAR_YEARLY").text == "RSCALE=CHINESE;FREQ=YEARLY")
            #expect(try RecurrenceRule(parsing: "FREQ=MONTHLY;SKIP=BACKWARD").text == "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD")
            #expect(try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=4L").text == "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=4L")
            #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=DAILY;BYMONTH=1") }
            do {
                _ = try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=SIDEWAYS")
                Issue.record("SKIP=SIDEWAYS was taken")
            } catch {
                #expect(error.description == "'SKIP=SIDEWAYS' is not understood: SKIP is OMIT, BACKWARD or FORWARD")
            }
        }
    }
}

extension CalendarTests.ChineseRuleTests {
    @Test("a calendar file's lunar birthday (RSCALE=CHINESE) and FREQ=LUNAR_YEARLY, said once in the file's problems")
    func calendarFile() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:mom\r
            DTSTART;VALUE=DATE:20260925\r
            SUMMARY:妈妈生日\r
            RRULE:RSCALE=CHINESE;FREQ=YEARLY\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:dad\r
            DTSTART;VALUE=DATE:20260925\r
            SUMMARY:爸爸生日\r
            RRULE:FREQ=LUNAR_YEARLY\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let document = try CalendarDocument(parsing: Array(text.utf8), source: "lunar.ics")
        #expect(document.skipped.map(\.message) == ["its RRULE: FREQ=LUNAR_YEARLY is no RFC 5545 frequency; read as RSCALE=CHINESE;FREQ=YEARLY; the rest of the rule is kept"])
        let shanghai = try CalendarZone(named: "Asia/Shanghai")
        // 八月十五: 2027-09-15 and 2028-10-03, at midnight in Shanghai (16:00 UTC the day before).
        for (from, day) in [(utc(2027, 9, 1), utc(2027, 9, 14, 16)), (utc(2028, 9, 20), utc(2028, 10, 2, 16))] {
            let found = document.occurrences(in: try window(from, from + 30 * 86_400), defaultZone: shanghai)
            #expect(found.occurrences.map(\.uid) == ["dad", "mom"] || found.occurrences.map(\.uid) == ["mom", "dad"])
            #expect(found.occurrences.allSatisfy { $0.start == day })
        }
    }
}
