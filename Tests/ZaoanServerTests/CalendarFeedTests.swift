import Foundation
import Testing

/// The config's `calendars` through the real service: events count like rooms, and a
/// change to the files shows within a second or two, without a restart.
@Suite("calendars: .ics files and vdir folders, followed with inotify")
struct CalendarFeedTests {
    /// One VEVENT starting `minutes` from now, an hour long, as a vdir file holds it.
    static func event(uid: String, title: String, minutes: Int) -> String {
        event(uid: uid, title: title, start: Date().addingTimeInterval(Double(minutes * 60)))
    }

    /// The same from `start`, `length` seconds long, with a URL if given.
    static func event(uid: String, title: String, start: Date, length: Double = 3600, url: String? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                     "DTSTAMP:20261201T000000Z", "DTSTART:\(formatter.string(from: start))",
                     "DTEND:\(formatter.string(from: start.addingTimeInterval(length)))", "SUMMARY:\(title)"]
        if let url { lines.append("URL:\(url)") }
        lines += ["END:VEVENT", "END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    /// Writes `text` to `path` the way sync tools do: a temporary file renamed over it.
    static func replace(_ path: String, with text: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Waits until a reading parses no file (`calendar_files: 0 parsed, COUNT unchanged`)
    /// and returns `stats`. A file changed less than a second before a reading is read again
    /// at the next (`FileIdentity.mayHideChanges`: its times may not show a rewrite), so a
    /// test that counts what one change parses first lets the files it wrote settle. Each try
    /// starts a reading with a dotfile in `folder`, which inotify reports and the reader ignores.
    static func settle(_ service: TestService, files count: Int, nudging folder: String) throws -> String {
        var stats = ""
        let settled = try eventually(timeout: 20, interval: 0.3) {
            try "\(Date())".write(toFile: folder + "/.nudge", atomically: false, encoding: .utf8)
            stats = try service.ask("stats")
            return stats.contains("calendar_files: 0 parsed, \(count) unchanged\n")
        }
        try #require(settled, "the files never settled: \(stats)")
        return stats
    }

    private func start(calendars: [String]) throws -> TestService {
        let list = calendars.map { "\"\($0)\"" }.joined(separator: ", ")
        return try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                     config: #"{"calendars": [\#(list)]}"#)
    }

    @Test("a reading parses only the files that changed; an edit, a chmod, a retargeted link and a removal are each seen, the others kept")
    func parsesOnlyWhatChanged() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("work")
        for (index, name) in ["a", "b", "c"].enumerated() {
            try Self.event(uid: name, title: "Event \(name)", minutes: 20 + index).write(toFile: "\(calendar)/\(name).ics", atomically: true, encoding: .utf8)
        }
        try Self.event(uid: "linked", title: "Linked one", minutes: 40).write(toFile: folder.path + "/one.txt", atomically: true, encoding: .utf8)
        try Self.event(uid: "linked", title: "Linked two", minutes: 40).write(toFile: folder.path + "/two.txt", atomically: true, encoding: .utf8)
        #expect(symlink(folder.path + "/one.txt", calendar + "/link.ics") == 0)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        func files(until expected: String) throws -> String {
            try service.ask("stats", within: 10) { $0.contains("calendar_files: \(expected)\n") }
        }
        var stats = try files(until: "4 parsed, 0 unchanged")
        #expect(stats.contains("calendar_files: 4 parsed, 0 unchanged") && stats.contains("calendar_events: 4"), "the first reading parses all: \(stats)")
        _ = try Self.settle(service, files: 4, nudging: calendar)

        try Self.replace(calendar + "/b.ics", with: Self.event(uid: "b", title: "Edited b", minutes: 21))
        stats = try files(until: "1 parsed, 3 unchanged")
        #expect(stats.contains("calendar_files: 1 parsed, 3 unchanged"), "an edit parses that file alone: \(stats)")
        let schedule = try service.ask("schedule 2")
        #expect(schedule.contains("Edited b") && schedule.contains("Event a") && schedule.contains("Event c") && schedule.contains("Linked one"),
                "the kept files still show: \(schedule)")
        #expect(!schedule.contains("Event b"), "\(schedule)")

