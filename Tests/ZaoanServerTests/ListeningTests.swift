import Foundation
import Glibc
import Testing

@Suite("Binding, socket activation and service notification")
struct ListeningTests {
    @Test("own-bind mode: socket mode 0600, the path is printed, the file is removed on SIGTERM, the stop line counts in English")
    func ownBind() throws {
        let service = try TestService.start()  // which asks one `ping` to see the service ready
        var info = stat()
        try #require(lstat(service.socketPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600, "socket mode is \(String(info.st_mode & 0o777, radix: 8))")
        #expect(service.stderrText.contains(service.socketPath), "serve should say where it listens: \(service.stderrText)")
        try service.stop()  // checks the file is gone
        #expect(service.stderrText.contains("answered 1 request\n"), "one request, not `1 requests`: \(service.stderrText)")
    }

    @Test("with no --socket it listens on $XDG_RUNTIME_DIR/zaoan.sock, and zaoan ask finds it there")
    func defaultPath() throws {
        var configuration = TestService.Configuration()
        configuration.socket = .resolvedByZaoan
        let service = try TestService.start(configuration)
        #expect(service.socketPath == service.runtimeDirectory + "/zaoan.sock")
        #expect(service.stderrText.contains(service.socketPath), "\(service.stderrText)")
        let asked = try service.zaoan(["ask", "ping"])
        #expect(asked.status == 0 && asked.output == "pong\n", "\(asked)")
        try service.stop()
    }

