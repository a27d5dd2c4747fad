import CLinux
import Glibc

/// Who is on the other end of a Unix socket, from the kernel (SO_PEERCRED): the process
/// cannot lie about it.
struct PeerCredentials: Equatable {
    let pid: pid_t
    let uid: uid_t
    let gid: gid_t
    private let fd: Int32

    init?(socket fd: Int32) {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard zaoan_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.fd = fd
    }

    /// A bar's pipe may be handed over only by the service's own user or root: they could
    /// write to the service's own pipes anyway. Anyone else is answered on the socket.
    var mayHandOver: Bool { uid == 0 || uid == geteuid() }

    /// Changes are for the service's own user, root, and members of `adminGroup`
    /// (primary or supplementary group, as the kernel reports them for the peer).
    func mayChange(adminGroup: gid_t?) -> Bool {
        if uid == 0 || uid == geteuid() { return true }
        guard let adminGroup else { return false }
        if gid == adminGroup { return true }
        var groups = [gid_t](repeating: 0, count: 256)
        let count = groups.withUnsafeMutableBufferPointer { zaoan_peer_groups(fd, $0.baseAddress, Int32($0.count)) }
        return count > 0 && groups[0..<Int(count)].contains(adminGroup)
    }
}
