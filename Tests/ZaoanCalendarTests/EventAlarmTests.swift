import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    /// VALARMs read into `Alarm`s (RFC 5545 §3.6.6, RFC 9074's ACKNOWLEDGED), per occurrence.
    @Suite("VALARMs")
    struct EventAlarmTests {
        static func file(_ inside: String) -> String {
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//zaoan tests//EN\r
            \(inside)END:VCALENDAR\r

            """
        }

        @Test("every kind of trigger, REPEAT with DURATION, ACKNOWLEDGED; EMAIL, PROCEDURE and NONE passed over; bad ones named, the event kept")
        func kinds() throws {
            let text = Self.file("""
                BEGIN:VEVENT\r
                UID:a\r
                DTSTAMP:20261201T000000Z\r
                DTSTART:20270105T090000Z\r
                DTEND:20270105T100000Z\r
                SUMMARY:Standup\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER:-PT15M\r
                REPEAT:2\r
                DURATION:PT5M\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:AUDIO\r
                TRIGGER;RELATED=END:-PT5M\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER;VALUE=DATE-TIME:20270105T080000Z\r
                ACKNOWLEDGED:20270104T000000Z\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:EMAIL\r
                DESCRIPTION:x\r
                SUMMARY:x\r
                ATTENDEE:mailto:a@example.org\r
                TRIGGER:-PT1M\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:PROCEDURE\r
                TRIGGER:-PT1M\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:NONE\r
                TRIGGER;VALUE=DATE-TIME:19760401T005545Z\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER:-P9999W\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER:-PT1M\r
                REPEAT:1000\r
                DURATION:PT1S\r
                END:VALARM\r
                END:VEVENT\r

                """)
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "a.ics")
            let event = try #require(document.events.first)
            #expect(event.alarms.map(\.wire) == ["S-900*2/300", "E-300", "A1799136000!1799020800"])
            #expect(document.skipped.map(\.message)
                == ["its alarms: a trigger -69993d from the start is more than a week away; at most 7d before or after (and 1 more); the event and its other alarms are kept"])
            let start = utc(2027, 1, 5, 9)
            let found = document.occurrences(in: try window(start - 86_400, start + 86_400), defaultZone: .utc)
            #expect(found.occurrences.first?.alarms == event.alarms)
            #expect(event.alarms.first?.firings(start: start, end: start + 3600) == [start - 900, start - 600, start - 300])
        }

        @Test("a series' alarms fire for each instance; an override's own replace them")
        func overrides() throws {
            let text = Self.file("""
                BEGIN:VEVENT\r
                UID:s\r
                DTSTAMP:20261201T000000Z\r
                DTSTART:20270105T090000Z\r
                DURATION:PT30M\r
                RRULE:FREQ=DAILY;COUNT=3\r
                SUMMARY:Daily\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER:-PT10M\r
                END:VALARM\r
                END:VEVENT\r
                BEGIN:VEVENT\r
                UID:s\r
                DTSTAMP:20261201T000000Z\r
                RECURRENCE-ID:20270106T090000Z\r
                DTSTART:20270106T100000Z\r
                DURATION:PT30M\r
                SUMMARY:Daily (moved)\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                DESCRIPTION:x\r
                TRIGGER:-PT2M\r
                END:VALARM\r
                END:VEVENT\r

                """)
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "s.ics")
            let found = document.occurrences(in: try window(utc(2027, 1, 5), utc(2027, 1, 8)), defaultZone: .utc)
            #expect(found.occurrences.map { $0.alarms.map(\.wire) } == [["S-600"], ["S-120"], ["S-600"]])
        }
    }
}
