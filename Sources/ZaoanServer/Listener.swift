import CSystemd
import Glibc

/// The listening socket: either handed over by systemd, or bound by zaoan itself.
final class Listener {
    /// nil once closed.
    private var socket: Descriptor?
    /// For the loop's registration and accept4; -1 once closed.
    var fd: Int32 { socket?.rawValue ?? -1 }
    /// What to tell the user: the path, or how the socket was obtained.
    let description: String
    /// The path zaoan bound and must remove on exit; nil for an activated socket, which
    /// belongs to systemd and is never unlinked.
    private let ownedPath: String?
    /// Handed over by systemd (socket activation) rather than bound here.
    var isActivated: Bool { ownedPath == nil }
    private let ownedInode: ino_t

    private init(socket: consuming Descriptor, description: String, ownedPath: String?, ownedInode: ino_t) {
        self.socket = Optional(socket)
        self.description = description
        self.ownedPath = ownedPath
        self.ownedInode = ownedInode
    }

    static func activated(fd: Int32, name: String?) throws(SystemError) -> Listener {
        try Posix.setNonBlocking(fd)
        Posix.setCloseOnExec(fd)
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let path: String = withUnsafeMutablePointer(to: &address) { pointer in
            _ = pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            return withUnsafeBytes(of: pointer.pointee.sun_path) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        let label = path.isEmpty ? "descriptor \(fd)" : path
        return Listener(socket: Descriptor(taking: fd), description: "\(label) (socket activation\(name.map { ", fd name \($0)" } ?? ""))",
                        ownedPath: nil, ownedInode: 0)
    }

    /// Binds `path` (mode 0600). A socket file left by a dead server is replaced; one that a
    /// live server answers on is not.
    static func bind(path: String) throws(SystemError) -> Listener {
        let address = try UnixAddress(path: path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw SystemError(errno: EEXIST, "\(path) exists and is not a socket; remove it or pass --socket with another path")
            }
            // Only a refused connection means nobody listens there; anything else is not ours
            // to remove.
            let served: Bool
            do throws(SystemError) {
                try address.connect(blocking: false).close()
                served = true
            } catch where error.errno == ECONNREFUSED {
                unlink(path)  // stale: the socket file is there but nobody listens on it
                served = false
            } catch where error.errno == EAGAIN {
                throw SystemError(errno: EADDRINUSE, "another server is listening on \(path) with a full queue; stop it first or pass --socket with another path")
            } catch {
                throw SystemError(errno: error.errno, "\(path) exists and could not be checked (\(error)); remove it if no server uses it, or pass --socket with another path")
            }
            if served {
                throw SystemError(errno: EADDRINUSE, "another zaoan is already serving on \(path); stop it first (systemctl --user stop zaoan.socket zaoan.service) or pass --socket with another path")
            }
        }
        let socket = Descriptor(taking: try syscall("creating the listening socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
        let fd = socket.rawValue
        let oldMask = umask(0o177)
        defer { umask(oldMask) }
        _ = try syscall("binding \(path)") { address.withSockaddr { Glibc.bind(fd, $0, $1) } }  // 0 on success; errors throw
        chmod(path, 0o600)
        do throws(SystemError) {
            _ = try syscall("listening on \(path)") { listen(fd, SOMAXCONN) }  // 0 on success; errors throw
        } catch {
            unlink(path)
            throw error
        }
        var bound_ = stat()
        _ = lstat(path, &bound_)
        return Listener(socket: socket, description: path, ownedPath: path, ownedInode: bound_.st_ino)
    }

    /// Closes the socket and removes the file zaoan created — only if it is still the one
    /// zaoan created, so a newer server's socket is never removed.
    func close() {
        _ = socket.take()  // closed once out of the property (`changeOutOfPlace` says why)
        guard let ownedPath else { return }
        var info = stat()
        if lstat(ownedPath, &info) == 0, info.st_ino == ownedInode {
            unlink(ownedPath)
        }
    }
}
