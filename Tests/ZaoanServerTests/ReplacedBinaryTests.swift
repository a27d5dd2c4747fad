import Foundation
import Glibc
import Testing

/// A package removal or upgrade deletes or replaces the binary a running service was
/// started from. The service notices when it is next idle and exits cleanly (status 0, the
/// live rooms on disk, a log line saying what happened and what to do), so a removed zaoan
/// does not linger and an upgraded one is replaced by the new binary on the next
/// connection. Run on copies of the built `zaoan` and `zaoan-server` in a scratch folder,
/// which the tests delete or replace as dpkg does, under a supervisor's listening socket
/// (fd 3, as systemd passes it).
@Suite("The binary removed or replaced while the service runs")
struct ReplacedBinaryTests {
    /// A scratch folder with its own copies of the binaries, an isolated environment and a
    /// listening socket of its own.
    struct Scratch {
        let directory: TemporaryDirectory
        var environment: [String: String]
        let socketPath: String
        let listening: Int32
        let logPath: String
        var zaoan: String { directory.file("bin/zaoan") }
        var server: String { directory.file("bin/zaoan-server") }
        var statePath: String { environment["XDG_STATE_HOME"]! + "/zaoan/state.json" }
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        init() throws {
            directory = try TemporaryDirectory()
            environment = try TestService.isolatedEnvironment(in: directory)
            _ = try directory.makeDirectory("bin", mode: 0o755)
            for (built, copy) in [(Locations.zaoan, "bin/zaoan"), (Locations.zaoanServer, "bin/zaoan-server")] {
                try FileManager.default.copyItem(atPath: built, toPath: directory.file(copy))
            }
            socketPath = directory.file("s")
            listening = try makeListeningSocket(path: socketPath)
            logPath = directory.file("log")
        }

        func start(_ options: [String]) throws -> SpawnedProcess {
            try SpawnedProcess([zaoan, "serve"] + options, environment: environment, outputPath: logPath, listeningSocket: listening)
        }

        /// dpkg's removal: the files unlinked.
        func remove() throws {
            try FileManager.default.removeItem(atPath: zaoan)
            try FileManager.default.removeItem(atPath: server)
        }

        /// dpkg's upgrade: the new file unpacked beside the old, then renamed over it.
        func replaceServer() throws {
            try FileManager.default.copyItem(atPath: Locations.zaoanServer, toPath: server + ".dpkg-new")
            guard rename(server + ".dpkg-new", server) == 0 else { throw TestFailure("rename: errno \(errno)") }
        }

        func close() {
            Glibc.close(listening)
            directory.remove()
        }
    }

    /// Serves a room, then (holding a connection, so the idle time cannot start before)
    /// runs `change` on the files; returns the service once that connection is closed.
    private func serveRoom(_ scratch: Scratch, options: [String], change: () throws -> Void) throws -> SpawnedProcess {
        let service = try scratch.start(options)
        #expect(try ask(scratch.socketPath, "live add keep +2h Keep") == "ok\n", "\(scratch.log)")
        let holding = try RawClient(path: scratch.socketPath, timeout: 5)
        try holding.send("ping\n")
        #expect(try holding.readLine() == "pong")
        try change()
        holding.shutdownWrite()
        _ = try holding.readToEndText()
        return service
    }

    private func savedRoom(_ scratch: Scratch) -> Bool {
        (try? String(contentsOfFile: scratch.statePath, encoding: .utf8))?.contains("\"keep\"") == true
    }

    @Test("removed: it exits 0 at its idle exit, rooms saved, and names systemctl --user disable --now zaoan.socket zaoan.service")
    func removedAtIdleExit() throws {
        var scratch = try Scratch()
        defer { scratch.close() }
        scratch.environment["MANAGERPID"] = "\(getpid())"  // as a user manager's services have it
        let service = try serveRoom(scratch, options: ["--exit-idle-time", "1s"]) { try scratch.remove() }
        let exit = service.wait(timeout: 15)
        let log = scratch.log
        print("removed binary, idle exit: \(String(describing: exit)); \(log.split(separator: "\n").last ?? "")")
        #expect(exit == .exited(0), "\(log)")
        #expect(log.contains("<5>zaoan: exited after 1.0 s with no clients: its binary \(scratch.server) was removed while it ran"), "\(log)")
        #expect(log.contains("run systemctl --user disable --now zaoan.socket zaoan.service, so that no connection tries to start it again"), "\(log)")
        #expect(savedRoom(scratch), "the room should be in \(scratch.statePath)")
    }

    @Test("present: the idle exit is as always, with no word of the binary")
    func presentAtIdleExit() throws {
        let scratch = try Scratch()
        defer { scratch.close() }
        let service = try serveRoom(scratch, options: ["--exit-idle-time", "1s"]) {}
        let exit = service.wait(timeout: 15)
        let log = scratch.log
        #expect(exit == .exited(0), "\(log)")
        #expect(log.contains("<6>zaoan: exited after 1.0 s with no clients (the next connection starts zaoan again)"), "\(log)")
        #expect(!log.contains("its binary"), "\(log)")
        #expect(savedRoom(scratch))
    }

    @Test("replaced, no --exit-idle-time: it exits 0 after 10 s with no clients; with the binary in place it serves on")
    func replacedWithoutIdleExit() throws {
        let replaced = try Scratch(), kept = try Scratch()
        defer {
            replaced.close()
            kept.close()
        }
        let keeping = try serveRoom(kept, options: ["--verbose"]) {}
        let upgraded = try serveRoom(replaced, options: []) { try replaced.replaceServer() }
        let exit = upgraded.wait(timeout: 30)
        let log = replaced.log
        #expect(exit == .exited(0), "\(log)")
        #expect(log.contains("exited after 10.0 s with no clients: its binary \(replaced.server) was replaced while it ran (an upgrade): the next connection starts the new one"), "\(log)")
        #expect(savedRoom(replaced))
        // The control looked at its binary too (the verbose line), and serves on.
        #expect(eventually(timeout: 15, interval: 0.1) { kept.log.contains("unchanged") }, "\(kept.log)")
        #expect(!keeping.hasExited, "\(kept.log)")
        #expect(try ask(kept.socketPath, "ping") == "pong\n")
        keeping.signal(SIGTERM)
        #expect(keeping.wait(timeout: 5) == .exited(0))
        #expect(!kept.log.contains("its binary"), "\(kept.log)")
    }

    @Test("removed, not socket-activated: it says so once and serves on (nobody would start it again)")
    func removedWithoutActivation() throws {
        let scratch = try Scratch()
        defer { scratch.close() }
        let socketPath = scratch.directory.file("own")
        let service = try SpawnedProcess([scratch.zaoan, "serve", "--socket", socketPath], environment: scratch.environment,
                                         outputPath: scratch.logPath)
        #expect(eventually(timeout: 10) { (try? ask(socketPath, "ping")) == "pong\n" }, "\(scratch.log)")
        try scratch.remove()
        #expect(eventually(timeout: 30, interval: 0.1) { scratch.log.contains("without socket activation zaoan does not exit for it") },
                "\(scratch.log)")
        #expect(scratch.log.contains("<4>zaoan: its binary \(scratch.server) was removed while it ran"), "\(scratch.log)")
        #expect(!service.hasExited)
        #expect(try ask(socketPath, "ping") == "pong\n")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 5) == .exited(0), "\(scratch.log)")
    }
}
