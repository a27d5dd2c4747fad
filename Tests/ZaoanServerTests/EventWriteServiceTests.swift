import Foundation
import Glibc
import Testing

/// `event add` and `event rm` through the real service: a file written into a vdir folder
/// the config names, picked up by the calendar watch (`schedule`, `live show`), read back by
/// Debian's khal and by python3-icalendar, synced to Radicale by vdirsyncer; removed again;
/// hostile UIDs, foreign files, unknown calendars and another account's folder refused with
/// nothing written.
@Suite("calendars: event add and event rm write a vdir folder", .serialized)
struct EventWriteServiceTests {
    private static let uidPattern = try! NSRegularExpression(pattern: "^ok ([0-9a-f]{32}@zaoan)\n$")

    /// The UID in `ok UID`.
    private static func uid(_ answer: String) -> String? {
        let range = NSRange(answer.startIndex..., in: answer)
        guard let match = uidPattern.firstMatch(in: answer, range: range), let found = Range(match.range(at: 1), in: answer) else { return nil }
        return String(answer[found])
    }

    private func start(_ folders: [String], zone: String = "Europe/Berlin") throws -> TestService {
        let list = folders.map { "\"\($0)\"" }.joined(separator: ", ")
        return try TestService.start(arguments: ["--language", "en", "--timezone", zone], config: #"{"calendars": [\#(list)]}"#)
    }

    private func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("event add writes UID.ics (PRODID, VTIMEZONE), schedule and live show find it, khal and icalendar read it; event rm removes it")
    func addReadRemove() throws {
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let work = try world.makeDirectory("work")
        let service = try start([work])
        defer { try? service.stop() }

        let answer = try service.ask("event add work +2h \"Team, sync; weekly\" end=+45m location=\"Room 4\" \"desc=agenda, items\\\\x\" repeat=weekly alarm=-10m")
        let uid = try #require(Self.uid(answer), "event add answers ok and the UID: \(answer)")
        #expect(files(work) == [uid + ".ics"], "the one file, no temporary left: \(files(work))")
        let text = try String(contentsOfFile: work + "/" + uid + ".ics", encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//zaoan//event add//EN\r\n"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n") && text.contains("DTSTART;TZID=Europe/Berlin:"))
        #expect(text.contains("SUMMARY:Team\\, sync\\; weekly\r\n") && text.contains("RRULE:FREQ=WEEKLY\r\n") && text.contains("TRIGGER:-PT10M\r\n"))

        // The calendar watch reads it like any other file in the folder.
        var schedule = ""
        #expect(try eventually(timeout: 10) {
            schedule = try service.ask("schedule 24")
            return schedule.contains("\twork\tTeam, sync; weekly\n")
        }, "the event shows in schedule: \(schedule)")
        let shown = try service.ask("live show calendar:\(uid)")
        #expect(shown.contains("Room 4") && shown.contains("Team, sync; weekly"), "\(shown)")
        let reminders = try service.ask("remind list")
        #expect(reminders.contains("Team, sync; weekly"), "its alarm: \(reminders)")

        try readByKhal(work, uid: uid, world: world)
        try readByICalendar(work + "/" + uid + ".ics", world: world)

        // Removed: the file goes, and the event with it.
        #expect(try service.ask("event rm calendar:\(uid)") == "ok\n")
        #expect(files(work).isEmpty)
        #expect(try eventually(timeout: 10) { !(try service.ask("schedule 24")).contains("Team, sync") })
        #expect(try service.ask("event rm \(uid)").hasPrefix("ERR not-found no event \(uid)"))
    }

