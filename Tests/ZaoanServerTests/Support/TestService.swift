import Foundation
import Glibc
import Testing

/// One `zaoan serve` of the real binary, in its own temporary world: HOME,
/// XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_RUNTIME_DIR all point into a fresh directory
/// under /tmp, so a test never reads the user's config or touches their socket, and tests
/// running in parallel never meet.
///
///     let service = try TestService.start(arguments: ["--language", "zh"])
///     #expect(try ask(service.socketPath, "ping") == "pong\n")
///     try service.stop()   // SIGTERM; expects exit 0 and the socket file gone
final class TestService: @unchecked Sendable {
    struct Configuration {
        /// Extra arguments to `zaoan serve`.
        var arguments: [String] = []
        /// Written to $XDG_CONFIG_HOME/zaoan/config.json before start.
        var config: String?
        /// Where to listen.
        var socket = Socket.ownDirectory
        enum Socket {
            /// `--socket DIR/s` in the service's own directory.
            case ownDirectory
            /// `--socket PATH`.
            case path(String)
            /// No `--socket`: zaoan resolves its own path, here $XDG_RUNTIME_DIR/zaoan.sock.
            case resolvedByZaoan
        }
        /// Runs after the directory is made and before zaoan starts, with the socket path.
        var beforeStart: ((TemporaryDirectory, String) throws -> Void)?
        /// Run zaoan under `faketime TIME` (Debian's faketime): the clock starts at TIME, read
        /// in the zone of `TZ`, and keeps running.
        var fakeTime: String?
        /// Run zaoan under this command, e.g. `["strace", "-f", "-o", LOG]`: the wrapper
        /// starts zaoan as its child (like faketime), or becomes it (`sh -c '… exec "$@"' sh`),
        /// and signals go to zaoan.
        var wrapper: [String]?
        /// Variables added to (or replacing) the test environment.
        var environment: [String: String] = [:]
        /// Runs zaoan under systemd-socket-activate listening on these paths (relative
        /// to the service directory), with these fd names.
        var activation: (paths: [String], names: [String]?)?
        /// Wait until `ping` is answered on `socketPath` before returning.
        var waitUntilReady = true
        /// The `zaoan` to run (`zaoan-server` beside it): the build under test unless a test
        /// measures the one users get (`Locations.releaseZaoan`).
        var binary = Locations.zaoan
    }

    let directory: TemporaryDirectory
    let socketPath: String
    let environment: [String: String]
    let process: Process
    let stderrPath: String
    private var stopped = false
    /// zaoan runs as the child of a wrapper (faketime) rather than as `process` itself.
    private var wrapped = false
    /// The wrapper is `faketime`, which keeps a semaphore and shared memory in /dev/shm.
    private var faketimeWrapped = false
    private var cachedServicePID: pid_t?

