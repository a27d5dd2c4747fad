import CLinux
import Glibc

/// A `sockaddr_un` for a filesystem path, checked against the 108-byte limit.
public struct UnixAddress: Sendable {
    private var storage = sockaddr_un()
    public let path: String

    public init(path: String) throws(SystemError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemError(errno: ENAMETOOLONG, "socket path '\(path)' is \(bytes.count) bytes; Unix socket paths must be 1 to \(capacity - 1) bytes")
        }
        self.path = path
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Opens a stream socket and connects it here. Returns the fd, or throws with errno.
    public func connect(blocking: Bool = true) throws(SystemError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue))
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw SystemError(errno: Glibc.errno, "creating a socket") }
        let result = withSockaddr { Glibc.connect(fd, $0, $1) }
        if result != 0 {
            let code = Glibc.errno
            Posix.close(fd)
            throw SystemError(errno: code, "connecting to \(path)")
        }
        return fd
    }
}
