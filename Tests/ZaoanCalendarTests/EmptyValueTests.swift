import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    /// Issue 19, difference 9: `RRULE:` and other properties written without a value.
    @Suite struct EmptyValueTests {
        @Test("an empty RRULE, EXDATE, RDATE, DURATION or DTEND is read as if it were not there, said once for the file; an empty DTSTART or RECURRENCE-ID leaves its event out")
        func sample() throws {
            let berlin = try CalendarZone(named: "Europe/Berlin")
            let document = try Samples.document("empty-values.ics")
            #expect(document.events.map(\.uid) == ["holiday@example.org", "blank-rule@example.org", "empty-exdate@example.org",
                                                   "empty-rdate@example.org", "empty-duration@example.org", "empty-dtend@example.org"])
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 4, 1)), defaultZone: berlin)
            let spans = Dictionary(grouping: found.occurrences, by: \.uid).mapValues { $0.map { OccurrenceSpan(start: $0.start, end: $0.end) } }
            // Germany_Holidays.ics's shape: an all-day event with `RRULE:` counts once.
            #expect(spans["holiday@example.org"] == [OccurrenceSpan(start: utc(2026, 3, 9, 23), end: utc(2026, 3, 10, 23))])
            #expect(spans["blank-rule@example.org"] == [OccurrenceSpan(start: utc(2026, 3, 11, 9), end: utc(2026, 3, 11, 10))])
            // A weekly series with `EXDATE:` keeps all its instances.
            #expect(spans["empty-exdate@example.org"]?.map(\.start) == [utc(2026, 3, 2, 9), utc(2026, 3, 9, 9), utc(2026, 3, 16, 9)])
            #expect(spans["empty-rdate@example.org"] == [OccurrenceSpan(start: utc(2026, 3, 12, 9), end: utc(2026, 3, 12, 10))])
            // No DURATION: no length; no DTEND: the DURATION beside it.
            #expect(spans["empty-duration@example.org"] == [OccurrenceSpan(start: utc(2026, 3, 13, 9), end: utc(2026, 3, 13, 9))])
            #expect(spans["empty-dtend@example.org"] == [OccurrenceSpan(start: utc(2026, 3, 14, 8), end: utc(2026, 3, 14, 10))])

            #expect(document.skipped.map(\.description) == [
                "empty-values.ics: event empty-start@example.org: left out: line 56: libical could not read its DTSTART (No value for DTSTART property. Removing entire property:)",
                "empty-values.ics: event empty-recurrence-id@example.org: left out: line 63: libical could not read its RECURRENCE-ID (No value for RECURRENCE-ID property. Removing entire property:)",
                "empty-values.ics: empty RRULE on line 10 and 1 more, empty EXDATE on line 27, empty RDATE on line 35, empty DURATION on line 42, empty DTEND on line 49: each read as if it were not there (an event with an empty RRULE counts once)",
            ])
        }

        @Test("one event with an empty value is named in its problem")
        func oneEventNamed() throws {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:only\r\nDTSTART;VALUE=DATE:20260310\r\nRRULE:\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "one.ics")
            #expect(document.events.count == 1)
            #expect(document.skipped.map(\.description) == ["one.ics: event only: empty RRULE on line 5: each read as if it were not there (an event with an empty RRULE counts once)"])
        }

        @Test("a value that is there but partly unreadable costs only its bad part, named (issue 30: zaoan reads RRULE itself)")
        func badIsNotEmpty() throws {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:typo\r\nDTSTART:20260310T090000Z\r\nRRULE:FREQ=WEEKLY;UNTL=20261023\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "typo.ics")
            #expect(document.events.map { $0.rule?.text } == ["FREQ=WEEKLY"])
            #expect(document.skipped.map(\.message) == ["its RRULE: UNTL is not a part of a recurrence rule; left out; the rest of the rule is kept"])
        }

        @Test("an RRULE with nothing usable left leaves its event out, saying why")
        func ruleWithoutFrequency() throws {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:none\r\nDTSTART:20260310T090000Z\r\nRRULE:FRQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "none.ics")
            #expect(document.events.isEmpty)
            #expect(document.skipped.first?.message.hasPrefix("left out: its RRULE: the rule has no FREQ") == true, "\(document.skipped)")
        }

        @Test("what the peers keep: COUNT=-1 beside UNTIL, a trailing ';', BYDAY=XX, an INTERVAL past 16 bits", arguments: [
            ("FREQ=WEEKLY;UNTIL=20240331;COUNT=-1;INTERVAL=4", "FREQ=WEEKLY;UNTIL=20240331;INTERVAL=4", true),
            ("FREQ=DAILY;COUNT=3;", "FREQ=DAILY;COUNT=3", false),
            ("FREQ=WEEKLY;BYDAY=MO,XX", "FREQ=WEEKLY;BYDAY=MO", true),
            ("FREQ=HOURLY;INTERVAL=1000003", "FREQ=HOURLY;INTERVAL=1000003", false),
        ])
        func peersKeep(_ rule: String, _ kept: String, _ named: Bool) throws {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:kept\r\nDTSTART:20240101T090000Z\r\nRRULE:\(rule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "kept.ics")
            #expect(document.events.map { $0.rule?.text } == [kept])
            #expect(document.skipped.count == (named ? 1 : 0), "\(document.skipped)")
        }

        @Test("what counts as an empty value", arguments: [
            ("RRULE:", true), ("RRULE: ", true), ("RRULE:\t \t", true), ("EXDATE;VALUE=DATE:", true),
            ("DTEND;TZID=\"Zone: odd\":", true), ("DTEND;TZID=\"Zone: odd\":20260310T090000", false),
            ("RRULE:FREQ=DAILY", false), ("RRULE", false), ("X-A;B=\"unclosed:", false),
        ])
        func emptyValue(_ line: String, _ empty: Bool) {
            #expect(ContentLine.hasEmptyValue(Array((line + "\u{0}").utf8)[...]) == empty, "\(line)")
        }
    }
}