        // A chmod changes the inode, not the text: c is checked again, and now refused.
        #expect(chmod(calendar + "/c.ics", 0o666) == 0)
        let refused = try service.ask("schedule 2", within: 10) { !$0.contains("Event c") }
        #expect(!refused.contains("Event c") && refused.contains("Edited b"), "writable by every account now: left out: \(refused)")
        #expect(chmod(calendar + "/c.ics", 0o644) == 0)
        let back = try service.ask("schedule 2", within: 10) { $0.contains("Event c") }
        #expect(back.contains("Event c"), "and back once it is the user's alone again: \(back)")

        let retarget = calendar + "/.link.tmp"
        #expect(symlink(folder.path + "/two.txt", retarget) == 0 && rename(retarget, calendar + "/link.ics") == 0)
        let linked = try service.ask("schedule 2", within: 10) { $0.contains("Linked two") }
        #expect(linked.contains("Linked two") && !linked.contains("Linked one"), "a link pointed elsewhere is read again: \(linked)")

        #expect(unlink(calendar + "/a.ics") == 0)
        let gone = try service.ask("schedule 2", within: 10) { !$0.contains("Event a") }
        #expect(!gone.contains("Event a") && gone.contains("Event c") && gone.contains("Edited b"), "a removed file's events go, the others stay: \(gone)")
        stats = try Self.settle(service, files: 3, nudging: calendar)
        #expect(stats.contains("calendar_files: 0 parsed, 3 unchanged") && stats.contains("calendar_events: 3"), "\(stats)")
    }

    @Test("1,030 broken files: all counted in stats, the first 1,000 kept, 20 logged and one line for the rest")
    func manyProblemsAreCountedNotFlooded() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("junk")
        for index in 0..<1_030 {
            try "BEGIN:VCALENDAR\r\nnot a calendar \(index)\r\n".write(toFile: "\(calendar)/\(index).ics", atomically: false, encoding: .utf8)
        }
        try Self.event(uid: "ok", title: "Still shown", minutes: 30).write(toFile: calendar + "/zz-good.ics", atomically: true, encoding: .utf8)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        let stats = try service.ask("stats", within: 20) { $0.contains("calendar_problems: 1030") }
        #expect(stats.contains("calendar_problems: 1030 (") && stats.contains("calendar_events: 1"), "every problem counted, the good file read: \(stats)")
        #expect(try service.ask("countdown").hasPrefix("Still shown"))
        let logged = service.stderrText.split(separator: "\n").filter { $0.contains("calendar: ") }
        #expect(logged.count == 21, "20 problems and one line for the rest: \(logged.count) lines")
        #expect(logged.last?.contains("1010 more problems in this reading are not logged") == true, "\(logged.last ?? "")")
    }

    @Test("an event counts like a room; an edit, a new file, a removed file and a broken file show without a restart")
    func followsAFolder() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("work")
        try Self.event(uid: "standup", title: "Standup", minutes: 30).write(toFile: calendar + "/standup.ics", atomically: true, encoding: .utf8)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        let first = try service.ask("countdown")
        #expect(first.hasPrefix("Standup · starts in 00:"), "the event, like a room: \(first)")

        try Self.replace(calendar + "/standup.ics", with: Self.event(uid: "standup", title: "Retro", minutes: 30))
        var seen = try service.ask("countdown", within: 3) { $0.hasPrefix("Retro") }
        #expect(seen.hasPrefix("Retro · starts in"), "renamed over: \(seen)")

        try Self.event(uid: "coffee", title: "Coffee", minutes: 10).write(toFile: calendar + "/coffee.ics", atomically: false, encoding: .utf8)
        seen = try service.ask("countdown", within: 3) { $0.hasPrefix("Coffee") }
        #expect(seen.hasPrefix("Coffee · starts in 00:"), "a new file, and the earlier event first: \(seen)")

        try "BEGIN:VCALENDAR\r\nthis is not a calendar\r\n".write(toFile: calendar + "/broken.ics", atomically: true, encoding: .utf8)
        let stats = try service.ask("stats", within: 3) { $0.contains("calendar_problems: 1") }
        #expect(stats.contains("calendar_problems: 1 (") && stats.contains("broken.ics"), "the broken file is named: \(stats)")
        #expect(stats.contains("calendar_events: 2"), "the others keep working: \(stats)")

        try FileManager.default.removeItem(atPath: calendar + "/coffee.ics")
        seen = try service.ask("countdown", within: 3) { $0.hasPrefix("Retro") }
        #expect(seen.hasPrefix("Retro"), "a removed file's event goes: \(seen)")
        #expect(service.stderrText.contains("broken.ics"), "the log says which file: \(service.stderrText)")
    }

    @Test("schedule lists rooms and events by start with their sources (a calendar's name), within HOURS, in every format")
    func schedule() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("team")
        try Self.event(uid: "review", title: "Review", minutes: 90).write(toFile: calendar + "/review.ics", atomically: true, encoding: .utf8)
        try Self.event(uid: "late", title: "Later", minutes: 60 * 30).write(toFile: calendar + "/late.ics", atomically: true, encoding: .utf8)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        #expect(try service.ask("live add tea +30m Tea Time end=+15m") == "ok\n")
        let lines = try service.ask("schedule").split(separator: "\n").map(String.init)
        let rows = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 4 }, "two rows of four fields within 24 h: \(lines)")
        #expect(rows.first.map { [$0[2], $0[3]] } == ["live", "Tea Time"], "the room first: \(lines)")
        #expect(rows.last.map { [$0[2], $0[3]] } == ["team", "Review"], "then the event, with its calendar's name (the folder's, without a displayname): \(lines)")
        #expect(rows.first?[0].hasSuffix("+00:00") == true && rows.first?[1] != "-", "\(lines)")
        #expect(try service.ask("schedule 1").split(separator: "\n").count == 1, "within an hour: the room only")
        #expect(try service.ask("schedule 48").split(separator: "\n").count == 3, "48 hours: the later event too")
        let json = try service.ask("--format=json schedule")
        #expect(json.hasPrefix(#"{"text":""#) && json.contains("Tea Time") && json.contains("Review"), "\(json)")
        #expect(try service.ask("schedule 0").hasPrefix("ERR bad-argument schedule HOURS must be a whole number from 1 to 744"))
        #expect(try service.ask("schedule many").hasPrefix("ERR bad-argument"))
    }

    /// The real-world samples ZaoanCalendarTests checks against recurring_ical_events, read
    /// by the real service under a faked clock: what `schedule` lists for March 2026.
    @Test("the sample calendars through the service: moved, cancelled and skipped instances, New York across its DST change, all-day, floating, DURATION")
    func samplesThroughTheService() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let samples = ["weekly-meeting", "new-york-vtimezone", "all-day", "floating-utc-duration", "malformed"].map { $0 + ".ics" }
        let service = try CalendarSamples.service(reading: samples, in: folder, clock: "2026-03-02 00:00:00")
        defer { try? service.stop() }
        let rows = try service.scheduleRows()
        let expected = [
            // Weekly on Tuesdays at 10:00 (COUNT=10), an extra Friday (RDATE), the 17th left out
            // (EXDATE), the 24th moved to Wednesday 15:00, the 31st cancelled.
            "2026-03-03T10:00:00+01:00 2026-03-03T11:00:00+01:00 Team weekly",
            "2026-03-06T14:00:00+01:00 2026-03-06T15:00:00+01:00 Team weekly",
            "2026-03-10T10:00:00+01:00 2026-03-10T11:00:00+01:00 Team weekly",
            "2026-03-25T15:00:00+01:00 2026-03-25T16:00:00+01:00 Team weekly (moved to Wednesday)",
            // 07:00 in New York (a VTIMEZONE with a Windows name): 13:00 in Berlin, 12:00 once
            // New York is on summer time (8 March) and Berlin not yet.
            "2026-03-07T13:00:00+01:00 2026-03-07T13:15:00+01:00 NY standup",
            "2026-03-08T12:00:00+01:00 2026-03-08T12:15:00+01:00 NY standup",
            "2026-03-12T12:00:00+01:00 2026-03-12T12:15:00+01:00 NY standup",
            // All-day over three days, across Berlin's own change (29 March).
            "2026-03-27T00:00:00+01:00 2026-03-30T00:00:00+02:00 Conference",
            // Floating time in the configured zone; UTC; DURATION; a day-long DURATION across
            // the change is 23 hours.
            "2026-03-27T09:00:00+01:00 2026-03-27T10:00:00+01:00 Dentist (floating time)",
            "2026-03-27T17:00:00+01:00 2026-03-27T17:30:00+01:00 Call (UTC)",
            "2026-03-28T14:00:00+01:00 2026-03-28T15:30:00+01:00 Workshop (DURATION PT1H30M)",
            "2026-03-28T12:00:00+01:00 2026-03-29T12:00:00+02:00 Retreat (DURATION P1D across the DST change)",
        ]
        print("schedule under faketime: \(rows.count) rows")
        for row in expected { #expect(rows.contains(row), "missing: \(row)\nschedule: \(rows.joined(separator: "\n"))") }
        for absent in ["2026-03-17T10:00", "2026-03-24T10:00", "2026-03-31T10:00", "2026-03-13T"] {
            #expect(!rows.contains { $0.hasPrefix(absent) }, "\(absent) should not be listed: \(rows.joined(separator: "\n"))")
        }
        #expect(rows.filter { $0.hasSuffix(" NY standup") }.count == 8, "5 March to 12 March, UNTIL included: \(rows)")
        let stats = try service.ask("stats")
        #expect(stats.contains("calendar_problems: 1") && stats.contains("malformed.ics"), "the broken sample is named, the rest read: \(stats)")
    }

    /// Run with the release build users get: the reader's limits (`ReaderProcess.Limits`,
    /// 5 s of CPU for a file's parse) are set for it, and the debug build parses this file in
    /// about that much, so it would be left out as over budget on a busy machine.
    @Test("a big calendar is read off the loop: pings are answered at once while it is read")
    func bigCalendarDoesNotStall() throws {
        guard let release = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan-server --static-swift-stdlib)")
        }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let bench = (Locations.zaoan as NSString).deletingLastPathComponent + "/zaoan-bench"
        let big = folder.file("big.ics")
        let written = try Tool.run(bench, ["calendar", "--events", "40000", "--series", "4000", "--write", big],
                                   environment: ProcessInfo.processInfo.environment, timeout: 120, scratch: folder)
        try #require(written.status == 0, "\(written)")
        var configuration = TestService.Configuration()
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        configuration.config = #"{"calendars": ["\#(calendar)"]}"#
        configuration.binary = release
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        #expect(rename(big, calendar + "/big.ics") == 0)
        var worst = 0.0
        var read = false
        var stats = ""
        let started = Date()
        while !read, Date().timeIntervalSince(started) < 120 {
            let asked = Date()
            #expect(try service.ask("ping") == "pong\n")
            worst = max(worst, Date().timeIntervalSince(asked))
            stats = try service.ask("stats")
            read = try stats.contains("calendars: 1 read") && service.ask("schedule 48").split(separator: "\n").count > 100
            Thread.sleep(forTimeInterval: 0.02)
        }
        let took = Date().timeIntervalSince(started)
        print("a 40,000-event calendar read in \(String(format: "%.2f", took)) s; slowest ping meanwhile \(String(format: "%.3f", worst)) s")
        #expect(read, "the calendar was read: \(stats)")
        #expect(worst < 0.5, "a ping waited \(worst) s while the calendar was read (\(took) s)")
    }

    @Test("a folder that does not exist yet is waited for, then read when it appears")
    func waitsForAMissingFolder() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let calendar = base.path + "/synced"
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        #expect(try service.ask("stats").contains("calendars: 0 read, 1 waiting"))
        let nothing = try service.ask("countdown")
        #expect(nothing.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "nothing to show yet, and no error: \(nothing)")
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: false)
        try Self.event(uid: "x", title: "Synced later", minutes: 20).write(toFile: calendar + "/x.ics", atomically: true, encoding: .utf8)
        let seen = try service.ask("countdown", within: 4) { $0.hasPrefix("Synced later") }
        #expect(seen.hasPrefix("Synced later"), "read once it appeared: \(seen)")
    }

    @Test("a FIFO named .ics is refused without blocking the service")
    func fifoRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        #expect(mkfifo(calendar + "/trap.ics", 0o600) == 0)
        try Self.event(uid: "ok", title: "Fine", minutes: 15).write(toFile: calendar + "/ok.ics", atomically: true, encoding: .utf8)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        let started = Date()
        #expect(try service.ask("countdown").hasPrefix("Fine"))
        #expect(Date().timeIntervalSince(started) < 5)
        let stats = try service.ask("stats")
        #expect(stats.contains("calendar_problems: 1") && stats.contains("trap.ics"), "\(stats)")
    }

    @Test("calendars must be absolute paths, one line each, without ..", arguments: [
        #"{"calendars": ["relative/cal"]}"#, #"{"calendars": ["/etc/../root"]}"#, #"{"calendars": ["/a\nb"]}"#,
    ])
    func badPaths(config: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        try directory.write("c.json", config)
        let check = try Tool.run(Locations.zaoan, ["check-config", directory.file("c.json")], environment: environment,
                                 timeout: 10, scratch: directory)
        #expect(check.status == 1 && check.errorOutput.contains("config key 'calendars'"), "\(check)")
    }
}