    /// Debian's khal (`khal list`), with a config of its own pointing at the folder.
    private func readByKhal(_ folder: String, uid: String, world: TemporaryDirectory) throws {
        guard let khal = Locations.tool("khal") else {
            print("skipped khal: not installed (apt-get install khal; scripts/test does)")
            return
        }
        let home = try world.makeDirectory("khal-home")
        try FileManager.default.createDirectory(atPath: home + "/.config/khal", withIntermediateDirectories: true)
        try """
            [calendars]
            [[work]]
            path = \(folder)
            type = calendar
            [locale]
            timeformat = %H:%M
            dateformat = %Y-%m-%d
            longdateformat = %Y-%m-%d
            datetimeformat = %Y-%m-%d %H:%M
            longdatetimeformat = %Y-%m-%d %H:%M
            local_timezone = Europe/Berlin
            default_timezone = Europe/Berlin

            """.write(toFile: home + "/.config/khal/config", atomically: true, encoding: .utf8)
        var environment = Tool.baseEnvironment(home: home)
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        // Two weeks from today's midnight hold exactly two instances whether `+2h` falls today
        // or (added after 22:00 Berlin time) tomorrow. `{start}` is the instance's start date
        // and time: an instance that runs past midnight (added at 21:15–22:00, +2h with 45
        // minutes) is listed under both of its days with the same start, and counts once.
        let listed = try Tool.run(khal, ["list", "--format", "{start} {title} :: {location}", "today", "14d"], environment: environment,
                                  timeout: 60, scratch: world)
        #expect(listed.status == 0, "khal list: \(listed)")
        let lines = listed.output.split(separator: "\n").filter { $0.contains("Team, sync; weekly") }
        #expect(Set(lines).count == 2, "khal lists the event and its next weekly instance, with its place: \(listed)")
        #expect(lines.allSatisfy { $0.hasSuffix(":: Room 4") }, "\(listed)")
    }

    /// python3-icalendar (Debian's), by /usr/bin/python3: the fields as written.
    private func readByICalendar(_ file: String, world: TemporaryDirectory) throws {
        let python = "/usr/bin/python3"
        let probe = try Tool.run(python, ["-c", "import icalendar"], environment: Tool.baseEnvironment(home: world.path), scratch: world)
        guard probe.status == 0 else {
            print("skipped icalendar: python3-icalendar not installed (apt-get install python3-icalendar)")
            return
        }
        let script = """
            import sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            event = next(iter(calendar.walk('VEVENT')))
            start = event.decoded('DTSTART')
            print(str(event['SUMMARY']), str(event['LOCATION']), str(event['DESCRIPTION']), start.tzinfo is not None,
                  str(event['RRULE'].to_ical(), 'ascii'), (event.decoded('DTEND') - start).seconds, sep='|')
            """
        let read = try Tool.run(python, ["-c", script, file], environment: Tool.baseEnvironment(home: world.path), scratch: world)
        #expect(read.output == "Team, sync; weekly|Room 4|agenda, items\\x|True|FREQ=WEEKLY|2700\n", "icalendar: \(read)")
    }

    @Test("refused with nothing written: hostile UIDs, a file zaoan did not write, an unknown calendar, bad words, another account's folder")
    func refusals() throws {
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let work = try world.makeDirectory("work")
        let foreign = try world.makeDirectory("foreign")
        let service = try start([work, foreign])
        defer { try? service.stop() }

        // A file with a zaoan-shaped name that zaoan did not write (another program's PRODID).
        let planted = "0123456789abcdef0123456789abcdef@zaoan"
        let plantedText = CalendarFieldsTests.calendar(uid: planted, title: "Not mine", minutes: 30)
        try plantedText.write(toFile: work + "/" + planted + ".ics", atomically: true, encoding: .utf8)
        let outside = world.file("outside.ics")
        try plantedText.write(toFile: outside, atomically: true, encoding: .utf8)

        for uid in ["../outside", "../../etc/passwd", "/etc/passwd", "calendar:../outside", "\(planted)/..", "a\u{1}b",
                    String(repeating: "a", count: 600), "0123456789ABCDEF0123456789abcdef@zaoan"] {
            let answer = try service.ask("event rm \"\(uid)\"")
            #expect(answer.hasPrefix("ERR bad-argument ") && answer.contains("is not a UID event add made"), "\(uid.prefix(40)): \(answer)")
        }
        let foreignAnswer = try service.ask("event rm \(planted)")
        #expect(foreignAnswer.hasPrefix("ERR forbidden ") && foreignAnswer.contains("was not written by zaoan"), "\(foreignAnswer)")
        #expect(FileManager.default.fileExists(atPath: work + "/" + planted + ".ics") && FileManager.default.fileExists(atPath: outside))

        for (line, expected) in [
            ("event add nowhere +1h T", "ERR not-found no calendar 'nowhere'"),
            ("event add work someday T", "ERR bad-argument 'someday' is not a time"),
            ("event add work +1h T repeat=FREQ=SECONDLY", "ERR bad-argument repeat=FREQ=SECONDLY"),
            ("event add work +1h T repeat=FREQ=WEEKLY;BYDAY=XX", "ERR bad-argument repeat="),
            ("event add work +1h \"bad\u{1}title\"", "ERR bad-argument the title holds a control or format character (U+0001)"),
            ("event add work +1h " + String(repeating: "x", count: 1000), "ERR bad-argument the title is 1000 bytes"),
            ("event add work +1h", "ERR bad-argument event add needs a TITLE"),
        ] {
            let answer = try service.ask(line)
            #expect(answer.hasPrefix(expected), "\(line.prefix(60)): \(answer)")
        }
        #expect(files(work) == [planted + ".ics"], "nothing written: \(files(work))")

        // A folder of another account (root runs the tests: give it to nobody).
        if geteuid() == 0 {
            #expect(chown(foreign, 65534, 65534) == 0)
            let answer = try service.ask("event add foreign +1h T")
            #expect(answer.hasPrefix("ERR forbidden the calendar folder \(foreign) belongs to uid 65534"), "\(answer)")
            #expect(files(foreign).isEmpty)
        } else {
            print("skipped another account's folder: chown needs root")
        }
        // A folder others may write.
        #expect(chmod(work, 0o777) == 0)
        let open = try service.ask("event add work +1h T")
        #expect(open.hasPrefix("ERR forbidden the calendar folder \(work) is writable by every account"), "\(open)")
        #expect(files(work) == [planted + ".ics"])
    }

