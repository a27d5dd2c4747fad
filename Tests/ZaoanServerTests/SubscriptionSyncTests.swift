import Foundation
import Glibc
import Testing

/// A read-only subscription, for real: Python's http.server publishes a holiday calendar as
/// one .ics file on loopback, Debian's vdirsyncer fetches it through its `http` storage with
/// the subscription section of the shipped packaging/integrations/vdirsyncer/config
/// (uncommented, only its `url` changed) into the folder named by zaoan's `calendars`, and
/// zaoan shows the holidays within 2 s of each sync: first as published, then as changed
/// upstream; what is edited or removed in the folder comes back, and the server only ever
/// hears GETs.
@Suite("calendars: a published .ics subscribed through vdirsyncer's http storage")
struct SubscriptionSyncTests {
    /// The published file's name on the server.
    static let published = "holidays.ics"

    @Test("the holidays show after vdirsyncer sync, follow the file upstream, are put back when edited here, and nothing is sent upstream")
    func followsThePublishedFile() throws {
        let tools = try CalDAVSyncTests.tools(["vdirsyncer"])
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let environment = Tool.baseEnvironment(home: try world.makeDirectory("home"))
        let tomorrow = Date().addingTimeInterval(86_400)
        let dayAfter = tomorrow.addingTimeInterval(86_400)
        let root = try world.makeDirectory("published")
        try Self.publish(in: root, [("Unity Day", tomorrow), ("Reformation Day", dayAfter)])
        // Debian's Python (the `python3` first on PATH may be another); -u: its log unbuffered.
        let server = try LoopbackServer(name: "http.server", executable: "/usr/bin/python3", environment: environment, in: world) { port in
            ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root, String(port)]
        }
        defer { server.stop() }

        let sync = try VdirSyncer(executable: tools["vdirsyncer"]!, in: world, environment: environment,
                                  config: try ShippedVdirsyncerConfig().subscription(server.url + "/" + Self.published))
        let folder = sync.folder("holidays")
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(folder)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("countdown").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        // As the config's comment says: `discover holidays` once, answering y for the folder.
        let discovered = try sync.run(["discover", "holidays"], answering: "y\n")
        #expect(FileManager.default.fileExists(atPath: folder), "vdirsyncer discover should create \(folder): \(discovered)")
        var syncs = 0

        var synced = try sync.run(["sync", "holidays"])
        syncs += 1
        var seen = try CalDAVSyncTests.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Unity Day · ") }
        #expect(seen.hasPrefix("Unity Day · starts in "), "tomorrow's holiday counts like a room: \(seen)")
        var rows = try Self.schedule(service)
        #expect(rows.map(\.title) == ["Unity Day", "Reformation Day"], "both holidays, by day: \(rows)")
        #expect(rows.allSatisfy { $0.start.hasSuffix("T00:00:00+00:00") && $0.end.hasSuffix("T00:00:00+00:00") && $0.source == (folder as NSString).lastPathComponent },
                "all-day, from the subscription's folder, under its name (no displayname: the folder's): \(rows)")

        // Changed upstream: one holiday renamed, one added on the day after tomorrow.
        try Self.publish(in: root, [("Day of German Unity", tomorrow), ("Reformation Day", dayAfter), ("Bridge Day", dayAfter)])
        synced = try sync.run(["sync", "holidays"])
        syncs += 1
        seen = try CalDAVSyncTests.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Day of German Unity · ") }
        #expect(seen.hasPrefix("Day of German Unity · starts in "), "the renamed holiday: \(seen)")
        rows = try Self.schedule(service)
        #expect(Set(rows.map(\.title)) == ["Day of German Unity", "Reformation Day", "Bridge Day"] && rows.count == 3,
                "the file as it is now upstream, the old name gone: \(rows)")

        // Edited and removed here: a mirror, put back as the server has it.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }.sorted()
        let contents = try files.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        guard let renamed = zip(files, contents).first(where: { $0.1.contains("SUMMARY:Day of German Unity") })?.0,
              let removed = zip(files, contents).first(where: { $0.1.contains("SUMMARY:Bridge Day") })?.0 else {
            Issue.record("\(folder) should hold one file per holiday: \(zip(files, contents).map { "\($0): \($1)" })")
            return
        }
        try CalendarFeedTests.replace(folder + "/" + renamed, with: contents[files.firstIndex(of: renamed)!]
            .replacingOccurrences(of: "SUMMARY:Day of German Unity", with: "SUMMARY:Edited Here"))
        #expect(unlink(folder + "/" + removed) == 0)
        // (zaoan sees the edit first, so what follows is the sync putting it back.)
        var edited = ""
        let followed = try eventually(timeout: 30, interval: 0.05) {
            edited = try service.ask("countdown")
            return edited.hasPrefix("Edited Here · ")
        }
        #expect(followed, "zaoan should follow the edit in its folder: \(edited)")
        // vdirsyncer 0.19 (partial_sync = "revert", its default) takes note of the change at
        // the first sync and puts the server's copy back at the next.
        try sync.run(["sync", "holidays"])
        synced = try sync.run(["sync", "holidays"])
        syncs += 2
        seen = try CalDAVSyncTests.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Day of German Unity · ") }
        #expect(seen.hasPrefix("Day of German Unity · starts in "), "the edit undone: \(seen)")
        rows = try Self.schedule(service)
        #expect(Set(rows.map(\.title)) == ["Day of German Unity", "Reformation Day", "Bridge Day"] && rows.count == 3,
                "the removed holiday back, the edited one as published: \(rows)")
        let stats = try service.ask("stats")
        #expect(stats.split(separator: "\n").contains("calendar_problems: 0"), "nothing vdirsyncer wrote is a problem: \(stats)")

        // Upstream heard only GETs of the published file, at least one a sync.
        let requests = server.log.split(separator: "\n").compactMap { line in
            line.range(of: #"] ""#).map { String(line[$0.upperBound...]) }
        }
        #expect(requests.count >= syncs && requests.allSatisfy { $0.hasPrefix("GET /\(Self.published) HTTP/1.1\" 200 ") },
                "\(syncs) syncs, only GETs: \(server.log)")
    }

    /// Publishes `holidays` (all-day, each on its day in UTC) as the server's file, the way
    /// a generator does: the whole file at once (written beside it, renamed over it).
    static func publish(in root: String, _ holidays: [(title: String, day: Date)]) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//holidays//EN", "METHOD:PUBLISH",
                     "X-WR-CALNAME:Holidays", "CALSCALE:GREGORIAN"]
        for (title, day) in holidays {
            let date = formatter.string(from: day)
            lines += ["BEGIN:VEVENT", "UID:\(date)-\(title.filter(\.isLetter).lowercased())@holidays.example.org",
                      "DTSTAMP:20261201T000000Z", "DTSTART;VALUE=DATE:\(date)",
                      "DTEND;VALUE=DATE:\(formatter.string(from: day.addingTimeInterval(86_400)))",
                      "SUMMARY:\(title)", "TRANSP:TRANSPARENT", "END:VEVENT"]
        }
        lines += ["END:VCALENDAR", ""]
        try CalendarFeedTests.replace(root + "/" + published, with: lines.joined(separator: "\r\n"))
    }

    /// `schedule 48`, row by row.
    static func schedule(_ service: TestService) throws -> [(start: String, end: String, source: String, title: String)] {
        try service.ask("schedule 48").split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { throw TestFailure("schedule: a row not of four fields: \(line.debugDescription)") }
            return (fields[0], fields[1], fields[2], fields[3])
        }
    }
}
