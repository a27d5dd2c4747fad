import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    @Suite struct CalendarDocumentTests {
        let berlin = try! CalendarZone(named: "Europe/Berlin")

        func spans(_ expansion: CalendarExpansion, uid: String? = nil) -> [OccurrenceSpan] {
            expansion.occurrences.filter { uid == nil || $0.uid == uid }.map { OccurrenceSpan(start: $0.start, end: $0.end) }
        }

        @Test("a weekly meeting: EXDATE skips, RDATE adds, a moved instance replaces its original, a cancelled one is gone")
        func weeklyMeeting() throws {
            let document = try Samples.document("weekly-meeting.ics")
            #expect(document.events.count == 3)
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 4, 1)), defaultZone: .utc)
            #expect(spans(found) == [
                OccurrenceSpan(start: utc(2026, 3, 3, 9), end: utc(2026, 3, 3, 10)),
                OccurrenceSpan(start: utc(2026, 3, 6, 13), end: utc(2026, 3, 6, 14)),  // the RDATE
                OccurrenceSpan(start: utc(2026, 3, 10, 9), end: utc(2026, 3, 10, 10)),
                OccurrenceSpan(start: utc(2026, 3, 25, 14), end: utc(2026, 3, 25, 15)),
            ])
            try #require(found.occurrences.count == 4)
            #expect(found.occurrences[3].title == "Team weekly (moved to Wednesday)")
            let first = try #require(found.occurrences.first)
            #expect(first.title == "Team weekly")
            #expect(first.location == "Room 4.12")
            #expect(first.description == "Agenda:\n1. news\n2. plans")
            #expect(first.url == "https://meet.example.org/team")
            #expect(first.status == .confirmed)
            #expect(first.source == "weekly-meeting.ics")
            #expect(!first.isAllDay)
            // After the DST change the series is at 10:00 CEST.
            let april = document.occurrences(in: try window(utc(2026, 4, 1), utc(2026, 5, 1)), defaultZone: .utc)
            #expect(spans(april).map(\.start) == [utc(2026, 4, 7, 8), utc(2026, 4, 14, 8), utc(2026, 4, 21, 8), utc(2026, 4, 28, 8)])
        }

        @Test("an embedded VTIMEZONE (with a Windows name) across New York's changes, UNTIL and COUNT")
        func embeddedZone() throws {
            let document = try Samples.document("new-york-vtimezone.ics")
            let march = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 31)), defaultZone: berlin)
            #expect(spans(march).map(\.start) == [utc(2026, 3, 5, 12), utc(2026, 3, 6, 12), utc(2026, 3, 7, 12),
                                                  utc(2026, 3, 8, 11), utc(2026, 3, 9, 11), utc(2026, 3, 10, 11),
                                                  utc(2026, 3, 11, 11), utc(2026, 3, 12, 11)])
            #expect(march.occurrences.allSatisfy { $0.end - $0.start == 900 })
            let autumn = document.occurrences(in: try window(utc(2026, 10, 25), utc(2026, 11, 10)), defaultZone: berlin)
            #expect(spans(autumn).map(\.start) == [utc(2026, 10, 29, 11), utc(2026, 10, 30, 11), utc(2026, 10, 31, 11),
                                                   utc(2026, 11, 1, 12), utc(2026, 11, 2, 12), utc(2026, 11, 3, 12)])
        }

        @Test("a bare IANA TZID without VTIMEZONE; an unknown one is read as floating, named once")
        func bareZone() throws {
            let document = try Samples.document("bare-tzid.ics")
            // Issue 19 (difference 7): the event in an unknown zone is kept, floating, as the peers read it.
            #expect(document.events.count == 3)
            #expect(document.skipped.count == 1)
            let problem = try #require(document.skipped.first)
            #expect(problem.uid == "nowhere@example.org")
            #expect(problem.description.contains("unknown time zone 'Mars/Olympus_Mons'"), "\(problem)")
            #expect(problem.description.contains("its times are read as floating, in the configured zone"), "\(problem)")
            let march = document.occurrences(in: try window(utc(2026, 3, 25), utc(2026, 4, 2)), defaultZone: .utc)
            #expect(spans(march).map(\.start) == [utc(2026, 3, 26, 6), utc(2026, 3, 26, 7), utc(2026, 3, 27, 6), utc(2026, 3, 28, 6),
                                                  utc(2026, 3, 29, 5), utc(2026, 3, 30, 5), utc(2026, 3, 31, 5)])
            #expect(spans(march, uid: "nowhere@example.org") == [OccurrenceSpan(start: utc(2026, 3, 26, 7), end: utc(2026, 3, 26, 7))])
            let autumn = document.occurrences(in: try window(utc(2026, 10, 29), utc(2026, 11, 6)), defaultZone: .utc)
            #expect(spans(autumn).map(\.start) == [utc(2026, 10, 30, 23), utc(2026, 10, 31, 23), utc(2026, 11, 2, 0),
                                                   utc(2026, 11, 3, 0), utc(2026, 11, 4, 0)])
        }

        @Test("all-day events start at local midnight in the configured zone and end at the next midnight(s)")
        func allDay() throws {
            let document = try Samples.document("all-day.ics")
            let spring = document.occurrences(in: try window(utc(2026, 3, 26), utc(2026, 4, 10)), defaultZone: berlin)
            #expect(spans(spring, uid: "conference@example.org") == [OccurrenceSpan(start: utc(2026, 3, 26, 23), end: utc(2026, 3, 29, 22))])
            #expect(spans(spring, uid: "holiday@example.org") == [OccurrenceSpan(start: utc(2026, 4, 2, 22), end: utc(2026, 4, 3, 22))])
            #expect(spring.occurrences.allSatisfy { $0.isAllDay })
            let december = document.occurrences(in: try window(utc(2026, 12, 1), utc(2026, 12, 31)), defaultZone: try CalendarZone(named: "America/New_York"))
            #expect(spans(december, uid: "birthday@example.org") == [OccurrenceSpan(start: utc(2026, 12, 10, 5), end: utc(2026, 12, 11, 5))])
        }

        @Test("floating times in the configured zone, UTC times, DURATION exact and nominal, no end at all")
        func floatingUTCDuration() throws {
            let document = try Samples.document("floating-utc-duration.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 31)), defaultZone: berlin)
            #expect(spans(found, uid: "floating@example.org") == [OccurrenceSpan(start: utc(2026, 3, 27, 8), end: utc(2026, 3, 27, 9))])
            #expect(spans(found, uid: "utc-call@example.org") == [OccurrenceSpan(start: utc(2026, 3, 27, 16), end: utc(2026, 3, 27, 16, 30))])
            #expect(spans(found, uid: "duration-exact@example.org") == [OccurrenceSpan(start: utc(2026, 3, 28, 13), end: utc(2026, 3, 28, 14, 30))])
            // P1D is a day on the wall clock: 12:00 CET to 12:00 CEST, 23 hours.
            #expect(spans(found, uid: "duration-day@example.org") == [OccurrenceSpan(start: utc(2026, 3, 28, 11), end: utc(2026, 3, 29, 10))])
            #expect(spans(found, uid: "instant@example.org") == [OccurrenceSpan(start: utc(2026, 3, 27, 11), end: utc(2026, 3, 27, 11))])
            let newYork = document.occurrences(in: try window(utc(2026, 3, 27), utc(2026, 3, 31)), defaultZone: try CalendarZone(named: "America/New_York"))
            #expect(spans(newYork, uid: "floating@example.org") == [OccurrenceSpan(start: utc(2026, 3, 27, 13), end: utc(2026, 3, 27, 14))])
        }

        @Test("a cancelled event shows nothing; the others keep their status")
        func cancelled() throws {
            let found = try Samples.document("cancelled.ics").occurrences(in: try window(utc(2026, 3, 26), utc(2026, 3, 29)), defaultZone: berlin)
            #expect(found.occurrences.map(\.uid) == ["kept@example.org"])
            #expect(found.occurrences.first?.status == .tentative)
        }

        @Test("a malformed file is an error naming the source, the line and what is wrong")
        func malformed() throws {
            #expect {
                try Samples.document("malformed.ics")
            } throws: { error in
                let failure = try #require(error as? CalendarReadError)
                #expect(failure.source == "malformed.ics")
                #expect(failure.line == 6)
                #expect(failure.description == "malformed.ics: line 6: END:VCALENDAR where END:VEVENT (for line 3) was expected")
                return true
            }
        }

        @Test("unreadable events are left out, each with why; the good one stays")
        func oneBadEvent() throws {
            let document = try Samples.document("one-bad-event.ics")
            #expect(document.events.map(\.uid) == ["good@example.org"])
            let reasons = Dictionary(uniqueKeysWithValues: document.skipped.map { ($0.uid ?? "", $0.message) })
            #expect(reasons["bad-date@example.org"]?.contains("DTSTART") == true, "\(reasons)")
            #expect(reasons["bad-rule@example.org"]?.contains("every minute") == true, "\(reasons)")
            #expect(reasons["far-year@example.org"]?.contains("between 1800 and 2400") == true, "\(reasons)")
            // libical refuses the value and drops the property; the line is named.
            #expect(reasons["unreadable-start@example.org"]?.hasPrefix("left out: line 35: libical could not read its DTSTART (") == true, "\(reasons)")
        }

        static let oracleSamples: [(String, String, String, String)] = [
            ("weekly-meeting.ics", "Europe/Berlin", "2026-03-01", "2026-04-01"),
            ("weekly-meeting.ics", "Europe/Berlin", "2026-04-01", "2026-05-01"),
            ("new-york-vtimezone.ics", "Europe/Berlin", "2026-03-01", "2026-03-31"),
            ("new-york-vtimezone.ics", "Europe/Berlin", "2026-10-25", "2026-11-10"),
            ("bare-tzid.ics", "Europe/Berlin", "2026-03-25", "2026-04-02"),
            ("bare-tzid.ics", "Europe/Berlin", "2026-10-29", "2026-11-06"),
            ("all-day.ics", "Europe/Berlin", "2026-03-26", "2026-04-10"),
            ("all-day.ics", "America/New_York", "2026-12-01", "2026-12-31"),
            ("floating-utc-duration.ics", "Europe/Berlin", "2026-03-27", "2026-03-31"),
            ("floating-utc-duration.ics", "America/New_York", "2026-03-27", "2026-03-31"),
            ("cancelled.ics", "Europe/Berlin", "2026-03-01", "2026-03-31"),
        ]

        @Test("every sample against recurring_ical_events", arguments: oracleSamples)
        func oracle(_ name: String, _ zoneName: String, _ fromDay: String, _ toDay: String) throws {
            func instant(_ text: String) -> Int64 {
                let parts = text.split(separator: "-").map { Int($0)! }
                return utc(parts[0], parts[1], parts[2])
            }
            let (from, to) = (instant(fromDay), instant(toDay))
            let document = try Samples.document(name)
            let ours = document.occurrences(in: try window(from, to), defaultZone: try CalendarZone(named: zoneName))
                .occurrences.map { "\($0.uid) \($0.start) \($0.end)" }.sorted()
            var theirs = try CalendarOracle.run(["ics", Samples.path(name), zoneName, String(from), String(to)]).map(String.init)
            // The event in a zone that does not exist: floating, as Python reads it (issue 19, difference 7).
            // recurring_ical_events adds P1D as 24 hours on a fixed offset; RFC 5545 (3.3.6)
            // makes a day of DURATION a day on the wall clock (23 hours here).
            if let index = theirs.firstIndex(where: { $0.hasPrefix("duration-day@") }) {
                #expect(theirs[index] == "duration-day@example.org \(utc(2026, 3, 28, 11)) \(utc(2026, 3, 29, 11))")
                theirs[index] = "duration-day@example.org \(utc(2026, 3, 28, 11)) \(utc(2026, 3, 29, 10))"
            }
            #expect(!theirs.isEmpty)
            #expect(ours == theirs.sorted())
        }
    }
}
