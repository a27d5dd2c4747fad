import Foundation
import Glibc

/// What Debian's `faketime` wrapper (libfaketime 0.9.10) leaves in /dev/shm while it runs: a
/// POSIX semaphore and a shared memory object named after the wrapper's own pid
/// (`sem.faketime_sem_PID`, `faketime_shm_PID`). The wrapper removes both when its child
/// exits, so a service under faketime is stopped through the child; a wrapper that is
/// killed instead leaves them, and a later wrapper that gets the same pid fails at start
/// with `faketime: sem_open: File exists`.
enum FaketimeFiles {
    static let directory = "/dev/shm"

    /// The pair's paths for the wrapper `pid`.
    static func paths(of pid: pid_t) -> [String] {
        ["\(directory)/faketime_shm_\(pid)", "\(directory)/sem.faketime_sem_\(pid)"]
    }

    /// Those of the pair of `pid` that exist.
    static func present(of pid: pid_t) -> [String] {
        paths(of: pid).filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Removes the pair of `pid`, a wrapper that is gone.
    static func remove(of pid: pid_t) {
        for path in paths(of: pid) { unlink(path) }
    }

    /// The wrapper pids of every pair in /dev/shm, whoever left them.
    static func allPairs() -> Set<pid_t> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var pids = Set<pid_t>()
        for name in names {
            for prefix in ["faketime_shm_", "sem.faketime_sem_"] where name.hasPrefix(prefix) {
                if let pid = pid_t(name.dropFirst(prefix.count)) { pids.insert(pid) }
            }
        }
        return pids
    }

    /// Removes the pairs whose wrapper no longer exists (a test run killed midway left them),
    /// so no new wrapper meets one. A live wrapper's pair is never touched.
    static func removeStale() {
        for pid in allPairs() where kill(pid, 0) != 0 && errno == ESRCH {
            remove(of: pid)
        }
    }
}
