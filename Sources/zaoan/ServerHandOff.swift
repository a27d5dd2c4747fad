import Glibc
import ZaoanCommandLine
import ZaoanSystem

/// `zaoan serve` and `zaoan check-config` belong to the service, which needs Foundation;
/// the `zaoan` that prompts and bars run dozens of times a minute does not load it. So
/// these two commands replace this process (execv) with `zaoan-server` from the directory
/// this binary runs from, with the same arguments.
///
/// The pid stays the same, so systemd's socket activation (`LISTEN_PID`) and notifications
/// (`MAINPID`) hold, and argv[0] is passed unchanged, so `ps` and the tests still see
/// `zaoan serve`.
enum ServerHandOff {
    static let binaryName = "zaoan-server"

    /// `zaoan-server` beside the running binary (`/proc/self/exe`, so a symbolic link to
    /// `zaoan` finds the server beside the real file).
    static func serverPath() throws(SystemError) -> String {
        var path = try Posix.readLink("/proc/self/exe")
        // Replaced on disk while running (an upgrade): the server beside the new one is right.
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        let folder = Posix.splitPath(path).folder
        return (folder == "/" ? "" : folder) + "/" + binaryName
    }

    /// Becomes `zaoan-server`, or exits 69 (`EX_UNAVAILABLE`) saying where it looked.
    static func exec() -> Never {
        let path: String
        do throws(SystemError) { path = try serverPath() } catch {
            fail("cannot tell where zaoan runs from (\(error)), so cannot find \(binaryName); is /proc mounted?", status: 69)
        }
        execv(path, CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        let word = CommandLine.arguments.dropFirst().first ?? "serve"
        fail("zaoan \(word) needs \(path): \(reason). The service is \(binaryName), installed beside zaoan "
             + "(packaging/install.sh installs both)", status: 69)  // EX_UNAVAILABLE
    }
}
