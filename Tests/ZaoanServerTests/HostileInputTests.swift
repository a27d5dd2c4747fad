import Foundation
import Glibc
import Testing

/// Hostile files, options and log readers: none may crash the service, stall its loop or
/// make it act on another user's behalf.
@Suite("Hostile neighbours: files, options and logs")
struct HostileInputTests {
    @Test("a state file with times out of range: the bad rooms are dropped and named, the rest kept, nothing traps")
    func outOfRangeState() throws {
        var configuration = TestService.Configuration()
        configuration.beforeStart = { directory, _ in
            try directory.makeDirectory("state/zaoan")
            try directory.write("state/zaoan/state.json", """
                {"version": 1, "rooms": [
                  {"id": "huge", "title": "a", "start": 1e300},
                  {"id": "int64", "title": "b", "start": 9.3e18},
                  {"id": "negative", "title": "c", "start": -1e300},
                  {"id": "endless", "title": "d", "start": 1800000000, "end": 1e300},
                  {"id": "backwards", "title": "e", "start": 1800000000, "end": 1700000000},
                  {"id": "bad id!", "title": "f", "start": 1800000000},
                  {"id": "viewers", "title": "g", "start": 1800000000, "viewers": 1e300},
                  "not a room",
                  {"id": "good", "title": "夜读", "start": 1800000000}
                ]}
                """)
        }
        let service = try TestService.start(configuration)
        for request in ["countdown", "status", "ticker", "countdown good", "live show good", "--format=json countdown"] {
            let answer = try service.ask(request)
            #expect(!answer.hasPrefix("ERR"), "\(request): \(answer)")
        }
        let list = try service.ask("live list")
        #expect(list.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) } == ["good"], "\(list)")
        for id in ["huge", "int64", "negative", "endless", "backwards", "bad id", "viewers", "room 8"] {
            #expect(service.stderrText.contains(id), "the log names \(id): \(service.stderrText)")
        }
        #expect(service.stderrText.contains("1970-01-01 to 9999-12-31 UTC"), "\(service.stderrText)")
        try service.stop()
    }

