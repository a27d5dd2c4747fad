import Foundation
import Glibc
import Testing

/// Calendars shared between machines, for real: Debian's Radicale serves a CalDAV calendar on
/// loopback, Debian's vdirsyncer syncs it into the vdir folder named by zaoan's `calendars`
/// (with the shipped packaging/integrations/vdirsyncer/config), and `countdown` follows what
/// changes on the server within 2 s of each sync: an event appears, moves, and goes.
@Suite("calendars: a CalDAV server synced by vdirsyncer")
struct CalDAVSyncTests {
    /// How soon after `vdirsyncer sync` exits the change must show.
    static let followSeconds = 2.0

    /// The Debian package of each tool the test drives.
    static let packages = ["radicale": "radicale", "vdirsyncer": "vdirsyncer", "curl": "curl"]

    /// The tools by path; throws naming the Debian packages that are missing.
    static func tools() throws -> [String: String] {
        var found: [String: String] = [:]
        var missing: [String] = []
        for (tool, package) in packages.sorted(by: { $0.key < $1.key }) {
            if let path = Locations.tool(tool) { found[tool] = path } else { missing.append(package) }
        }
        guard missing.isEmpty else {
            throw TestFailure("\(missing.joined(separator: ", ")) not found; install the Debian package(s): apt-get install \(missing.joined(separator: " ")) (scripts/test does)")
        }
        return found
    }

    @Test("an event put on Radicale shows after vdirsyncer sync, follows a move, and goes when deleted")
    func followsTheServer() throws {
        let tools = try Self.tools()
        let world = try TemporaryDirectory()
        defer { world.remove() }
        let environment = Tool.baseEnvironment(home: try world.makeDirectory("home"))
        let server = try Radicale(executable: tools["radicale"]!, in: world, environment: environment)
        defer { server.stop() }

        // The collection and one event on the server, as another machine would put them.
        let collection = server.url + "/alice/work/"
        let http = HTTP(curl: tools["curl"]!, environment: environment, scratch: world, server: server)
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
                                  account: server.url + "/alice/", password: "secret")
        let folder = sync.folder("work")
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(folder)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("countdown").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        let discovered = try sync.run(["discover"], answering: "y\n")
        #expect(FileManager.default.fileExists(atPath: folder), "vdirsyncer discover should create \(folder): \(discovered)")

        var synced = try sync.run(["sync"])
        var seen = try Self.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Standup · starts in 00:2") }
        #expect(seen.hasPrefix("Standup · starts in 00:2"), "the synced event counts like a room: \(seen)")

        // Moved on the server (same UID, 20 minutes earlier, renamed): the old one must go.
        let moved = CalendarFeedTests.event(uid: "zaoan-caldav-1", title: "Planning", minutes: 10)
        try http.expect([201, 204], "PUT", collection + "zaoan-caldav-1.ics", body: moved)
        synced = try sync.run(["sync"])
        seen = try Self.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Planning · starts in 00:") }
        #expect(seen.hasPrefix("Planning · starts in 00:09:") || seen.hasPrefix("Planning · starts in 00:10:00"), "the moved event: \(seen)")
        var stats = try service.ask("stats")
        #expect(stats.split(separator: "\n").contains("calendar_events: 2"), "the moved event and Offsite, not the old one too: \(stats)")

        // Deleted on the server: gone from the folder and from the countdown, Offsite next.
        try http.expect([200, 204], "DELETE", collection + "zaoan-caldav-1.ics")
        synced = try sync.run(["sync"])
        seen = try Self.follow(service, after: synced, folder: folder, server: server) { $0.hasPrefix("Offsite · starts in ") }
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
    static func follow(_ service: TestService, after synced: ToolResult, folder: String, server: Radicale,
                       sourceLocation: SourceLocation = #_sourceLocation, until condition: (String) -> Bool) throws -> String {
        let syncEnded = Date()
        var last = try service.ask("countdown")
        while !condition(last), Date().timeIntervalSince(syncEnded) < followSeconds + 20 {
            usleep(50_000)
            last = try service.ask("countdown")
        }
        let took = Date().timeIntervalSince(syncEnded)
        if !condition(last) || took > followSeconds {
            let stats = try service.ask("stats")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
            Issue.record("""
                countdown did not follow within \(followSeconds) s of vdirsyncer sync \
                (\(condition(last) ? String(format: "took %.2f s", took) : "never, within \(Int(followSeconds) + 20) s")); \
                last answer \(last.debugDescription); stats: \(stats); \
                \(folder) holds \(files); sync: \(synced); zaoan stderr: \(service.stderrText.suffix(2000)); \
                radicale log: \(server.log.suffix(2000))
                """, sourceLocation: sourceLocation)
        }
        return last
    }
}

