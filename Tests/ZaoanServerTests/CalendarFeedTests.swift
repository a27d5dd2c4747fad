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

    private func start(calendars: [String]) throws -> TestService {
        let list = calendars.map { "\"\($0)\"" }.joined(separator: ", ")
        return try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                     config: #"{"calendars": [\#(list)]}"#)
    }

    /// Asks until the answer satisfies `condition` or `seconds` pass; returns the last answer.
    private func answer(_ service: TestService, _ request: String, within seconds: Double,
                        until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try service.ask(request)
        while !condition(last), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            last = try service.ask(request)
        }
        return last
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
        var seen = try answer(service, "countdown", within: 3) { $0.hasPrefix("Retro") }
        #expect(seen.hasPrefix("Retro · starts in"), "renamed over: \(seen)")

        try Self.event(uid: "coffee", title: "Coffee", minutes: 10).write(toFile: calendar + "/coffee.ics", atomically: false, encoding: .utf8)
        seen = try answer(service, "countdown", within: 3) { $0.hasPrefix("Coffee") }
        #expect(seen.hasPrefix("Coffee · starts in 00:"), "a new file, and the earlier event first: \(seen)")

        try "BEGIN:VCALENDAR\r\nthis is not a calendar\r\n".write(toFile: calendar + "/broken.ics", atomically: true, encoding: .utf8)
        let stats = try answer(service, "stats", within: 3) { $0.contains("calendar_problems: 1") }
        #expect(stats.contains("calendar_problems: 1 (") && stats.contains("broken.ics"), "the broken file is named: \(stats)")
        #expect(stats.contains("calendar_events: 2"), "the others keep working: \(stats)")

        try FileManager.default.removeItem(atPath: calendar + "/coffee.ics")
        seen = try answer(service, "countdown", within: 3) { $0.hasPrefix("Retro") }
        #expect(seen.hasPrefix("Retro"), "a removed file's event goes: \(seen)")
        #expect(service.stderrText.contains("broken.ics"), "the log says which file: \(service.stderrText)")
    }

    @Test("schedule lists rooms and events by start with their sources, within HOURS, in every format")
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
        #expect(rows.last.map { [$0[2], $0[3]] } == [calendar + "/review.ics", "Review"], "then the event, with its file: \(lines)")
        #expect(rows.first?[0].hasSuffix("+00:00") == true && rows.first?[1] != "-", "\(lines)")
        #expect(try service.ask("schedule 1").split(separator: "\n").count == 1, "within an hour: the room only")
        #expect(try service.ask("schedule 48").split(separator: "\n").count == 3, "48 hours: the later event too")
        let json = try service.ask("--format=json schedule")
        #expect(json.hasPrefix(#"{"text":""#) && json.contains("Tea Time") && json.contains("Review"), "\(json)")
        #expect(try service.ask("schedule 0").hasPrefix("ERR bad-argument schedule HOURS must be a whole number from 1 to 744"))
        #expect(try service.ask("schedule many").hasPrefix("ERR bad-argument"))
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
        let seen = try answer(service, "countdown", within: 4) { $0.hasPrefix("Synced later") }
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
