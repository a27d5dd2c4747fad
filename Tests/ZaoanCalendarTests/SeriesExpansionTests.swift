import Glibc
import Testing
import ZaoanTime
@testable import ZaoanCalendar

extension CalendarTests {
    @Suite struct SeriesExpansionTests {
        func starts(_ zone: String, _ first: LocalDateTime, _ rule: String?, from: Int64, days: Int64,
                    skipped: Set<CivilDay> = [], extra: [LocalDateTime] = [], duration: Int64 = 0) throws -> [Int64] {
            let series = RecurringSeries(firstStart: first, zone: try CalendarZone(named: zone),
                                         rule: try rule.map { try RecurrenceRule(parsing: $0) },
                                         skippedDays: skipped, extraStarts: extra, durationSeconds: duration)
            return series.occurrences(in: try window(from, from + days * 86_400)).spans.map(\.start)
        }

        @Test("07:00 daily stays 07:00 in Berlin across both changes")
        func berlin() throws {
            #expect(try starts("Europe/Berlin", wall(2026, 3, 27, 7), "daily", from: utc(2026, 3, 27), days: 4)
                == [utc(2026, 3, 27, 6), utc(2026, 3, 28, 6), utc(2026, 3, 29, 5), utc(2026, 3, 30, 5)])
            #expect(try starts("Europe/Berlin", wall(2026, 3, 27, 7), "daily", from: utc(2026, 10, 24), days: 3)
                == [utc(2026, 10, 24, 5), utc(2026, 10, 25, 6), utc(2026, 10, 26, 6)])
        }

        @Test("07:00 daily stays 07:00 in New York across both changes")
        func newYork() throws {
            #expect(try starts("America/New_York", wall(2026, 3, 1, 7), "daily", from: utc(2026, 3, 7), days: 3)
                == [utc(2026, 3, 7, 12), utc(2026, 3, 8, 11), utc(2026, 3, 9, 11)])
            #expect(try starts("America/New_York", wall(2026, 3, 1, 7), "daily", from: utc(2026, 10, 31), days: 3)
                == [utc(2026, 10, 31, 11), utc(2026, 11, 1, 12), utc(2026, 11, 2, 12)])
        }

        @Test("a time skipped by the clocks is read with the offset before the gap, and the series goes back to 02:30 the day after")
        func gap() throws {
            #expect(try starts("Europe/Berlin", wall(2026, 3, 27, 2, 30), "daily", from: utc(2026, 3, 28), days: 3)
                == [utc(2026, 3, 28, 1, 30), utc(2026, 3, 29, 1, 30), utc(2026, 3, 30, 0, 30)])
            #expect(try starts("America/New_York", wall(2026, 3, 7, 2, 30), "daily", from: utc(2026, 3, 7), days: 3)
                == [utc(2026, 3, 7, 7, 30), utc(2026, 3, 8, 7, 30), utc(2026, 3, 9, 6, 30)])
        }

        @Test("a time the clocks show twice is the first of the two")
        func overlap() throws {
            #expect(try starts("Europe/Berlin", wall(2026, 10, 24, 2, 30), "daily", from: utc(2026, 10, 24), days: 2)
                == [utc(2026, 10, 24, 0, 30), utc(2026, 10, 25, 0, 30)])
            #expect(try starts("America/New_York", wall(2026, 10, 31, 1, 30), "daily", from: utc(2026, 10, 31), days: 2)
                == [utc(2026, 10, 31, 5, 30), utc(2026, 11, 1, 5, 30)])
        }

        @Test("skipped days, extra starts, weekdays")
        func skippedAndExtra() throws {
            // 2026-03-27 is a Friday.
            let got = try starts("Europe/Berlin", wall(2026, 3, 23, 7), "weekdays", from: utc(2026, 3, 26), days: 6,
                                 skipped: [day(2026, 3, 30)], extra: [wall(2026, 3, 28, 9)])
            #expect(got == [utc(2026, 3, 26, 6), utc(2026, 3, 27, 6), utc(2026, 3, 28, 8), utc(2026, 3, 31, 5)])
        }

        @Test("an occurrence under way when the window opens shows; one ending as it opens does not")
        func ongoing() throws {
            let series = RecurringSeries(firstStart: wall(2026, 3, 27, 7), zone: try CalendarZone(named: "Europe/Berlin"),
                                         rule: try RecurrenceRule(parsing: "daily"), durationSeconds: 3600)
            let during = series.occurrences(in: try window(utc(2026, 3, 27, 6, 30), utc(2026, 3, 27, 8))).spans
            #expect(during == [OccurrenceSpan(start: utc(2026, 3, 27, 6), end: utc(2026, 3, 27, 7))])
            #expect(series.occurrences(in: try window(utc(2026, 3, 27, 7), utc(2026, 3, 27, 8))).spans.isEmpty)
        }

        @Test("a rule without end started in 1900 jumps to the window; so does an hourly one with COUNT from 2000, its instances before the window counted, not stepped through")
        func longAgo() throws {
            let zone = try CalendarZone(named: "Europe/Berlin")
            let jumped = RecurringSeries(firstStart: wall(1900, 1, 1, 7), zone: zone, rule: try RecurrenceRule(parsing: "daily"))
                .occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 29)))
            #expect(jumped.spans.map(\.start) == [utc(2026, 3, 27, 6), utc(2026, 3, 28, 6)])
            #expect(!jumped.truncated)
            let counted = RecurringSeries(firstStart: wall(2000, 1, 1, 7), zone: zone, rule: try RecurrenceRule(parsing: "FREQ=HOURLY;COUNT=1000000"))
                .occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 29)))
            // libical stepped through 230,000 hours and gave up (truncated, nothing shown).
            #expect(!counted.truncated)
            #expect(counted.spans.count == 48)
            #expect(counted.spans.first?.start == utc(2026, 3, 27))
        }

        @Test("next(after:) finds the first start at or after now")
        func next() throws {
            let series = RecurringSeries(firstStart: wall(2026, 3, 27, 7), zone: try CalendarZone(named: "Europe/Berlin"),
                                         rule: try RecurrenceRule(parsing: "daily"), durationSeconds: 60)
            let spans = series.occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 31)))
            #expect(spans.next(after: utc(2026, 3, 27, 6))?.start == utc(2026, 3, 27, 6))
            #expect(spans.next(after: utc(2026, 3, 27, 6, 0, 1))?.start == utc(2026, 3, 28, 6))
            #expect(spans.next(after: utc(2026, 3, 30, 6)) == nil)
        }

        static let oracleCases: [(String, String, String, String)] = [
            ("Europe/Berlin", "20260302T070000", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-03-20"),
            ("Europe/Berlin", "20260130T070000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-10-20"),
            ("Europe/Berlin", "20260131T183000", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-07-15"),
            ("Europe/Berlin", "20240229T090000", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2028-02-20"),
            ("Europe/Berlin", "20260303T070000", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-03-28"),
            ("Europe/Berlin", "20260327T023000", "FREQ=DAILY", "2026-03-26"),
            ("Europe/Berlin", "20261020T023000", "FREQ=DAILY", "2026-10-22"),
            ("Europe/Berlin", "20260101T120000", "FREQ=MONTHLY;BYDAY=2TU;UNTIL=20261231T000000Z", "2026-09-01"),
            ("America/New_York", "20260305T070000", "FREQ=DAILY;UNTIL=20260312T120000Z", "2026-03-05"),
            ("America/New_York", "20260102T090000", "FREQ=WEEKLY;BYDAY=FR;COUNT=60", "2026-10-25"),
            ("America/New_York", "20260101T093000", "FREQ=HOURLY;INTERVAL=5", "2026-11-01"),
            ("Asia/Kolkata", "20250106T100000", "FREQ=YEARLY;BYWEEKNO=14;BYDAY=MO", "2026-03-25"),
            ("Australia/Lord_Howe", "20260101T013000", "FREQ=DAILY", "2026-04-03"),
            ("Pacific/Apia", "20111227T090000", "FREQ=DAILY", "2011-12-28"),
            ("Europe/Berlin", "19000101T070000", "FREQ=DAILY", "2026-03-27"),
            ("Europe/Berlin", "20000101T070000", "FREQ=DAILY;COUNT=20000", "2026-03-27"),
            // COUNT running out inside the window, after a jump over the years before it.
            ("Europe/Berlin", "20000101T070000", "FREQ=DAILY;COUNT=9600", "2026-03-20"),
            ("America/New_York", "20000103T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=700", "2026-10-01"),
            // Rules started years before the window: the iterator jumps, keeping INTERVAL's rhythm.
            ("Europe/Berlin", "20200101T073000", "FREQ=HOURLY;INTERVAL=7", "2026-03-20"),
            ("Europe/Berlin", "20200106T090000", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH", "2026-03-20"),
            ("Europe/Berlin", "20200110T090000", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=10,-1", "2026-04-01"),
            ("America/New_York", "20010624T100000", "FREQ=YEARLY;INTERVAL=3;BYMONTH=6;BYDAY=-1SU", "2025-06-15"),
            ("America/New_York", "20200101T100000", "FREQ=DAILY;INTERVAL=9", "2026-10-20"),
        ]

        @Test("series against dateutil's rrule and Python's zoneinfo (31-day windows)", arguments: oracleCases)
        func oracle(_ zone: String, _ start: String, _ rule: String, _ windowStart: String) throws {
            let digits = Array(start.utf8).map { Int($0) - 48 }
            func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
            let first = wall(number(0..<4), number(4..<6), number(6..<8), number(9..<11), number(11..<13))
            let parts = windowStart.split(separator: "-").map { Int($0)! }
            let from = utc(parts[0], parts[1], parts[2])
            let to = from + 31 * 86_400
            let ours = try starts(zone, first, rule, from: from, days: 31)
            // A recurrence set holds instants once; Python lists a day the clocks skipped
            // (Apia's 2011-12-30) at the same instant as the day after.
            var theirs: [Int64] = []
            for line in try CalendarOracle.run(["rrule", zone, start, rule, String(from), String(to)]) where theirs.last != Int64(line)! {
                theirs.append(Int64(line)!)
            }
            #expect(!theirs.isEmpty)
            #expect(ours == theirs)
        }
    }

    @Suite struct CalendarZoneTests {
        @Test("IANA names resolve through the system's tz database, newer names included")
        func names() throws {
            for name in ["Europe/Berlin", "America/New_York", "Europe/Kyiv", "America/Ciudad_Juarez", "UTC", "Asia/Kolkata"] {
                #expect((try? CalendarZone(named: name)) != nil, "\(name)")
            }
            let juarez = try CalendarZone(named: "America/Ciudad_Juarez")
            // Mountain time with US daylight saving since 2022-11-30: MDT, -6 h, in July 2026.
            #expect(juarez.instant(of: wall(2026, 7, 1, 12)) == utc(2026, 7, 1, 18))
        }

        @Test("path-like names are refused before the zone folder is opened; unknown ones are unknown", arguments: [
            "../../etc/passwd", "/etc/localtime", "Europe//Berlin", "", "Europe/Berlin\u{1B}", String(repeating: "A", count: 65), "Europe/.hidden", "Europe/..",
        ])
        func refused(_ name: String) {
            #expect(throws: CalendarZone.Failure.badName(name)) { try CalendarZone(named: name) }
        }

        @Test("a plausible name the tz database does not know")
        func unknown() {
            #expect(throws: CalendarZone.Failure.unknown("Nowhere/Land")) { try CalendarZone(named: "Nowhere/Land") }
        }

        @Test("wall clock and instant agree with glibc's view of the zone, 1970–2100")
        func againstGlibc() throws {
            let zone = try CalendarZone(named: "America/New_York")
            setenv("TZ", "America/New_York", 1)
            tzset()
            defer { unsetenv("TZ"); tzset() }
            var instant = utc(1970, 1, 1, 3, 17)
            while instant < utc(2100, 1, 1) {
                var seconds = time_t(instant)
                var parts = tm()
                localtime_r(&seconds, &parts)
                let expected = wall(Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))
                #expect(zone.wallClock(at: instant) == expected)
                instant += 9 * 86_400 + 3 * 3600 + 13 * 60
            }
        }
    }
}
