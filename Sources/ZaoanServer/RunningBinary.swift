import Glibc
import ZaoanSystem

/// The file this process runs, to notice that a package upgrade or removal has replaced or
/// deleted it while the service ran (dpkg renames the new file over the old one on an
/// upgrade and unlinks it on a removal; `/proc/self/exe` then reads `... (deleted)`). The
/// process keeps running the old inode either way, so it looks at the path again: another
/// inode there is a replacement, nothing there a removal.
///
/// Taken once at start (a `readlink` and a `stat`); `change()` is one `stat`, which the
/// service makes only when it has been idle for a while (Server+Lifecycle.swift).
struct RunningBinary {
    enum Change: Equatable {
        /// Nothing at the path now: the package was removed (or the file deleted).
        case removed
        /// Another file at the path: an upgrade (or a reinstall, or a new build installed).
        case replaced
    }

    /// The path the process was started from, as the kernel names it (links resolved).
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The running binary; nil where /proc cannot say (not mounted) or it is gone already.
    static func current() -> RunningBinary? {
        // No /proc (or an unreadable link): nothing to compare with later, so no check; the
        // service serves as before.
        guard let path = try? Posix.readLink("/proc/self/exe"), path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else {
            return nil
        }
        var running = stat()
        guard stat("/proc/self/exe", &running) == 0 else { return nil }
        return RunningBinary(path: path, device: UInt64(running.st_dev), inode: UInt64(running.st_ino))
    }

    /// What happened to the file since the start; nil while the path still names it.
    func change() -> Change? {
        var now = stat()
        guard stat(path, &now) == 0 else { return .removed }
        return UInt64(now.st_dev) == device && UInt64(now.st_ino) == inode ? nil : .replaced
    }

    /// For the log: what happened to the file.
    func describe(_ change: Change) -> String {
        switch change {
        case .replaced: return "its binary \(path) was replaced while it ran (an upgrade)"
        case .removed: return "its binary \(path) was removed while it ran (the package removed?)"
        }
    }

    /// For the log of a socket-activated service exiting for `change`: what happened, what
    /// comes next, what the user does. `userManager`: it runs under a user's systemd
    /// (`$MANAGERPID` is set), not the system's.
    func explainExit(_ change: Change, userManager: Bool) -> String {
        switch change {
        case .replaced:
            return describe(change) + ": the next connection starts the new one"
        case .removed:
            let systemctl = userManager ? "systemctl --user" : "systemctl"
            return describe(change) + ": if zaoan is gone for good, run \(systemctl) disable --now zaoan.socket zaoan.service, "
                + "so that no connection tries to start it again"
        }
    }

    /// For the log of a service nobody would start again (no socket activation), which
    /// serves on: what happened and what the user does.
    func explainStaying(_ change: Change) -> String {
        describe(change) + "; without socket activation zaoan does not exit for it: "
            + (change == .replaced ? "restart zaoan to run the new one" : "stop zaoan if it is gone for good")
    }
}
