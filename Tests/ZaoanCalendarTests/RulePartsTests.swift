import Testing
@testable import ZaoanRecurrence

extension CalendarTests {
    /// zaoan's own RRULE reader: what is valid is kept, each invalid part or value named once
    /// (issue 30: the peers keep an event by its rule's valid parts).
    @Suite struct RulePartsTests {
        @Test("an invalid part costs only itself, and is named", arguments: [
            ("FREQ=DAILY;COUNT=-1;UNTIL=20270101T000000Z", "FREQ=DAILY;UNTIL=20270101T000000Z", "COUNT=-1"),
            ("FREQ=WEEKLY;BYDAY=MO,XX,FR;", "FREQ=WEEKLY;BYDAY=MO,FR", "XX"),
            ("FREQ=MONTHLY;BYMONTHDAY=0,-1,32", "FREQ=MONTHLY;BYMONTHDAY=-1", "BYMONTHDAY"),
            ("FREQ=DAILY;FOO=1;INTERVAL=2", "FREQ=DAILY;INTERVAL=2", "FOO"),
            ("freq=daily;interval=3;interval=4", "FREQ=DAILY;INTERVAL=3", "twice"),
        ])
        func recovery(_ input: String, _ kept: String, _ named: String) throws {
            let reading = RuleParts.read(input)
            let parts = try #require(reading.parts)
            #expect(parts.text == kept)
            #expect(reading.problems.count == 1)
            #expect(reading.problems.first?.contains(named) == true, "\(reading.problems)")
        }

        @Test("INTERVAL is kept whole (libical narrowed 1000003 to 16963)")
        func wideInterval() throws {
            let parts = try #require(RuleParts.read("FREQ=HOURLY;INTERVAL=1000003").parts)
            #expect(parts.interval == 1_000_003)
            #expect(parts.text == "FREQ=HOURLY;INTERVAL=1000003")
        }

        @Test("a rule without a usable FREQ has no parts", arguments: ["", "COUNT=2", "FREQ=FORTNIGHTLY;COUNT=2"])
        func noFrequency(_ input: String) {
            let reading = RuleParts.read(input)
            #expect(reading.parts == nil)
            #expect(!reading.problems.isEmpty)
        }

        @Test("every second of the year, begun a second before its end: the period's 31 million instances are never listed or walked")
        func hugePeriod() throws {
            let all = { (count: Int) in (0..<count).map(String.init).joined(separator: ",") }
            let days = (1...366).map(String.init).joined(separator: ",")
            let rule = "FREQ=YEARLY;BYYEARDAY=\(days);BYHOUR=\(all(24));BYMINUTE=\(all(60));BYSECOND=\(all(60))"
            let parts = try #require(RuleParts.read(rule).parts)
            var iterator = RuleIterator(parts: parts, start: try #require(RuleEngineOracleTests.wall("20261231T235958")))
            let walls = (0..<4).compactMap { _ in iterator.next()?.description }
            #expect(walls == ["2026-12-31 23:59:58", "2026-12-31 23:59:59", "2027-01-01 00:00:00", "2027-01-01 00:00:01"])
            #expect(iterator.steps < 10, "\(iterator.steps) steps")
        }

        /// The eight classes of valid rules libical 3.0.16 got wrong (issue 30), each from a
        /// start, against what RFC 5545 §3.3.10 gives (worked by hand from its table).
        @Test("the rules libical got wrong", arguments: [
            ("FREQ=DAILY;BYMONTHDAY=-1", "20260115T090000", ["2026-01-15 09:00:00", "2026-01-31 09:00:00", "2026-02-28 09:00:00", "2026-03-31 09:00:00"]),
            ("FREQ=HOURLY;BYMONTHDAY=-2;BYHOUR=7", "20260101T070000", ["2026-01-01 07:00:00", "2026-01-30 07:00:00", "2026-02-27 07:00:00", "2026-03-30 07:00:00"]),
            ("FREQ=WEEKLY;BYDAY=MO,WE;BYSETPOS=-1", "20260105T100000", ["2026-01-05 10:00:00", "2026-01-07 10:00:00", "2026-01-14 10:00:00", "2026-01-21 10:00:00"]),
            ("FREQ=DAILY;BYHOUR=9,17;BYSETPOS=1", "20260105T090000", ["2026-01-05 09:00:00", "2026-01-06 09:00:00", "2026-01-07 09:00:00", "2026-01-08 09:00:00"]),
            ("FREQ=HOURLY;INTERVAL=5;BYHOUR=2", "20260101T020000", ["2026-01-01 02:00:00", "2026-01-06 02:00:00", "2026-01-11 02:00:00", "2026-01-16 02:00:00"]),
            ("FREQ=YEARLY;BYMONTHDAY=1", "20260101T080000", ["2026-01-01 08:00:00", "2026-02-01 08:00:00", "2026-03-01 08:00:00", "2026-04-01 08:00:00"]),
            ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=TU", "20261229T080000", ["2026-12-29 08:00:00", "2027-01-05 08:00:00", "2028-01-04 08:00:00", "2029-01-02 08:00:00"]),
            ("FREQ=YEARLY;BYMONTH=12;BYYEARDAY=-1", "20261231T200000", ["2026-12-31 20:00:00", "2027-12-31 20:00:00", "2028-12-31 20:00:00", "2029-12-31 20:00:00"]),
        ])
        func libicalsClasses(_ rule: String, _ start: String, _ expected: [String]) throws {
            let parts = try #require(RuleParts.read(rule).parts)
            let begin = try #require(RuleEngineOracleTests.wall(start))
            var iterator = RuleIterator(parts: parts, start: begin)
            var walls: [String] = []
            while walls.count < expected.count, let wall = iterator.next() { walls.append(wall.description) }
            #expect(walls == expected)
        }
    }
}
