import Foundation
import Glibc
import Testing

/// Room changes under load and under failing system calls, watched with strace: one write
/// and sync per loop turn however many changes arrive, temporary files another user cannot
/// redirect, and an answer that always agrees with what is on disk.
@Suite("Hostile neighbours: saving rooms")
struct HostileStorageTests {
    static var strace: String? { Locations.tool("strace") }

    @Test("1,000 pipelined live add: a few group commits (one write and fsync each), every add answered after it",
          .enabled(if: strace != nil, "strace is missing"), Sanitizer.skipped("it runs the service under strace"))
    func groupCommit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.file("strace.log")
        var configuration = TestService.Configuration()
        configuration.wrapper = ["strace", "-f", "-qq", "-o", log, "-e", "trace=fsync,openat,renameat,rename,renameat2"]
        let service = try TestService.start(configuration)
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send("session\n" + (0..<1_000).map { "live add g\($0) +\($0 + 1)m room \($0)\n" }.joined() + "live list\nquit\n")
        let answers = try client.readToEndText().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(answers.prefix(1_001).allSatisfy { $0 == "ok" }, "\(answers.prefix(3))")
        #expect(answers.dropFirst(1_001).prefix(1_000).count == 1_000 && answers[1_001].hasPrefix("g0\t"),
                "live list, sent after the adds, sees all of them: \(answers.dropFirst(1_001).prefix(2))")
        try service.stop()
        let trace = try String(contentsOfFile: log, encoding: .utf8)
        let fsyncs = trace.split(separator: "\n").filter { $0.contains("fsync(") }.count
        print("group commit: 1,000 adds cost \(fsyncs) fsync calls")
        #expect(fsyncs >= 2 && fsyncs <= 120, "one file fsync and one directory fsync per commit; 1,000 adds one by one would be 2,000")
        // Temporary files: created exclusively, never through a link, under a name no one can guess.
        let creates = trace.split(separator: "\n").filter { $0.contains("state.json.tmp-") && $0.contains("openat(") }
        #expect(!creates.isEmpty)
        for line in creates {
            #expect(line.contains("O_CREAT") && line.contains("O_EXCL") && line.contains("O_NOFOLLOW") && line.contains("O_CLOEXEC"), "\(line)")
            #expect(line.range(of: #"state\.json\.tmp-\d+-[0-9a-f]{16}"#, options: .regularExpression) != nil, "\(line)")
        }
    }

    /// What the service answers, keeps in memory and has on disk after a save whose system
    /// call `injection` fails.
    struct FailureCase: Sendable, CustomStringConvertible {
        let injection: String
        let answered: String
        let changed: Bool
        var description: String { injection }
    }

    static let failures = [
        // The new file cannot be synced: nothing changed.
        FailureCase(injection: "fsync:error=EIO:when=1", answered: "ERR storage", changed: false),
        // The rename fails: nothing changed.
        FailureCase(injection: "rename,renameat,renameat2:error=EROFS:when=1", answered: "ERR storage", changed: false),
        // The directory cannot be synced after the rename, the commit point: the change is made.
        FailureCase(injection: "fsync:error=EIO:when=2", answered: "ok", changed: true),
    ]

    @Test("a failing save: the answer, memory and the disk agree", .enabled(if: strace != nil, "strace is missing"), Sanitizer.skipped("it runs the service under strace"),
          arguments: failures)
    func failingSave(failure: FailureCase) throws {
        var configuration = TestService.Configuration()
        configuration.wrapper = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "inject=\(failure.injection)"]
        let service = try TestService.start(configuration)
        let statePath = service.environment["XDG_STATE_HOME"]! + "/zaoan/state.json"
        let answer = try service.ask("live add first +1h 夜读")
        #expect(answer.hasPrefix(failure.answered), "\(answer); stderr: \(service.stderrText)")
        let listed = try service.ask("live list").contains("first\t")
        let onDisk = (try? String(contentsOfFile: statePath, encoding: .utf8))?.contains("\"first\"") ?? false
        #expect(listed == failure.changed && onDisk == failure.changed, "memory \(listed), disk \(onDisk)")
        // The next save works, and keeps what the first one did or did not do.
        #expect(try service.ask("live add second +2h 早茶") == "ok\n")
        let after = try String(contentsOfFile: statePath, encoding: .utf8)
        #expect(after.contains("\"first\"") == failure.changed && after.contains("\"second\""), "\(after)")
        #expect(service.stderrText.contains(failure.changed ? "could undo the change" : "could not save the live rooms"), "\(service.stderrText)")
        try service.stop()
    }
}