    @Test("option values out of range or empty are refused with exit 64",
          arguments: [
            ["serve", "--exit-idle-time", "inf"], ["serve", "--exit-idle-time", "1e400"], ["serve", "--exit-idle-time", "1e19"],
            ["serve", "--exit-idle-time", "nan"], ["serve", "--exit-idle-time", "-5"], ["serve", "--exit-idle-time=400d"],
            ["serve", "--exit-idle-time", "99999999999999999999999h"],
            ["serve", "--socket", ""], ["serve", "--socket="], ["serve", "--config", ""], ["serve", "--city", ""],
            ["ask", "--socket", "", "ping"], ["serve", "--city", "a\nb"],
          ])
    func badOptionValues(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try Tool.run(Locations.zaoan, arguments, environment: try TestService.isolatedEnvironment(in: directory),
                                  timeout: 10, scratch: directory)
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.errorOutput.hasPrefix("zaoan: --"), "\(result)")
    }

    @Test("a state directory others can write to, or that is not ours, is refused at start",
          arguments: ["world-writable", "group-writable", "someone else's"])
    func unsafeStateDirectory(kind: String) throws {
        guard kind != "someone else's" || geteuid() == 0 else {
            try Test.cancel("needs root to give the directory to another user")
        }
        var configuration = TestService.Configuration()
        configuration.waitUntilReady = false
        configuration.beforeStart = { directory, _ in
            let state = try directory.makeDirectory("state/zaoan")
            switch kind {
            case "world-writable": chmod(state, 0o777)
            case "group-writable": chmod(state, 0o770)
            default: chown(state, 65534, 65534)
            }
        }
        let service = try TestService.start(configuration)
        try #require(service.waitForExit(timeout: 10), "zaoan should refuse to start; stderr: \(service.stderrText)")
        #expect(service.process.terminationStatus == 1)
        #expect(service.stderrText.contains("must belong to uid \(geteuid()) and be writable by no one else"), "\(service.stderrText)")
    }

    @Test("a 1 GiB sparse config file is refused at once, without reading it", Sanitizer.skipped("it bounds the resident memory, which the sanitizer's shadow memory and quarantine inflate"))
    func sparseConfigFile() throws {
        let service = try TestService.start(config: "{}")
        // Reading the file would be allocated memory: RssAnon (VmRSS also counts the program's
        // own code pages, which come back by megabytes as the reload runs code not run yet).
        let before = try #require(service.anonymousResidentBytes)
        let sparse = open(service.configPath, O_WRONLY | O_TRUNC)
        #expect(ftruncate(sparse, 1 << 30) == 0)
        close(sparse)
        let started = Date()
        let answer = try service.ask("reload")
        #expect(answer.hasPrefix("ERR bad-config") && answer.contains("larger than the 1 MiB"), "\(answer)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try #require(service.anonymousResidentBytes) - before < 8 << 20, "reading it would cost a gigabyte")
        try service.stop()
    }

    /// `serve` once exited on it too; since issue 18 a config problem never stops the
    /// service: it serves with the defaults at once (it never waits on the FIFO) and says
    /// why, in its log and in `stats`. check-config and the bar still refuse it.
    @Test("a FIFO as the config file is refused at once, without opening it for long")
    func fifoConfigFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.file("config.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let environment = try TestService.isolatedEnvironment(in: directory)
        for arguments in [["check-config", fifo], ["bar", "--socket", directory.file("s"), "--config", fifo]] {
            let result = try Tool.run(Locations.zaoan, arguments, environment: environment, timeout: 10, scratch: directory)
            #expect(!result.timedOut && result.status != 0 && result.errorOutput.contains("is a FIFO, not a file"), "\(arguments): \(result)")
        }
        // The service's own config file ($XDG_CONFIG_HOME/zaoan/config.json) a FIFO.
        var configuration = TestService.Configuration()
        configuration.beforeStart = { directory, _ in
            _ = try directory.makeDirectory("config/zaoan")
            #expect(mkfifo(directory.file("config/zaoan/config.json"), 0o600) == 0)
        }
        let service = try TestService.start(configuration)
        let stats = try service.ask("stats")
        #expect(stats.contains("config_problems: 1\n") && stats.contains("is a FIFO, not a file") && stats.contains("(using the defaults for every key)"), "\(stats)")
        #expect(service.stderrText.contains("is a FIFO, not a file"), "\(service.stderrText)")
        try service.stop()
        // A 1 GiB sparse file: the bar (which reads it without Foundation) refuses it unread too.
        let sparse = directory.file("sparse.json")
        let fd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let bar = try Tool.run(Locations.zaoan, ["bar", "--socket", directory.file("s"), "--config", sparse],
                               environment: environment, timeout: 10, scratch: directory)
        #expect(!bar.timedOut && bar.status == 78 && bar.errorOutput.contains("larger than the 1 MiB"), "\(bar)")
    }

    @Test("greeting rows: only HH:MM, each once; an unclosed { in status_template is written once",
          arguments: [
            (#"{"greetings": {"5:00": "a"}}"#, "greetings.5:00"),
            (#"{"greetings": {"+05:00": "a"}}"#, "greetings.+05:00"),
            (#"{"greetings": {"05:00": "a", "05:00": "b"}}"#, "greetings.05:00"),
            (#"{"greetings": {"05:00": "a", "0\u0035:00": "b"}}"#, "greetings.05:00"),
            (#"{"language": "zh", "language": "en"}"#, "language"),
          ])
    func configRows(json: String, key: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("c.json", json)
        let result = try Tool.run(Locations.zaoan, ["check-config", directory.file("c.json")],
                                  environment: try TestService.isolatedEnvironment(in: directory), timeout: 10, scratch: directory)
        #expect(result.status == 1 && result.errorOutput.contains("config key '\(key)'"), "\(result)")
    }

    /// `zaoan serve` with its stderr a pipe the test holds (and may stop reading, or close).
    private func serveWithStderrPipe(socket: String, directory: TemporaryDirectory, verbose: Bool = false) throws -> (Process, Pipe) {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Locations.zaoan)
        process.arguments = ["serve", "--socket", socket] + (verbose ? ["--verbose"] : [])
        process.environment = try TestService.isolatedEnvironment(in: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = pipe
        try process.run()
        return (process, pipe)
    }

    @Test("stderr a pipe whose reader is gone: logging does not kill the service (SIGPIPE)")
    func brokenLogPipe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("s")
        let (process, pipe) = try serveWithStderrPipe(socket: socket, directory: directory)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The start line tells us it is up; then nobody reads stderr any more.
        _ = pipe.fileHandleForReading.availableData
        try pipe.fileHandleForReading.close()
        #expect(eventually(timeout: 10) { (try? ask(socket, "ping", timeout: 1)) == "pong\n" })
        try directory.write("config/zaoan/config.json", "{")  // reload logs an error
        #expect(try ask(socket, "reload").hasPrefix("ERR bad-config"))
        #expect(process.isRunning, "zaoan died of SIGPIPE: \(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus)")
        #expect(try ask(socket, "ping") == "pong\n")
        kill(process.processIdentifier, SIGTERM)
        #expect(eventually(timeout: 5) { !process.isRunning })
    }

    @Test("stderr a pipe nobody reads: a line per request (--verbose) never stalls the loop; dropped lines are counted")
    func unreadLogPipe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("s")
        // The pipe is never read: it fills after 64 KiB.
        let (process, pipe) = try serveWithStderrPipe(socket: socket, directory: directory, verbose: true)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        _ = pipe
        #expect(eventually(timeout: 10) { (try? ask(socket, "ping", timeout: 1)) == "pong\n" })
        let client = try RawClient(path: socket, timeout: 10)
        try client.send("session\n" + String(repeating: "ping\n", count: 5_000) + "quit\n")
        let answers = try client.readToEndText().split(separator: "\n")
        #expect(answers.count == 5_002 && answers.dropFirst().dropLast().allSatisfy { $0 == "pong" }, "\(answers.count) answers")
        let stats = try ask(socket, "stats")
        let dropped = stats.split(separator: "\n").first { $0.hasPrefix("log_lines_dropped: ") }.flatMap { Int($0.dropFirst(19)) } ?? 0
        #expect(dropped > 1_000, "about 5,000 debug lines cannot all fit in a 64 KiB pipe: \(stats)")
        kill(process.processIdentifier, SIGTERM)
        try #require(eventually(timeout: 5) { !process.isRunning })
        #expect(process.terminationStatus == 0)
    }

    @Test("a socket path that another user's server holds is not taken over: only ECONNREFUSED means stale",
          .enabled(if: Neighbour.unavailable == nil, "\(Neighbour.unavailable ?? "")"))
    func foreignSocketIsNotStale() throws {
        let service = try TestService.start()
        chmod(service.directory.path, 0o777)  // anyone may create and remove files there
        let result = try Tool.run(Locations.tool("setpriv")!,
                                  ["--reuid=65534", "--regid=65534", "--clear-groups", Locations.zaoan, "serve", "--socket", service.socketPath],
                                  environment: Tool.baseEnvironment(home: "/nonexistent").merging(["XDG_STATE_HOME": "/tmp/zaoan-test-nobody-state"]) { $1 },
                                  timeout: 10, scratch: service.directory)
        #expect(result.status == 1 && result.errorOutput.contains("could not be checked"), "\(result)")
        #expect(try service.ask("ping") == "pong\n", "the owner's server keeps its socket")
        chmod(service.directory.path, 0o700)
        try service.stop()
    }
}
