import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    /// Issue 19, difference 8: one broken component costs that component, not the file.
    @Suite struct StructureRecoveryTests {
        @Test("a file with nine kinds of broken structure: every whole VEVENT is read, each break named with its line")
        func sample() throws {
            let document = try Samples.document("broken-structure.ics")
            #expect(document.events.map(\.uid) == ["first@example.org", "after-todo@example.org", "with-alarm@example.org",
                                                   "after-no-end@example.org", "last@example.org", "second-calendar@example.org"])
            #expect(document.skipped.map(\.description) == [
                "broken-structure.ics: line 1: text outside BEGIN:VCALENDAR … END:VCALENDAR; it and the lines after it up to the next BEGIN:VCALENDAR are left out",
                "broken-structure.ics: line 15: END:VTOOD where END:VTODO (for line 12) was expected; the VTODO of line 12 is left out",
                "broken-structure.ics: line 29: END:VEVNT where END:VEVENT (for line 23) was expected; the VEVENT of line 23 is left out",
                "broken-structure.ics: line 53: END:VEVENT where END:VALARM (for line 50) was expected; the VEVENT of line 44 is left out",
                "broken-structure.ics: line 60: BEGIN:VEVENT inside the VEVENT of line 54, which has no END:VEVENT; the VEVENT of line 54 is left out",
                "broken-structure.ics: line 67: END:VTODO where END:VCALENDAR (for line 2) was expected; the line is left out",
                "broken-structure.ics: line 76: text outside BEGIN:VCALENDAR … END:VCALENDAR; it and the lines after it up to the next BEGIN:VCALENDAR are left out",
                "broken-structure.ics: line 88: the text ends inside BEGIN:VCALENDAR of line 80; what it holds is read",
            ])
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 4, 1)), defaultZone: .utc)
            #expect(found.occurrences.map(\.start) == [10, 11, 13, 16, 17, 18].map { utc(2026, 3, $0, 9) })
            #expect(found.occurrences.first?.title == "first")
        }

        static func calendar(_ body: String) -> String {
            "BEGIN:VCALENDAR\nVERSION:2.0\n" + body + "END:VCALENDAR\n"
        }

        static func event(_ uid: String, day: Int = 10) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTART:202603\(day)T090000Z\nEND:VEVENT\n"
        }

        static let cases: [(String, String, [String], [String])] = [
            ("END:VTOOD, as issue_201_test_matrix.ics has it 15 times",
             calendar(event("a") + "BEGIN:VTODO\nUID:t\nEND:VTOOD\n" + event("b") + "BEGIN:VTODO\nUID:u\nEND:VTOOD\n" + event("c")),
             ["a", "b", "c"], ["line 9: END:VTOOD where END:VTODO (for line 7) was expected; the VTODO of line 7 is left out",
              "line 16: END:VTOOD where END:VTODO (for line 14) was expected; the VTODO of line 14 is left out"]),
            ("a stray line after END:VCALENDAR",
             calendar(event("a")) + "</body></html>\n",
             ["a"], ["line 8: text outside BEGIN:VCALENDAR … END:VCALENDAR; it and the lines after it up to the next BEGIN:VCALENDAR are left out"]),
            ("an unknown component before the calendar",
             "BEGIN:VFOO\nX-A:1\nEND:VFOO\n" + calendar(event("a")),
             ["a"], ["line 1: BEGIN:VFOO where BEGIN:VCALENDAR was expected; it and the lines after it up to the next BEGIN:VCALENDAR are left out"]),
            ("an unknown component that never ends",
             calendar("BEGIN:X-THING\nX-A:1\n" + event("a")),
             ["a"], ["line 5: BEGIN:VEVENT inside the X-THING of line 3, which has no END:X-THING; the X-THING of line 3 is left out"]),
            ("a stray END inside the calendar",
             calendar("END:VALARM\n" + event("a")),
             ["a"], ["line 3: END:VALARM where END:VCALENDAR (for line 1) was expected; the line is left out"]),
            ("an END typed wrong, then a VTIMEZONE: reading starts again there",
             calendar(event("a") + "BEGIN:VEVENT\nUID:typo\nDTSTART:20260311T090000Z\nEND:EVENT\nX-AFTER:1\n"
                      + "BEGIN:VTIMEZONE\nTZID:Own\nBEGIN:STANDARD\nDTSTART:16010101T000000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0200\nEND:STANDARD\nEND:VTIMEZONE\n"
                      + "BEGIN:VEVENT\nUID:b\nDTSTART;TZID=Own:20260312T110000\nEND:VEVENT\n"),
             ["a", "b"], ["line 10: END:EVENT where END:VEVENT (for line 7) was expected; the VEVENT of line 7 is left out"]),
            ("a broken VTIMEZONE: left out, and its IANA TZID then read from the system's zones",
             calendar("BEGIN:VTIMEZONE\nTZID:Europe/Berlin\nBEGIN:STANDARD\nDTSTART:16010101T000000\nTZOFFSETFROM:+0500\nTZOFFSETTO:+0500\nEND:VTIMEZONE\n"
                      + "BEGIN:VEVENT\nUID:berlin\nDTSTART;TZID=Europe/Berlin:20260312T100000\nEND:VEVENT\n"),
             ["berlin"], ["line 9: END:VTIMEZONE where END:STANDARD (for line 5) was expected; the VTIMEZONE of line 3 is left out"]),
            ("the text cut inside the last event: the ones before it are read",
             "BEGIN:VCALENDAR\n" + event("a") + event("b") + "BEGIN:VEVENT\nUID:cut\nDTSTART:2026",
             ["a", "b"], ["line 12: the text ends inside BEGIN:VEVENT of line 10; the VEVENT of line 10 is left out"]),
            ("no END:VCALENDAR",
             "BEGIN:VCALENDAR\n" + event("a"),
             ["a"], ["line 5: the text ends inside BEGIN:VCALENDAR of line 1; what it holds is read"]),
            ("two calendars, the first without its END",
             "BEGIN:VCALENDAR\n" + event("a") + calendar(event("b")),
             ["a", "b"], ["line 6: BEGIN:VCALENDAR inside the VCALENDAR of line 1, which has no END:VCALENDAR; that one is ended here"]),
            ("a calendar inside an event that has no END",
             "BEGIN:VCALENDAR\n" + event("a") + "BEGIN:VEVENT\nUID:open\n" + calendar(event("b")),
             ["a", "b"], ["line 8: BEGIN:VCALENDAR inside the VEVENT of line 6, which has no END:VEVENT; the VEVENT of line 6 is left out"]),
        ]

        @Test("each break costs its own component only, named with its line", arguments: cases)
        func recovers(_ label: String, _ text: String, _ uids: [String], _ problems: [String]) throws {
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "x.ics")
            #expect(document.events.map(\.uid) == uids, "\(label)")
            #expect(document.skipped.map(\.message) == problems, "\(label)")
            if label.hasPrefix("a broken VTIMEZONE") {
                let found = document.occurrences(in: try window(utc(2026, 3, 12), utc(2026, 3, 13)), defaultZone: .utc)
                #expect(found.occurrences.map(\.start) == [utc(2026, 3, 12, 9)], "10:00 CET, not the broken +05:00")
            }
            if label.hasPrefix("an END typed wrong") {
                let found = document.occurrences(in: try window(utc(2026, 3, 12), utc(2026, 3, 13)), defaultZone: .utc)
                #expect(found.occurrences.map(\.start) == [utc(2026, 3, 12, 9)], "the VTIMEZONE after the break is read: 11:00 at +02:00")
            }
        }

        @Test("a broken structure with no VEVENT left still fails whole, with its first problem", arguments: [
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VTOOD\nEND:VCALENDAR\n", "line 3: END:VTOOD where END:VTODO (for line 2) was expected"),
            ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VEVNT\nEND:VCALENDAR\n", "line 4: END:VEVNT where END:VEVENT (for line 2) was expected"),
            ("<html>\n<body>404</body>\n</html>\n", "line 1: text outside BEGIN:VCALENDAR … END:VCALENDAR"),
        ])
        func nothingLeft(_ text: String, _ expected: String) {
            #expect {
                try CalendarDocument(parsing: Array(text.utf8), source: "x.ics")
            } throws: { error in
                (error as? CalendarReadError)?.description == "x.ics: " + expected
            }
        }

        @Test("the limits still refuse the whole file, broken structure or not")
        func limitsStay() {
            let deep = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VEVNT\n" + String(repeating: "BEGIN:VEVENT\nUID:b\nDTSTART:20260101T000000Z\nEND:VEVENT\n", count: 3)
                + String(repeating: "BEGIN:X-A\n", count: 9) + "END:VCALENDAR\n"
            #expect { try CalendarDocument(parsing: Array(deep.utf8), source: "x.ics") } throws: { error in
                (error as? CalendarReadError)?.reason == "components nested more than 8 deep"
            }
            // Skipped components count too: 60,001 BEGIN lines after a break.
            let many = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VEVNT\n" + String(repeating: "BEGIN:VALARM\n", count: 60_000) + "END:VCALENDAR\n"
            #expect { try CalendarDocument(parsing: Array(many.utf8), source: "x.ics") } throws: { error in
                (error as? CalendarReadError)?.reason.hasPrefix("more than 60000 components") == true
            }
        }
    }
}
