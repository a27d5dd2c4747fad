import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    /// Issue 19, difference 10: input RFC 5545 calls invalid or leaves undefined, read
    /// differently from recurring_ical_events on purpose (docs/calendars.md, "Deliberate
    /// deviations"). These pin what zaoan does, so a change is a decision, not an accident.
    @Suite struct DeviationTests {
        let berlin = try! CalendarZone(named: "Europe/Berlin")

        func spans(_ uid: String) throws -> [OccurrenceSpan] {
            try Samples.document("deviations.ics").occurrences(in: try window(utc(2026, 3, 1), utc(2026, 4, 1)), defaultZone: berlin)
                .occurrences.filter { $0.uid == uid }.map { OccurrenceSpan(start: $0.start, end: $0.end) }
        }

        @Test("DTEND before DTSTART (RFC 5545 3.8.2.2: MUST be later): an instant at DTSTART, not swapped")
        func endBeforeStart() throws {
            #expect(try spans("end-before-start@example.org") == [OccurrenceSpan(start: utc(2026, 3, 10, 10), end: utc(2026, 3, 10, 10))])
        }

        @Test("a DATE start with a DATE-TIME end (3.8.2.2: the same value type MUST): all-day, for the days up to the end's date, at least one")
        func dateStartTimeEnd() throws {
            let floatingEnd = try spans("date-start-time-end@example.org")
            #expect(floatingEnd == [OccurrenceSpan(start: utc(2026, 3, 10, 23), end: utc(2026, 3, 11, 23))])
            #expect(try spans("date-start-utc-end@example.org") == [OccurrenceSpan(start: utc(2026, 3, 10, 23), end: utc(2026, 3, 12, 23))])
            let event = try #require(try Samples.document("deviations.ics").events.first { $0.uid == "date-start-time-end@example.org" })
            #expect(event.isAllDay)
        }

        @Test("RDATE;VALUE=DATE on a DATE-TIME event (undefined): that day's midnight in the configured zone, the event's length")
        func dateRDateOnTimedEvent() throws {
            #expect(try spans("rdate-date-on-time@example.org") == [
                OccurrenceSpan(start: utc(2026, 3, 12, 9), end: utc(2026, 3, 12, 10)),
                OccurrenceSpan(start: utc(2026, 3, 18, 23), end: utc(2026, 3, 19, 0)),
            ])
        }

        @Test("a DTSTART its RRULE does not match (3.8.5.3: undefined): DTSTART first, counted in COUNT (3.3.10: it \"always counts as the first occurrence\")")
        func startOffRule() throws {
            #expect(try spans("start-off-rule@example.org").map(\.start) == [utc(2026, 3, 4, 9), utc(2026, 3, 9, 9), utc(2026, 3, 16, 9)])
        }

        @Test("a floating DTSTART with UTC EXDATEs (undefined): an EXDATE removes the instance at its instant, the floating start read in the configured zone")
        func floatingStartUTCExdate() throws {
            // 09:00 Berlin daily: EXDATE 09:00Z (10:00 in Berlin) removes nothing, 08:00Z removes the 4th.
            #expect(try spans("floating-utc-exdate@example.org").map(\.start) == [utc(2026, 3, 2, 8), utc(2026, 3, 3, 8), utc(2026, 3, 5, 8)])
        }

        @Test("none of these is a problem to report: the file reads clean")
        func noProblems() throws {
            let document = try Samples.document("deviations.ics")
            #expect(document.events.count == 6)
            #expect(document.skipped.isEmpty)
        }
    }
}
