import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    /// Issue 19, difference 7: TZIDs without a VTIMEZONE that are not IANA names.
    @Suite struct ZoneNameTests {
        let berlin = try! CalendarZone(named: "Europe/Berlin")

        func starts(_ expansion: CalendarExpansion) -> [String: [OccurrenceSpan]] {
            Dictionary(grouping: expansion.occurrences, by: \.uid).mapValues { $0.map { OccurrenceSpan(start: $0.start, end: $0.end) } }
        }

        @Test("Windows names through CLDR's table, libical's and Mozilla's paths by the IANA name inside, an own VTIMEZONE first; unknown names floating, said once")
        func windowsAndLibicalNames() throws {
            let document = try Samples.document("windows-zones.ics")
            #expect(document.events.count == 15, "every event kept: \(document.skipped)")
            let found = starts(document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 4, 1)), defaultZone: berlin))
            func hour(_ day: Int, _ hour: Int, minutes: Int = 60) -> OccurrenceSpan {
                OccurrenceSpan(start: utc(2026, 3, day, hour), end: utc(2026, 3, day, hour) + Int64(minutes * 60))
            }
            // 09:00 on 10 March: Los Angeles and Chicago on summer time since the 8th.
            #expect(found["pacific@example.org"] == [hour(10, 16)])
            #expect(found["central@example.org"] == [hour(10, 14)])
            #expect(found["w-europe@example.org"] == [hour(10, 8)])
            #expect(found["china@example.org"] == [hour(10, 1)])
            #expect(found["tokyo@example.org"] == [hour(10, 0)])
            // 08:00 Pacific weekly: PST on the 3rd, PDT after; the 17th left out by its EXDATE in the same name.
            #expect(found["weekly-pacific@example.org"] == [hour(3, 16, minutes: 30), hour(10, 15, minutes: 30), hour(24, 15, minutes: 30)])
            #expect(found["tzfile@example.org"] == [hour(11, 8)])
            #expect(found["freeassociation@example.org"] == [hour(11, 9)])
            #expect(found["slash@example.org"] == [hour(11, 10)])
            #expect(found["mozilla@example.org"] == [hour(11, 13)])
            // The file's own VTIMEZONE named "Tokyo Standard Time" (+03:00) wins over CLDR's Asia/Tokyo.
            #expect(found["own-tokyo@example.org"] == [hour(13, 6)])
            // Unknown names: the wall clock in the configured zone.
            #expect(found["mars@example.org"] == [hour(12, 8)])
            #expect(found["display-name@example.org"] == [hour(12, 9)])
            #expect(found["long-name@example.org"] == [hour(12, 10)])
            #expect(found["traversal@example.org"] == [hour(12, 11)])
            let newYork = starts(document.occurrences(in: try window(utc(2026, 3, 12), utc(2026, 3, 13)), defaultZone: try CalendarZone(named: "America/New_York")))
            #expect(newYork["mars@example.org"] == [hour(12, 13)], "floating: 09:00 in New York")

            try #require(document.skipped.count == 1, "one problem for the file: \(document.skipped)")
            let problem = document.skipped[0]
            #expect(problem.uid == nil, "four events concern it, none is named alone")
            #expect(problem.message.hasPrefix("unknown time zone 'Mars/Olympus_Mons' (neither IANA nor Windows, and the file has no VTIMEZONE for it): the times of the 4 events in such zones are read as floating, in the configured zone; other unknown TZIDs: '(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna', 'Zone xxx"), "\(problem.message)")
            #expect(problem.message.hasSuffix("…' and more"), "the 305-byte name shortened, the fourth counted: \(problem.message)")
            #expect(problem.message.utf8.count < 400, "\(problem.message.utf8.count) bytes")
        }

        @Test("all of CLDR's 139 Windows names map to zones libical has; a dozen checked against what Windows means by them")
        func windowsTable() throws {
            #expect(WindowsZones.table.count == 139)
            for (windows, iana) in WindowsZones.table {
                let zone = try #require(ZoneNames.zone(forTZID: windows), "\(windows) → \(iana)")
                // "UTC" is an IANA name too, and read as one.
                #expect(zone.name == (windows == "UTC" ? "UTC" : iana))
            }
            let known = ["Pacific Standard Time": "America/Los_Angeles", "Central Standard Time": "America/Chicago",
                         "Eastern Standard Time": "America/New_York", "W. Europe Standard Time": "Europe/Berlin",
                         "Romance Standard Time": "Europe/Paris", "GMT Standard Time": "Europe/London",
                         "China Standard Time": "Asia/Shanghai", "Tokyo Standard Time": "Asia/Tokyo",
                         "India Standard Time": "Asia/Kolkata", "AUS Eastern Standard Time": "Australia/Sydney",
                         "UTC": "Etc/UTC", "UTC-11": "Etc/GMT+11", "Dateline Standard Time": "Etc/GMT+12"]
            for (windows, iana) in known { #expect(WindowsZones.table[windows] == iana, "\(windows)") }
            // Offsets in January 2026, from the zones the names led to.
            let january = utc(2026, 1, 15)
            #expect(ZoneNames.zone(forTZID: "India Standard Time")?.offset(at: january) == 19_800)
            #expect(ZoneNames.zone(forTZID: "UTC-11")?.offset(at: january) == -39_600)
            #expect(ZoneNames.zone(forTZID: "Central Standard Time (Mexico)")?.offset(at: january) == -21_600)
        }

        @Test("hostile TZIDs: read as floating, named shortened and made safe, never a look outside the zone folder", arguments: [
            "", "/", "//", "/ /", "a/../../etc/passwd", "/../../../../etc/passwd", "/etc/passwd/", "Europe/Berlin/",
            "\u{1B}[31mred\u{1B}[0m", String(repeating: "/Europe", count: 2_000), String(repeating: "x", count: 100_000),
            "pacific standard time",
        ])
        func hostileNames(_ tzid: String) throws {
            let quoted = tzid.contains(":") || tzid.contains(";") || tzid.contains(",") ? "\"\(tzid)\"" : tzid
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:hostile\r\nDTSTART;TZID=\(quoted):20260312T090000\r\nDURATION:PT1H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "hostile.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 12), utc(2026, 3, 13)), defaultZone: berlin)
            #expect(found.occurrences.map(\.start) == [utc(2026, 3, 12, 8)], "floating in Berlin")
            let problem = try #require(document.skipped.first)
            #expect(document.skipped.count == 1)
            #expect(problem.uid == "hostile")
            #expect(problem.description.utf8.count < 400)
            #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(problem.description)")
        }

        @Test("10,000 events in one unknown zone: one problem, and the look-up is not repeated for each")
        func manyEventsOneUnknownZone() throws {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            for index in 0..<10_000 {
                text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTART;TZID=Somewhere/Unknown:20260312T090000\r\nEND:VEVENT\r\n"
            }
            text += "END:VCALENDAR\r\n"
            let clock = ContinuousClock()
            var document: CalendarDocument?
            let took = try clock.measure { document = try CalendarDocument(parsing: Array(text.utf8), source: "many.ics") }
            print("10,000 events in an unknown zone read in \(took)")
            #expect(document?.events.count == 10_000)
            #expect(document?.skipped.count == 1)
            #expect(document?.skipped.first?.message.contains("the times of the 10000 events") == true, "\(document?.skipped ?? [])")
        }
    }
}
