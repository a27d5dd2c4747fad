import CLinux
import Glibc

/// Who is on the other end of a Unix socket, from the kernel (SO_PEERCRED): the process
/// cannot lie about it.
struct PeerCredentials: Equatable {
    let pid: pid_t
    let uid: uid_t
    let gid: gid_t

    init?(socket fd: Int32) {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard zaoan_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Changes are for the service's own user and root.
    var mayChange: Bool { uid == 0 || uid == geteuid() }
}
