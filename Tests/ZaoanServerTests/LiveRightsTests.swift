import Foundation
import Glibc
import Testing

/// Reading is for everyone who can open the socket; `live add`, `live rm` and `reload` only
/// for the service's own user and root (SO_PEERCRED). Clients run as other users through
/// setpriv, so these tests need root.
@Suite("Live rooms: rights of other users", .enabled(if: Live.isRoot, "switching users (setpriv) needs root"))
struct LiveRightsTests {
    /// `zaoan ask --socket PATH WORDS...` as `user`.
    private func ask(as user: String, group: String, _ path: String, _ words: [String], scratch: TemporaryDirectory) throws -> ToolResult {
        try Live.run(as: user, group: group, Locations.zaoan, ["ask", "--socket", path] + words, scratch: scratch)
    }

    /// `zaoan ask` got `ERR forbidden ...` (on stdout or stderr: where the CLI prints errors is
    /// its own business) and exited 1.
    private func refused(_ result: ToolResult) -> Bool {
        result.status == 1 && (result.output + result.errorOutput).hasPrefix("ERR forbidden ")
    }

    /// `TITLE · 距开播 01:00:00` or a few seconds less: a room added `+1h` a moment ago.
    private func startsInAboutAnHour(_ output: String, title: String = "夜读") -> Bool {
        output == "\(title) · 距开播 01:00:00\n" || output.hasPrefix("\(title) · 距开播 00:59:5")
    }

    @Test("nobody is refused live add, live rm, reload, privacy, remind and event add/rm with ERR forbidden, but may read")
    func nobodyRefused() throws {
        // zaoan makes its socket 0600; put it where nobody can reach it and open it up.
        let socketDirectory = try Live.traversableDirectory()
        defer { socketDirectory.remove() }
        var configuration = TestService.Configuration()
        configuration.socket = .path(socketDirectory.file("s"))
        configuration.arguments = ["--timezone", "Asia/Shanghai", "--language", "zh"]
        let service = try TestService.start(configuration)
        #expect(chmod(service.socketPath, 0o666) == 0)
        let path = service.socketPath

        #expect(try service.ask("live add night +1h 夜读") == "ok\n", "root (the service's own user here) may add")

        for words in [["live", "add", "x", "+1h", "intruder"], ["live", "rm", "night"], ["reload"], ["privacy", "on"],
                      ["remind", "dismiss", "0123456789ab"], ["event", "add", "work", "+1h", "intruder"],
                      ["event", "rm", "0123456789abcdef0123456789abcdef@zaoan"]] {
            let result = try ask(as: "nobody", group: "nogroup", path, words, scratch: service.directory)
            #expect(refused(result), "\(words.joined(separator: " ")) as nobody: \(result)")
        }

        // The same through netcat, the way a script would send it.
        if let netcat = Locations.netcatOpenBSD {
            let netcatRefused = try Live.run(as: "nobody", group: "nogroup", netcat, ["-U", path], stdin: "live add y +1h\n",
                                       scratch: service.directory)
            #expect(netcatRefused.output.hasPrefix("ERR forbidden "), "nc as nobody: \(netcatRefused)")
            let read = try Live.run(as: "nobody", group: "nogroup", netcat, ["-U", path], stdin: "countdown\n",
                                    scratch: service.directory)
            #expect(startsInAboutAnHour(read.output), "nc as nobody: \(read)")
        }

        // Reading works for nobody.
        let countdown = try ask(as: "nobody", group: "nogroup", path, ["countdown"], scratch: service.directory)
        #expect(countdown.status == 0 && startsInAboutAnHour(countdown.output), "\(countdown)")
        for words in [["countdown", "night"], ["ticker"], ["live", "list"], ["live", "show", "night"], ["greeting"]] {
            let result = try ask(as: "nobody", group: "nogroup", path, words, scratch: service.directory)
            #expect(result.status == 0 && !result.output.hasPrefix("ERR") && !result.output.isEmpty,
                    "\(words.joined(separator: " ")) as nobody: \(result)")
        }