/// Debian's Radicale 3 on a free loopback port, with its own config and storage in the test's
/// directory (no authentication: any user name and password is accepted, and a user owns
/// the collections under `/USER/`). Never the system's radicale service or its port.
final class Radicale {
    let process = Process()
    let port: UInt16
    let logPath: String
    var url: String { "http://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    init(executable: String, in world: TemporaryDirectory, environment: [String: String], timeout: Double = 60) throws {
        port = try Self.freePort()
        logPath = world.file("radicale.log")
        let storage = try world.makeDirectory("radicale-storage")
        let config = world.file("radicale.conf")
        try world.write("radicale.conf", """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = none
            [rights]
            type = owner_only
            [storage]
            filesystem_folder = \(storage)
            [web]
            type = none
            [logging]
            level = info
            mask_passwords = True

            """)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        // --config replaces the default list (/etc/radicale/config, ~/.config/radicale/config).
        process.arguments = ["--config", config]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: logPath)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        try process.run()
        let listening = eventually(timeout: timeout, interval: 0.1) { !process.isRunning || Self.accepts(port) }
        guard listening, process.isRunning else {
            stop()
            throw TestFailure("radicale did not listen on 127.0.0.1:\(port) within \(timeout) s (\(process.isRunning ? "still running" : "exited \(process.terminationStatus)")); log: \(log)")
        }
    }

    /// SIGTERM, then SIGKILL if it is still there after 10 s.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !eventually(timeout: 10, interval: 0.05, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
            _ = eventually(timeout: 10) { !process.isRunning }
        }
    }

    deinit { stop() }

    /// A port the kernel just handed out on 127.0.0.1 (bound to 0, read back, released).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("binding a free port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// CalDAV requests through curl, as user `alice`.
struct HTTP {
    let curl: String
    let environment: [String: String]
    let scratch: TemporaryDirectory
    let server: Radicale

    /// Sends `method` to `url` (with an iCalendar `body`) and throws unless the status is one of `statuses`.
    func expect(_ statuses: Set<Int>, _ method: String, _ url: String, body: String? = nil) throws {
        var arguments = ["--silent", "--show-error", "--max-time", "30", "--user", "alice:secret", "--request", method,
                         "--output", "/dev/stderr", "--write-out", "%{http_code}"]
        if body != nil { arguments += ["--header", "Content-Type: text/calendar; charset=utf-8", "--data-binary", "@-"] }
        let result = try Tool.run(curl, arguments + [url], stdin: body.map { Data($0.utf8) }, environment: environment,
                                  timeout: 40, scratch: scratch)
        guard result.status == 0, let code = Int(result.output), statuses.contains(code) else {
            throw TestFailure("curl \(method) \(url) should answer \(statuses.sorted()): \(result); radicale log: \(server.log.suffix(2000))")
        }
    }
}

/// Debian's vdirsyncer running the shipped packaging/integrations/vdirsyncer/config as a user
/// would, with HOME in the test's directory: only its `url` changed to the test's server.
/// Everything else is as shipped: the password read from ~/.config/vdirsyncer/caldav-password,
/// every calendar of the account (`collections = ["from a"]`) synced into
/// ~/.local/share/calendars/NAME/, the status under ~/.local/share/vdirsyncer/.
struct VdirSyncer {
    static let shipped = Locations.packageRoot + "/packaging/integrations/vdirsyncer/config"
    static let placeholderURL = #"url = "https://cal.example.org/alice/""#

    let executable: String
    let environment: [String: String]
    let scratch: TemporaryDirectory
    let config: String
    /// Where the shipped config puts the calendar called `name`.
    func folder(_ name: String) -> String { environment["HOME"]! + "/.local/share/calendars/" + name }

    init(executable: String, in world: TemporaryDirectory, environment: [String: String], account: String, password: String) throws {
        self.executable = executable
        self.environment = environment
        scratch = world
        let shipped = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.filter({ $0 == Self.placeholderURL }).count == 1 else {
            throw TestFailure("\(Self.shipped) should hold the line \(Self.placeholderURL) once; the test puts its server there")
        }
        config = world.file("vdirsyncer.conf")
        try world.write("vdirsyncer.conf", lines.map { $0 == Self.placeholderURL ? #"url = "\#(account)""# : String($0) }
            .joined(separator: "\n"))
        let home = environment["HOME"]!
        try world.write(String(home.dropFirst(world.path.count + 1)) + "/.config/vdirsyncer/caldav-password", password + "\n")
    }

    /// `vdirsyncer -c CONFIG ARGUMENTS...`, answering its prompts with `answering`; throws
    /// with its output unless it exits 0.
    @discardableResult
    func run(_ arguments: [String], answering: String = "") throws -> ToolResult {
        let result = try Tool.run(executable, ["-c", config] + arguments,
                                  stdin: Data(String(repeating: answering, count: 20).utf8), environment: environment,
                                  timeout: 120, scratch: scratch)
        guard result.status == 0, !result.timedOut else {
            throw TestFailure("vdirsyncer \(arguments.joined(separator: " ")) failed: \(result)")
        }
        return result
    }
}
