import Foundation
import Testing
@testable import ZaoanCalendar
import ZaoanText

extension CalendarTests {
    /// What a calendar calls itself: a vdir's `displayname`, a file's `X-WR-CALNAME`, each
    /// read by the calendar files' rules and shown one line, safe and bounded.
    @Suite struct CalendarNameTests {
        static func calendar(_ header: [String], event: [String] = []) -> [UInt8] {
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"] + header
                + ["BEGIN:VEVENT", "UID:x", "DTSTAMP:20260301T000000Z", "DTSTART:20260301T100000Z", "SUMMARY:x"] + event
                + ["END:VEVENT", "END:VCALENDAR", ""]
            return Array(lines.joined(separator: "\r\n").utf8)
        }

        @Test("X-WR-CALNAME: folded, escaped, any case, a quoted colon in a parameter; only the calendar's own, before its first component", arguments: [
            (["X-WR-CALNAME:Work"], [], "Work"),
            (["x-wr-calname:Work"], [], "Work"),
            (["X-WR-CALNAME:Public\r\n  holidays\\, DE\\; \\\\ all"], [], "Public holidays, DE; \\ all"),
            (["X-WR-CALNAME;X-PARAM=\"a:b\":Quoted"], [], "Quoted"),
            (["X-WR-CALNAME:First line\\nsecond line"], [], "First line"),
            (["X-WR-CALNAME:   "], [], nil),
            ([], ["X-WR-CALNAME:Inside the event"], nil),
            (["BEGIN:VTIMEZONE", "TZID:X", "END:VTIMEZONE", "X-WR-CALNAME:After a component"], [], nil),
            (["X-WR-CALNAME:Tab\there <b>&</b> \u{202E}x\u{1B}[31m"], [], "Tab here <b>&</b> \u{FFFD}x␛[31m"),
        ] as [([String], [String], String?)])
        func calendarName(header: [String], event: [String], expected: String?) {
            #expect(CalendarName.calendarName(in: Self.calendar(header, event: event)) == expected)
        }

        @Test("a name of 10,000 combining marks is cut between scalars within the bounds, ending in …")
        func boundedName() throws {
            let marks = "M" + String(repeating: "\u{0301}", count: 10_000)
            let name = try #require(CalendarName.calendarName(in: Self.calendar(["X-WR-CALNAME:" + marks])))
            #expect(name.utf8.count <= CalendarNameRule.maxBytes && name.count <= CalendarNameRule.maxCharacters && name.hasSuffix("…"))
            #expect(name.unicodeScalars.first == "M" && name.unicodeScalars.dropFirst().first == "\u{0301}")
            #expect(CalendarName.calendarName(in: Array("not a calendar\0".utf8)) == nil, "a NUL ends the scan, nothing thrown")
        }

        @Test("without a name of its own: a folder's last component, a file's without .ics", arguments: [
            ("/home/me/.local/share/calendars/work", "work"), ("/home/me/calendars/work/", "work"),
            ("/home/me/holidays.ics", "holidays"), ("/home/me/Holidays.ICS", "Holidays"), ("/home/me/.ics", ".ics"),
            ("/srv/\u{202E}evil", "\u{FFFD}evil"),
        ])
        func fallback(path: String, expected: String) {
            #expect(CalendarName.fallback(forPath: path) == expected)
        }

        @Test("a name that reads as zaoan's own source is suffixed, with a problem naming the calendar; any other stands", arguments: [
            ("live", "live (calendar)", "/c/live: its name 'live' reads as 'live', the rooms' source name in schedule; the calendar is shown as 'live (calendar)'"),
            ("Festival", "Festival (calendar)",
             "/c/live: its name 'Festival' reads as 'festival', the festivals' source name in schedule; the calendar is shown as 'Festival (calendar)'"),
            ("Work", "Work", nil), ("Live music", "Live music", nil),
        ] as [(String, String, String?)])
        func unreserved(name: String, shown: String, problem: String?) {
            let result = CalendarName.unreserved(name, path: "/c/live")
            #expect(result.name == shown)
            #expect(result.problem?.description == problem)
        }

        /// A folder with one event and, unless nil, `displayname` holding `text`.
        static func folder(displayname text: String?) throws -> String {
            let folder = NSTemporaryDirectory() + "zaoan-name-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            try Data(Samples.bytes("vdir/a.ics")).write(to: URL(fileURLWithPath: folder + "/a.ics"))
            if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/displayname")) }
            return folder
        }

        static func loaded(_ path: String) throws -> CalendarSet {
            guard case .loaded(let set) = CalendarSource(path: path).load() else { throw OracleFailure("\(path) did not load") }
            return set
        }

        @Test("a vdir's displayname as vdirsyncer writes it: trimmed, its first line, a BOM skipped, made safe; none without one", arguments: [
            ("Work", "Work"), ("  Work Team \n", "Work Team"), ("\u{FEFF}Work", "Work"), ("Work\nsecond line", "Work"),
            ("Team\t<b>&</b>\u{7}", "Team <b>&</b>␇"), ("\n\n", nil), (nil, nil),
        ] as [(String?, String?)])
        func displayname(text: String?, expected: String?) throws {
            let folder = try Self.folder(displayname: text)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let set = try Self.loaded(folder)
            #expect(set.name == expected)
            #expect(set.problems.isEmpty && set.documents.count == 1, "\(set.problems)")
        }

        @Test("a displayname that is a FIFO, too big, or a link to another account's file: no name, the problem named, the events read")
        func hostileDisplayname() throws {
            let fifo = try Self.folder(displayname: nil)
            let huge = try Self.folder(displayname: String(repeating: "x", count: CalendarName.displaynameBytes + 1))
            let linked = try Self.folder(displayname: nil)
            defer { [fifo, huge, linked].forEach { try? FileManager.default.removeItem(atPath: $0) } }
            #expect(mkfifo(fifo + "/displayname", 0o644) == 0)
            let secret = linked + "/.secret"
            try Data("Secret\n".utf8).write(to: URL(fileURLWithPath: secret))
            #expect(chown(secret, 65534, 65534) == 0 && chmod(secret, 0o600) == 0)
            #expect(symlink(secret, linked + "/displayname") == 0)
            let expected = [
                (fifo, "\(fifo)/displayname: a FIFO, not a file; the folder's name stands for the calendar's"),
                (huge, "\(huge)/displayname: \(CalendarName.displaynameBytes + 1) bytes; at most \(CalendarName.displaynameBytes); the folder's name stands for the calendar's"),
                (linked, "\(linked)/displayname: a symbolic link to \(secret), a file owned by uid 65534, not by root; not read, as another account could have changed it; the folder's name stands for the calendar's"),
            ]
            for (folder, message) in expected {
                let set = try Self.loaded(folder)
                #expect(set.name == nil && set.documents.count == 1)
                #expect(set.problems.map(\.description) == [message])
            }
        }

        @Test("a configured file names itself with X-WR-CALNAME; a folder's files do not name the folder")
        func fileAndFolder() throws {
            let folder = try Self.folder(displayname: nil)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data(Self.calendar(["X-WR-CALNAME:Holidays"])).write(to: URL(fileURLWithPath: folder + "/holidays.ics"))
            #expect(try Self.loaded(folder + "/holidays.ics").name == "Holidays")
            #expect(try Self.loaded(folder).name == nil)
        }
    }
}