        // Nothing changed.
        let rows = try Live.list(path)
        #expect(rows.map { $0[0] } == ["night"])
        #expect(rows.first?.last == "夜读")
        #expect(try Live.lines(service.ask("stats")).contains("privacy: off"))
        #expect(service.stderrText.contains("uid 65534"), "the refusal is logged with the peer's uid: \(service.stderrText)")
        try service.stop()
    }

    /// With root as the service's user the two rules are one; run the service as nobody to
    /// tell "own user" from "root" from "someone else".
    @Test("service run by nobody: nobody and root may change, daemon may only read")
    func ownUserAndRoot() throws {
        let service = try LiveForeignService(user: "nobody", group: "nogroup", uid: 65534, gid: 65534)
        defer { service.stop() }
        let path = service.socketPath

        #expect(try ZaoanServerTests.ask(path, "live add byroot +1h root") == "ok\n", "root may always change")
        let own = try ask(as: "nobody", group: "nogroup", path, ["live", "add", "byowner", "+2h", "owner"], scratch: service.directory)
        #expect(own.output == "ok\n", "the service's own user may change: \(own)")
        let other = try ask(as: "daemon", group: "daemon", path, ["live", "add", "bydaemon", "+3h", "other"], scratch: service.directory)
        #expect(refused(other), "another user may not: \(other)")
        let otherRemove = try ask(as: "daemon", group: "daemon", path, ["live", "rm", "byroot"], scratch: service.directory)
        #expect(refused(otherRemove), "\(otherRemove)")
        let read = try ask(as: "daemon", group: "daemon", path, ["countdown"], scratch: service.directory)
        #expect(startsInAboutAnHour(read.output, title: "root"), "another user may read: \(read)")
        #expect(try Live.list(path).map { $0[0] } == ["byroot", "byowner"])
        #expect(try ZaoanServerTests.ask(path, "live rm byowner") == "ok\n", "root may remove")
        #expect(FileManager.default.fileExists(atPath: service.directory.file("state/zaoan/state.json")),
                "the service (as nobody) saved its state under its own XDG_STATE_HOME; stderr: \(service.stderrText)")
    }
}

/// `zaoan serve` run as another user (setpriv), in a directory of that user's, with the socket
/// opened to everyone (0666) so that clients of any user can reach it.
final class LiveForeignService {
    let directory: TemporaryDirectory
    let process = Process()
    var socketPath: String { directory.file("run/s") }
    var stderrText: String { (try? String(contentsOfFile: directory.file("stderr.log"), encoding: .utf8)) ?? "" }

    init(user: String, group: String, uid: uid_t, gid: gid_t) throws {
        directory = try Live.traversableDirectory()
        guard let setpriv = Locations.tool("setpriv") else { throw TestFailure("setpriv not found (util-linux)") }
        var environment = Tool.baseEnvironment(home: directory.file("home"))
        for name in ["home", "state", "config", "run"] {
            let made = try directory.makeDirectory(name, mode: name == "run" ? 0o711 : 0o700)
            guard chown(made, uid, gid) == 0 else { throw TestFailure("chown \(made): \(String(cString: strerror(errno)))") }
        }
        environment["XDG_STATE_HOME"] = directory.file("state")
        environment["XDG_CONFIG_HOME"] = directory.file("config")
        environment["XDG_RUNTIME_DIR"] = directory.file("run")
        let log = directory.file("stderr.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=\(user)", "--regid=\(group)", "--clear-groups",
                             Locations.zaoan, "serve", "--socket", socketPath, "--timezone", "Asia/Shanghai", "--language", "zh"]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = try Process.outputFile(log)
        process.standardOutput = output
        process.standardError = output
        try process.run(handingOver: [output])
        guard Live.waitUntilServing(socketPath, running: { process.isRunning }) else {
            stop()
            throw TestFailure("zaoan as \(user) did not answer ping; stderr: \(stderrText)")
        }
        guard chmod(socketPath, 0o666) == 0 else { throw TestFailure("chmod \(socketPath): \(String(cString: strerror(errno)))") }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            if !eventually(timeout: 5, { !process.isRunning }) {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
        directory.remove()
    }
}
