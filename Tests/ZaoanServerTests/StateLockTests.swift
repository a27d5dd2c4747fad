import Foundation
import Glibc
import Testing

/// One service per state directory: a second `zaoan serve` on the same state refuses, names
/// the first, and exits with the documented status (75); the first's rooms survive. Real
/// processes of the built binary; under systemd-socket-activate the queued client is told.
@Suite("one service per state directory")
struct StateLockTests {
    /// A second service on `first`'s state directory, not waited for (it should not serve).
    static func second(beside first: TestService, activated: Bool = false) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.environment = ["XDG_STATE_HOME": first.environment["XDG_STATE_HOME"]!]
        configuration.waitUntilReady = false
        if activated { configuration.activation = (paths: ["s"], names: nil) }
        return try TestService.start(configuration)
    }

    @Test("two zaoan serve on one state directory: the second exits with 75 naming the first's pid and socket; the first's rooms survive")
    func secondRefuses() throws {
        let first = try TestService.start()
        let statePath = first.environment["XDG_STATE_HOME"]! + "/zaoan/state.json"
        let second = try Self.second(beside: first)
        let exited = second.waitForExit(timeout: 20)
        // Both have read the (empty) state now. A room acknowledged by the first, then one by
        // the second if it serves: its save would replace the first's rooms.
        #expect(try first.ask("live add kept +1h Kept room") == "ok\n")
        if !exited {
            try second.waitUntilAnswering()
            print("the second service serves: \(try second.ask("live add other +2h Other room"))")
        }
        #expect(exited && second.process.terminationReason == .exit && second.process.terminationStatus == 75,
                "exited \(exited), status \(exited ? second.process.terminationStatus : -1); stderr: \(second.stderrText)")
        let named = "another zaoan (pid \(first.pid), serving on \(first.socketPath)) already uses the state directory \(first.environment["XDG_STATE_HOME"]!)/zaoan"
        #expect(second.stderrText.contains(named), "\(second.stderrText)")
        #expect(second.stderrText.contains("exiting with status 75"), "\(second.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: second.socketPath), "the second must not bind its socket")
        #expect(try first.ask("live list").contains("kept\t"))
        let pid = first.pid
        try first.stop()
        let state = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(state.contains("\"kept\""), "the first's room is on disk: \(state)")
        // What the first wrote into the lock file (left in place: a lock file is not a lock).
        let lockText = try String(contentsOfFile: first.environment["XDG_STATE_HOME"]! + "/zaoan/state.lock", encoding: .utf8)
        #expect(lockText == "pid \(pid)\nsocket \(first.socketPath)\n", "\(lockText)")
    }

    @Test("a lock file an earlier holder left is written over: no old line is left to read, and one longer than is read is cut",
          arguments: [("pid 4194304\nsocket /run/user/1000/an/older/and/much/longer/path/zaoan.sock\n", false),
                      ("pid 1\n" + String(repeating: "socket /old/path\n", count: 600), true)])
    func staleLockWrittenOver(stale: String, longerThanRead: Bool) throws {
        var configuration = TestService.Configuration()
        configuration.beforeStart = { directory, _ in
            _ = try directory.makeDirectory("state/zaoan")
            try directory.write("state/zaoan/state.lock", stale)
        }
        let first = try TestService.start(configuration)
        defer { try? first.stop() }  // a failure to stop is not what this test checks
        let lockPath = first.environment["XDG_STATE_HOME"]! + "/zaoan/state.lock"
        let lockText = try String(contentsOfFile: lockPath, encoding: .utf8)
        let expected = "pid \(first.pid)\nsocket \(first.socketPath)\n"
        #expect(lockText.split(separator: "\n") == expected.split(separator: "\n"), "\(lockText.prefix(200).debugDescription)")
        #expect(lockText.hasPrefix(expected), "\(lockText.prefix(200).debugDescription)")
        if longerThanRead { #expect(lockText == expected, "cut to what is written: \(lockText.count) bytes") }
        // What a second service reads of it names this one.
        let second = try Self.second(beside: first)
        #expect(second.waitForExit(timeout: 20) && second.process.terminationStatus == 75, "stderr: \(second.stderrText)")
        #expect(second.stderrText.contains("another zaoan (pid \(first.pid), serving on \(first.socketPath))"), "\(second.stderrText)")
    }

    @Test("under systemd-socket-activate: the queued client gets ERR busy naming the other, and the second exits with 75")
    func activatedSecondAnswersQueued() throws {
        let first = try TestService.start()
        #expect(try first.ask("live add kept +1h Kept room") == "ok\n")
        let second = try Self.second(beside: first, activated: true)
        try #require(eventually(timeout: 10) { FileManager.default.fileExists(atPath: second.socketPath) },
                     "systemd-socket-activate did not bind \(second.socketPath): \(second.stderrText)")
        let answer = try ask(second.socketPath, "live list", timeout: 20)
        #expect(answer.hasPrefix("ERR busy another zaoan (pid \(first.pid), serving on \(first.socketPath)) holds the live rooms in "),
                "\(answer.debugDescription); stderr: \(second.stderrText)")
        let exited = second.waitForExit(timeout: 30)
        #expect(exited && second.process.terminationStatus == 75,
                "exited \(exited), status \(exited ? second.process.terminationStatus : -1); stderr: \(second.stderrText)")
        #expect(second.stderrText.contains("answered 1 connection with ERR busy"), "\(second.stderrText)")
        #expect(try first.ask("live list").contains("kept\t"))
        try first.stop()
    }
}