    var configPath: String { environment["XDG_CONFIG_HOME"]! + "/zaoan/config.json" }
    var runtimeDirectory: String { environment["XDG_RUNTIME_DIR"]! }
    /// The pid of zaoan itself: `process`, or under faketime, the wrapper's child running
    /// zaoan (not the `date` the wrapper runs first to read the time), or the wrapper once
    /// it has exec'd zaoan; -1 if none shows up.
    var pid: pid_t {
        guard wrapped else { return process.processIdentifier }
        if let cachedServicePID { return cachedServicePID }
        let wrapper = process.processIdentifier
        var child: pid_t = -1
        let runsZaoan = { (candidate: pid_t) -> Bool in
            let command = FileManager.default.contents(atPath: "/proc/\(candidate)/cmdline") ?? Data()
            return String(decoding: command.prefix(while: { $0 != 0 }), as: UTF8.self) == Locations.zaoan
        }
        _ = eventually(timeout: 5) {
            if runsZaoan(wrapper) {
                child = wrapper
                return true
            }
            let children = (try? String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8)) ?? ""
            for candidate in children.split(separator: " ").compactMap({ pid_t($0) }) where runsZaoan(candidate) {
                child = candidate
                return true
            }
            return !process.isRunning
        }
        if child > 0 { cachedServicePID = child }
        return child
    }
    var isRunning: Bool { process.isRunning }
    var stderrText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    static func start(arguments: [String] = [], config: String? = nil) throws -> TestService {
        var configuration = Configuration()
        configuration.arguments = arguments
        configuration.config = config
        return try TestService(configuration)
    }

    static func start(_ configuration: Configuration) throws -> TestService {
        try TestService(configuration)
    }

    /// An environment of its own for anything the test runs beside the service (`zaoan ask`).
    static func isolatedEnvironment(in directory: TemporaryDirectory) throws -> [String: String] {
        var environment = Tool.baseEnvironment(home: try directory.makeDirectory("home"))
        environment["XDG_CONFIG_HOME"] = try directory.makeDirectory("config")
        environment["XDG_STATE_HOME"] = try directory.makeDirectory("state")
        environment["XDG_RUNTIME_DIR"] = try directory.makeDirectory("run")
        return environment
    }

    private init(_ configuration: Configuration) throws {
        let zaoan = configuration.binary
        guard FileManager.default.isExecutableFile(atPath: zaoan) else {
            throw TestFailure("no zaoan binary at \(zaoan); run swift build --build-tests or set ZAOAN_BIN")
        }
        directory = try TemporaryDirectory()
        var environment = try Self.isolatedEnvironment(in: directory)
        if let config = configuration.config {
            try directory.write("config/zaoan/config.json", config)
        }
        environment.merge(configuration.environment) { $1 }
        self.environment = environment

        var executable = zaoan
        var arguments = ["serve"]
        if configuration.fakeTime != nil, let sanitizer = Sanitizer.active {
            // libfaketime's LD_PRELOAD and the sanitizer runtime both intercept the clock.
            try Test.cancel("skipped under \(sanitizer) sanitizer: faketime's LD_PRELOAD and the sanitizer runtime do not mix")
        }
        if let fakeTime = configuration.fakeTime {
            // The wrapper rather than LD_PRELOAD=libfaketime.so by hand: preloaded without the
            // wrapper's FAKETIME_SHARED, libfaketime 0.9.10 leaves a Swift program with an
            // empty CommandLine.arguments. The wrapper forks, so signals go to its child.
            guard let faketime = Locations.tool("faketime") else {
                throw TestFailure("faketime not found; install the Debian package faketime")
            }
            executable = faketime
            arguments = [fakeTime, zaoan, "serve"]
            wrapped = true
            faketimeWrapped = true
        } else if let wrapper = configuration.wrapper, let first = wrapper.first {
            guard let tool = first.hasPrefix("/") ? first : Locations.tool(first) else {
                throw TestFailure("\(first) not found; scripts/test installs what the tests use")
            }
            executable = tool
            arguments = Array(wrapper.dropFirst()) + [zaoan, "serve"]
            wrapped = true
            faketimeWrapped = (tool as NSString).lastPathComponent == "faketime"
        }
        if let activation = configuration.activation {
            guard !wrapped else { throw TestFailure("fakeTime and activation cannot be combined") }
            guard let activate = Locations.tool("systemd-socket-activate") else {
                throw TestFailure("systemd-socket-activate not found; install the Debian package systemd")
            }
            let paths = activation.paths.map(directory.file)
            socketPath = paths.last!
            executable = activate
            arguments = paths.map { "--listen=" + $0 }
            if let names = activation.names { arguments.append("--fdname=" + names.joined(separator: ":")) }
            // systemd-socket-activate passes on only a few variables; hand over the rest.
            for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name != "PATH" {
                arguments.append("--setenv=\(name)=\(value)")
            }
            arguments += [zaoan, "serve"]
        } else {
            switch configuration.socket {
            case .ownDirectory:
                socketPath = directory.file("s")
                arguments += ["--socket", socketPath]
            case .path(let path):
                socketPath = path
                arguments += ["--socket", socketPath]
            case .resolvedByZaoan:
                socketPath = environment["XDG_RUNTIME_DIR"]! + "/zaoan.sock"
            }
        }
        arguments += configuration.arguments
        try configuration.beforeStart?(directory, socketPath)

        stderrPath = directory.file("stderr.log")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let log = try Process.outputFile(stderrPath)
        process.standardOutput = log
        process.standardError = log
        if faketimeWrapped { FaketimeFiles.removeStale() }  // no new wrapper meets a dead one's pair
        try process.run(handingOver: [log])

        if wrapped { _ = pid }  // note the child while it is there
        if configuration.waitUntilReady {
            try waitUntilAnswering()
            // The service answers before its calendars are read (they are read off the
            // loop): a test that expects their events at start waits for the first reading.
            if configuration.config?.contains(#""calendars""#) == true { try waitUntilCalendarsRead() }
        }
    }

    /// Waits until `stats` says no calendar is being read.
    func waitUntilCalendarsRead(timeout: Double = 30) throws {
        var stats = ""
        guard eventually(timeout: timeout, interval: 0.02, { stats = (try? ask("stats")) ?? ""; return stats.contains(", 0 reading") }) else {
            throw TestFailure("the calendars were still being read after \(timeout) s: \(stats)")
        }
    }

    deinit {
        if process.isRunning { kill() }
        if process.processIdentifier > 0 { process.waitUntilExit() }  // lets Foundation release the Process
        directory.remove()
    }

    /// Ends zaoan with SIGKILL. A wrapper is ended through its children, so that it exits by
    /// itself (faketime then removes its semaphore and shared memory); one that is still
    /// there after that is killed too, and what faketime kept in /dev/shm is removed for it.
    private func kill() {
        let wrapper = process.processIdentifier
        if wrapped {
            let children = (try? String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ pid_t($0) }) { Glibc.kill(child, SIGKILL) }
            _ = waitForExit(timeout: 5)
        }
        guard process.isRunning else { return }
        Glibc.kill(wrapper, SIGKILL)
        if waitForExit(timeout: 5), faketimeWrapped { FaketimeFiles.remove(of: wrapper) }
    }

    /// Waits until the socket answers `ping` with `pong`.
    func waitUntilAnswering(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var lastProblem = "nothing tried"
        while Date() < deadline {
            guard process.isRunning else {
                throw TestFailure("zaoan exited with status \(process.terminationStatus) before answering; stderr: \(stderrText)")
            }
            if FileManager.default.fileExists(atPath: socketPath) {
                do {
                    let answer = try ZaoanServerTests.ask(socketPath, "ping", timeout: 2)
                    if answer == "pong\n" { return }
                    lastProblem = "ping answered \(answer.debugDescription)"
                } catch {
                    lastProblem = "\(error)"
                }
            } else {
                lastProblem = "no socket file at \(socketPath)"
            }
            usleep(10_000)
        }
        throw TestFailure("zaoan did not answer ping on \(socketPath) within \(timeout) s (\(lastProblem)); stderr: \(stderrText)")
    }

    func signal(_ number: Int32) {
        guard process.isRunning else { return }  // never signal a pid that may be reused
        let target = pid
        if target > 0 { Glibc.kill(target, number) }
    }

    /// Waits for the process to exit; returns false if it is still running after `timeout`.
    func waitForExit(timeout: Double = 5) -> Bool {
        eventually(timeout: timeout) { !process.isRunning }
    }

    /// SIGTERM, then expects a clean exit (status 0) within 5 s and, when zaoan bound the
    /// socket itself, the socket file removed.
    func stop(expectSocketRemoved: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard !stopped else { return }
        stopped = true
        signal(SIGTERM)
        guard waitForExit(timeout: 5) else {
            kill()
            throw TestFailure("zaoan did not exit within 5 s of SIGTERM; stderr: \(stderrText)")
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "zaoan should exit 0 on SIGTERM; got \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus); stderr: \(stderrText)",
                sourceLocation: sourceLocation)
        if faketimeWrapped {
            #expect(FaketimeFiles.present(of: process.processIdentifier).isEmpty,
                    "faketime left its semaphore and shared memory behind", sourceLocation: sourceLocation)
        }
        if expectSocketRemoved {
            #expect(!FileManager.default.fileExists(atPath: socketPath),
                    "zaoan should remove the socket it created (\(socketPath)) on exit", sourceLocation: sourceLocation)
        }
    }

    /// Runs the `zaoan` CLI with this service's environment.
    func zaoan(_ arguments: [String], timeout: Double = 10) throws -> ToolResult {
        try Tool.run(Locations.zaoan, arguments, environment: environment, timeout: timeout, scratch: directory)
    }

    /// Runs another tool with this service's environment.
    func run(_ executable: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 10) throws -> ToolResult {
        try Tool.run(executable, arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment,
                     timeout: timeout, scratch: directory)
    }
}
