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

    /// Opens a stream socket and connects it here; a failure closes it.
    /// A connect interrupted by a signal is not retried: it goes on in the kernel, and a
    /// second call would fail with EALREADY.
    public func connect(blocking: Bool = true) throws(SystemError) -> Descriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue))
        let socket = Descriptor(taking: try syscall("creating a socket") { Glibc.socket(AF_UNIX, type, 0) })
        let fd = socket.rawValue
        _ = try syscall(retryOnInterrupt: false, "connecting to \(path)") { withSockaddr { Glibc.connect(fd, $0, $1) } }  // 0 on success
        return socket
    }
}
