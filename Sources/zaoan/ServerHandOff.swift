import Glibc
import ZaoanCommandLine
import ZaoanSystem

/// `zaoan serve` and `zaoan check-config` belong to the service, which needs Foundation;
/// the `zaoan` that prompts and bars run dozens of times a minute does not load it. So
/// these two commands replace this process (execv) with `zaoan-server`, with the same
/// arguments.
///
/// The pid stays the same, so systemd's socket activation (`LISTEN_PID`) and notifications
/// (`MAINPID`) hold, and argv[0] is passed unchanged, so `ps` and the tests still see
/// `zaoan serve`.
enum ServerHandOff {
    static let binaryName = "zaoan-server"

    /// Where `zaoan-server` may be, in the order tried, for the `zaoan` at `executable`
    /// (the real file, as `/proc/self/exe` names it, so a symbolic link to `zaoan` finds
    /// the server of the real file): beside it (packaging/install.sh, scripts/run, a build
    /// folder), then in the helper folder of its prefix, `<prefix>/libexec/zaoan/` for
    /// `<prefix>/bin/zaoan` (the Debian package: /usr/bin/zaoan, /usr/libexec/zaoan/).
    static func candidates(forExecutable executable: String) -> [String] {
        var path = executable
        // Replaced on disk while running (an upgrade): the server beside the new one is right.
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        let folder = Posix.splitPath(path).folder
        let prefix = folder == "/" ? "" : Posix.splitPath(folder).folder
        return [
            (folder == "/" ? "" : folder) + "/" + binaryName,
            (prefix == "/" ? "" : prefix) + "/libexec/zaoan/" + binaryName,
        ]
    }

    /// A candidate that is not there (so the next one is tried) rather than one that is
    /// there and cannot run (which is reported, not passed over).
    static func isAbsent(_ error: Int32) -> Bool { error == ENOENT || error == ENOTDIR }

    /// What `zaoan serve` says when no candidate ran: each place and why.
    static func failureMessage(command: String, attempts: [(path: String, error: Int32)]) -> String {
        let reasons = attempts.map { "\($0.path): \(String(cString: strerror($0.error)))" }
        let looked = reasons.dropFirst().map { ", nor at \($0)" }.joined()
        return "zaoan \(command) needs \(reasons.first ?? binaryName)\(looked). The service is \(binaryName), installed "
            + "beside zaoan (packaging/install.sh) or in ../libexec/zaoan/ beside zaoan's bin folder (the Debian package)"
    }

    /// Becomes `zaoan-server`, or exits 69 (`EX_UNAVAILABLE`) saying where it looked.
    static func exec() -> Never {
        let executable: String
        do throws(SystemError) { executable = try Posix.readLink("/proc/self/exe") } catch {
            fail("cannot tell where zaoan runs from (\(error)), so cannot find \(binaryName); is /proc mounted?", status: 69)
        }
        var attempts: [(path: String, error: Int32)] = []
        for path in candidates(forExecutable: executable) {
            execv(path, CommandLine.unsafeArgv)
            let error = errno
            attempts.append((path, error))
            if !isAbsent(error) { break }
        }
        let word = CommandLine.arguments.dropFirst().first ?? "serve"
        fail(failureMessage(command: word, attempts: attempts), status: 69)  // EX_UNAVAILABLE
    }
}
