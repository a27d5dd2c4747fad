import Foundation
import Glibc
import Testing

/// Calendars shared between machines, for real: a CalDAV server (Debian's Radicale, and
/// Debian's xandikos) serves a calendar on loopback, Debian's vdirsyncer syncs it into the
/// vdir folder named by zaoan's `calendars` (with the shipped
/// packaging/integrations/vdirsyncer/config, only its `url` changed), and `countdown` follows
/// what changes on the server within 2 s of each sync: an event appears, moves, and goes.
/// One server at a time: the 2 s are zaoan's, not a race between two servers for the cores.
@Suite("calendars: a CalDAV server synced by vdirsyncer", .serialized)
struct CalDAVSyncTests {
    /// How soon after `vdirsyncer sync` exits the change must show.
    static let followSeconds = 2.0

    /// The tools by path (each is its Debian package's name); throws naming the missing ones.
    static func tools(_ names: [String]) throws -> [String: String] {
        var found: [String: String] = [:]
        var missing: [String] = []
        for name in names {
            if let path = Locations.tool(name) { found[name] = path } else { missing.append(name) }
        }
        guard missing.isEmpty else {
            throw TestFailure("\(missing.joined(separator: ", ")) not found; install the Debian package(s): apt-get install \(missing.joined(separator: " ")) (scripts/test does)")
        }
        return found
    }

    @Test("an event put on the server shows after vdirsyncer sync, follows a move, and goes when deleted",
          arguments: CalDAVSoftware.allCases)
    func followsTheServer(_ software: CalDAVSoftware) throws {
        let tools = try Self.tools([software.tool, "vdirsyncer", "curl"])
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let environment = Tool.baseEnvironment(home: try world.makeDirectory("home"))
        let server = try software.start(executable: tools[software.tool]!, in: world, environment: environment)
        defer { server.stop() }

        // The collection and one event on the server, as another machine would put them.
        let collection = server.calendar
        let http = HTTP(curl: tools["curl"]!, environment: environment, scratch: world, server: server.process)
        try http.expect([201], "MKCALENDAR", collection)
        let standup = CalendarFeedTests.event(uid: "zaoan-caldav-1", title: "Standup", minutes: 30)
        try http.expect([201, 204], "PUT", collection + "zaoan-caldav-1.ics", body: standup)
        // A later event that stays: vdirsyncer refuses to sync a calendar emptied on one side
        // ("was completely emptied", unless --force-delete), so the deletion below leaves one.
        let offsite = CalendarFeedTests.event(uid: "zaoan-caldav-2", title: "Offsite", minutes: 20 * 60)
        try http.expect([201, 204], "PUT", collection + "zaoan-caldav-2.ics", body: offsite)

        // zaoan first, as a user sets it up: the calendar's folder is not there until
        // `vdirsyncer discover` makes it. (Its parent is: zaoan watches the parent of a
        // missing folder, and looks for a missing parent only once a minute.)
        let sync = try VdirSyncer(executable: tools["vdirsyncer"]!, in: world, environment: environment,
                                  config: try ShippedVdirsyncerConfig().account(server.account))
        let folder = sync.folder("work")
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(folder)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("countdown").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        let discovered = try sync.run(["discover"], answering: "y\n")
        #expect(FileManager.default.fileExists(atPath: folder), "vdirsyncer discover should create \(folder): \(discovered)")

        var synced = try sync.run(["sync"])
        var seen = try Self.follow(service, after: synced, folder: folder, server: server.process) { $0.hasPrefix("Standup · starts in 00:2") }
        #expect(seen.hasPrefix("Standup · starts in 00:2"), "the synced event counts like a room: \(seen)")

        // Moved on the server (same UID, 20 minutes earlier, renamed): the old one must go.
        let moved = CalendarFeedTests.event(uid: "zaoan-caldav-1", title: "Planning", minutes: 10)
        try http.expect([201, 204], "PUT", collection + "zaoan-caldav-1.ics", body: moved)
        synced = try sync.run(["sync"])
        seen = try Self.follow(service, after: synced, folder: folder, server: server.process) { $0.hasPrefix("Planning · starts in 00:") }
        #expect(seen.hasPrefix("Planning · starts in 00:09:") || seen.hasPrefix("Planning · starts in 00:10:00"), "the moved event: \(seen)")
        var stats = try service.ask("stats")
        #expect(stats.split(separator: "\n").contains("calendar_events: 2"), "the moved event and Offsite, not the old one too: \(stats)")

        // Deleted on the server: gone from the folder and from the countdown, Offsite next.
        try http.expect([200, 204], "DELETE", collection + "zaoan-caldav-1.ics")
        synced = try sync.run(["sync"])
        seen = try Self.follow(service, after: synced, folder: folder, server: server.process) { $0.hasPrefix("Offsite · starts in ") }
        #expect(seen.hasPrefix("Offsite · starts in "), "the deleted event is gone, the later one next: \(seen)")
        stats = try service.ask("stats")
        #expect(stats.split(separator: "\n").contains("calendar_events: 1"), "only Offsite left: \(stats)")
        #expect(stats.split(separator: "\n").contains("calendar_problems: 0"), "nothing vdirsyncer wrote is a problem: \(stats)")
        let logged = service.stderrText.split(separator: "\n").filter { $0.contains("calendar:") && !$0.contains("does not exist yet") }
        #expect(logged.isEmpty, "no calendar problem logged but the folder missing before discover: \(service.stderrText)")
    }

    /// Asks `countdown` until `condition` holds, for `followSeconds` after `synced` ended (and,
    /// to tell late from never, up to 20 s more); records a failure if it took longer, naming
    /// what the folder and the tools held. Returns the last answer.
    static func follow(_ service: TestService, after synced: ToolResult, folder: String, server: LoopbackServer,
                       sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool) throws -> String {
        let syncEnded = Date()
        var last = try service.ask("countdown")
        while !condition(last), Date().timeIntervalSince(syncEnded) < followSeconds + 20 {
            usleep(50_000)
            last = try service.ask("countdown")
        }
        let took = Date().timeIntervalSince(syncEnded)
        print(String(format: "countdown followed vdirsyncer sync (%@) in %.2f s", server.name, took))
        if !condition(last) || took > followSeconds {
            let stats = try service.ask("stats")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
            Issue.record("""
                countdown did not follow within \(followSeconds) s of vdirsyncer sync \
                (\(condition(last) ? String(format: "took %.2f s", took) : "never, within \(Int(followSeconds) + 20) s")); \
                last answer \(last.debugDescription); stats: \(stats); \
                \(folder) holds \(files); sync: \(synced); zaoan stderr: \(service.stderrText.suffix(2000)); \
                \(server.name) log: \(server.log.suffix(2000))
                """, sourceLocation: sourceLocation)
        }
        return last
    }
}