    @Test("a stale socket file (bound, nobody listening) is replaced")
    func staleSocketFromBind() throws {
        var configuration = TestService.Configuration()
        // Before zaoan starts, leave a socket file at its path the way a dead process does:
        // bound, then closed, with nobody listening.
        configuration.beforeStart = { _, path in
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
            defer { Glibc.close(fd) }
            guard try withUnixAddress(path, { bind(fd, $0, $1) }) == 0 else {
                throw TestFailure("bind \(path): \(String(cString: strerror(errno)))")
            }
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
                throw TestFailure("no stale socket file at \(path)")
            }
        }
        let service = try TestService.start(configuration)  // waits for ping on that path
        #expect(try service.ask("duration 5") == "00:05\n")
        try service.stop()
    }

    @Test("the socket of a SIGKILLed server is replaced by the next one")
    func staleSocketFromKilledServer() throws {
        let first = try TestService.start()
        first.signal(SIGKILL)
        #expect(first.waitForExit())
        #expect(FileManager.default.fileExists(atPath: first.socketPath), "a killed server cannot remove its socket")

        var configuration = TestService.Configuration()
        configuration.socket = .path(first.socketPath)
        let second = try TestService.start(configuration)
        #expect(try second.ask("ping") == "pong\n")
        try second.stop()
    }

    @Test("a live server's socket is refused with a clear error; the first server keeps answering")
    func liveSocketRefused() throws {
        let first = try TestService.start()
        let second = try first.zaoan(["serve", "--socket", first.socketPath], timeout: 5)
        #expect(!second.timedOut, "the second server should refuse and exit, not serve: \(second)")
        #expect(second.status != 0, "\(second)")
        #expect(second.errorOutput.contains(first.socketPath), "the error should name the socket: \(second)")
        #expect(second.errorOutput.lowercased().contains("already"), "the error should say a server is already there: \(second)")
        #expect(FileManager.default.fileExists(atPath: first.socketPath), "the refused server removed the live socket")
        #expect(try first.ask("ping") == "pong\n")
        try first.stop()
    }

    @Test("a path that exists and is not a socket is left alone")
    func regularFileRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("s")
        try directory.write("s", "precious\n")
        let environment = try TestService.isolatedEnvironment(in: directory)
        let result = try Tool.run(Locations.zaoan, ["serve", "--socket", path], environment: environment, timeout: 5, scratch: directory)
        #expect(!result.timedOut && result.status != 0, "\(result)")
        #expect(result.errorOutput.contains(path), "\(result)")
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "precious\n", "the file was replaced")
    }

    // MARK: - Shutdown

    @Test("SIGINT ends it cleanly too: exit 0, socket removed")
    func sigint() throws {
        let service = try TestService.start()
        #expect(try service.ask("ping") == "pong\n")
        service.signal(SIGINT)
        #expect(service.waitForExit(timeout: 5), "still running 5 s after SIGINT")
        #expect(service.process.terminationReason == .exit && service.process.terminationStatus == 0,
                "status \(service.process.terminationStatus); stderr: \(service.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: service.socketPath))
    }

    @Test("SIGTERM with a session open: the session is closed and the service exits within its grace")
    func shutdownWithOpenSession() throws {
        let service = try TestService.start()
        let session = try RawClient(path: service.socketPath, timeout: 5)
        try session.send("session\n")
        #expect(try session.readLine() == "ok")
        let started = Date()
        service.signal(SIGTERM)
        #expect(session.peerState(within: 4) == .closed, "the open session was not closed on SIGTERM")
        #expect(service.waitForExit(timeout: 4), "still running 4 s after SIGTERM with a session open")
        #expect(Date().timeIntervalSince(started) < 4)
        try service.stop()  // exit status and socket removal
    }

    @Test("out of descriptors: accepting pauses (a queued client waits, the loop does not spin) and resumes when a connection closes")
    func descriptorsRunOut() throws {
        var configuration = TestService.Configuration()
        configuration.config = #"{"max_connections": 500, "max_connections_per_user": 500}"#
        configuration.wrapper = ["prlimit", "--nofile=64:64", "--"]  // prlimit becomes zaoan
        let service = try TestService.start(configuration)
        // Watches hold their descriptors until accepting fails; the client it failed for
        // waits in the listening socket's queue.
        let paused = { service.stderrText.contains("cannot accept more connections") }
        var held: [RawClient] = []
        var queued: RawClient?
        for _ in 0..<64 where queued == nil {
            let client = try RawClient(path: service.socketPath, timeout: 1)
            try client.send("watch ping\n")
            if (try? client.readLine()) == "pong" {  // a read that times out is "not answered"
                held.append(client)
            } else if eventually(timeout: 10, paused) {
                queued = client
            } else {  // only slow (a loaded machine): it is answered
                #expect((try? client.readLine(timeout: 10)) == "pong", "neither answered nor paused: \(service.stderrText)")  // a timeout fails it
                held.append(client)
            }
        }
        let waiting = try #require(queued, "64 watches were all accepted under a 64-descriptor limit")
        #expect(held.count >= 10, "only \(held.count) watches before the limit")
        // Paused, the listener is out of the loop: the service sleeps instead of retrying
        // accept, which would take a whole CPU.
        let before = try cpuTicks(service.pid)
        let started = Date()
        usleep(2_000_000)  // a measured window, not a wait for a condition
        let used = Double(try cpuTicks(service.pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #expect(used < 0.25 * Date().timeIntervalSince(started), "the paused service used \(used) s of CPU in 2 s")
        // One watch closed: accepting resumes, and the queued client is answered.
        held.removeLast().close()
        #expect((try? waiting.readLine(timeout: 10)) == "pong", "the queued client was not answered once a descriptor was free")  // a timeout fails it
        held.forEach { $0.close() }
        #expect(try service.ask("ping") == "pong\n")
        try service.stop()
    }

    /// User plus system CPU of `pid`, in clock ticks (/proc/PID/stat).
    private func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    // MARK: - systemd

    @Test("socket activation: one long-lived process serves every connection; the socket is not unlinked")
    func socketActivation() throws {
        var configuration = TestService.Configuration()
        configuration.activation = (paths: ["s"], names: nil)
        let service = try TestService.start(configuration)
        let pid = service.pid
        for index in 1...5 {
            #expect(try service.ask("duration \(index)") == "00:0\(index)\n")
        }
        let stats = try service.ask("stats")
        // The probe pings while waiting plus five requests: well over one connection each,
        // all counted by one process.
        let total = stats.split(separator: "\n").first(where: { $0.hasPrefix("connections_total: ") })
            .flatMap { Int($0.dropFirst("connections_total: ".count)) } ?? 0
        #expect(total >= 7, "one process should have served every connection: \(stats)")
        #expect(service.isRunning && service.pid == pid)
        #expect(service.stderrText.contains("socket activation"), "\(service.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: service.runtimeDirectory + "/zaoan.sock"),
                "zaoan bound its own socket instead of using the activated one")
        try service.stop(expectSocketRemoved: false)
        #expect(FileManager.default.fileExists(atPath: service.socketPath),
                "zaoan unlinked a socket it was handed by systemd")
    }

    @Test("socket activation with --fdname: the socket named zaoan is served, not merely the first")
    func socketActivationByName() throws {
        var configuration = TestService.Configuration()
        // fd 3 is another service's socket; fd 4, named zaoan, is ours.
        configuration.activation = (paths: ["o", "s"], names: ["other", "zaoan"])
        let service = try TestService.start(configuration)
        #expect(service.stderrText.contains("zaoan"), "\(service.stderrText)")
        #expect(try service.ask("duration 7") == "00:07\n")

        let other = try RawClient(path: service.directory.file("o"), timeout: 1)
        try other.send("ping\n")
        #expect(other.peerState(within: 0.3) == .open, "zaoan answered on the socket named 'other'")
        other.close()
        try service.stop(expectSocketRemoved: false)
        #expect(FileManager.default.fileExists(atPath: service.socketPath))
    }

    @Test("socket activation with a single socket named by --fdname=zaoan")
    func socketActivationSingleNamed() throws {
        var configuration = TestService.Configuration()
        configuration.activation = (paths: ["s"], names: ["zaoan"])
        let service = try TestService.start(configuration)
        #expect(try service.ask("ping") == "pong\n")
        #expect(service.stderrText.contains("fd name zaoan") || service.stderrText.contains("zaoan.sock") || service.stderrText.contains("socket activation"),
                "\(service.stderrText)")
        try service.stop(expectSocketRemoved: false)
        #expect(FileManager.default.fileExists(atPath: service.socketPath))
    }

    @Test("NOTIFY_SOCKET receives READY=1 once serving and STOPPING=1 on SIGTERM")
    func notify() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notifyPath = directory.file("n")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        defer { Glibc.close(fd) }
        try #require(try withUnixAddress(notifyPath) { bind(fd, $0, $1) } == 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [String] = []
        func waitFor(_ assignment: String) -> Bool {
            while true {
                if received.contains(where: { $0.split(separator: "\n").contains(Substring(assignment)) }) { return true }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return false }
                received.append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
        }

        var configuration = TestService.Configuration()
        configuration.environment["NOTIFY_SOCKET"] = notifyPath
        configuration.waitUntilReady = false
        let service = try TestService.start(configuration)
        #expect(waitFor("READY=1"), "no READY=1 within 5 s; got \(received); stderr: \(service.stderrText)")
        // Ready means serving: a request right after READY=1 is answered.
        #expect(try ask(service.socketPath, "ping") == "pong\n")
        #expect(!received.joined().contains("STOPPING=1"))

        service.signal(SIGTERM)
        #expect(waitFor("STOPPING=1"), "no STOPPING=1 after SIGTERM; got \(received); stderr: \(service.stderrText)")
        try service.stop()
    }
}