    @Test("vdirsyncer syncs an event add to Radicale: the server holds it; event rm and a sync remove it there")
    func radicaleRoundTrip() throws {
        let tools: [String: String]
        do { tools = try CalDAVSyncTests.tools(["radicale", "vdirsyncer", "curl"]) } catch {
            print("skipped: \(error)")
            return
        }
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let environment = Tool.baseEnvironment(home: try world.makeDirectory("home"))
        let server = try CalDAVSoftware.radicale.start(executable: tools["radicale"]!, in: world, environment: environment)
        defer { server.stop() }
        let collection = server.calendar
        let http = HTTP(curl: tools["curl"]!, environment: environment, scratch: world, server: server.process)
        try http.expect([201], "MKCALENDAR", collection)
        // One event that stays: vdirsyncer will not sync a calendar emptied on one side.
        try http.expect([201, 204], "PUT", collection + "stays.ics", body: CalendarFeedTests.event(uid: "stays", title: "Stays", minutes: 600))
        let sync = try VdirSyncer(executable: tools["vdirsyncer"]!, in: world, environment: environment,
                                  config: try ShippedVdirsyncerConfig().account(server.account))
        let folder = sync.folder("work")
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try sync.run(["discover"], answering: "y\n")
        _ = try sync.run(["sync"])
        let service = try start([folder], zone: "Asia/Shanghai")
        defer { try? service.stop() }

        let answer = try service.ask("event add work +3h 早茶 location=茶楼 repeat=daily")
        let uid = try #require(Self.uid(answer), "\(answer)")
        let pushed = try sync.run(["sync"])
        #expect(pushed.status == 0, "vdirsyncer sync: \(pushed)")
        // vdirsyncer PUTs it under a name of its own: the whole collection (Radicale's GET) holds it.
        let held = try Tool.run(tools["curl"]!, ["--silent", "--user", "alice:secret", collection], environment: environment, scratch: world)
        #expect(held.output.contains("UID:\(uid)") && held.output.contains("SUMMARY:早茶") && held.output.contains("TZID:Asia/Shanghai"),
                "Radicale holds the event: \(held) \(server.process.log.suffix(1500))")

        #expect(try service.ask("event rm \(uid)") == "ok\n")
        let removed = try sync.run(["sync"])
        #expect(removed.status == 0, "vdirsyncer sync: \(removed)")
        let after = try Tool.run(tools["curl"]!, ["--silent", "--user", "alice:secret", collection], environment: environment, scratch: world)
        #expect(!after.output.contains(uid) && after.output.contains("SUMMARY:Stays"), "Radicale no longer holds it: \(after)")
    }
}
