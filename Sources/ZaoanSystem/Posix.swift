import CLinux
import Glibc

/// A failed system call, with what zaoan was doing when it failed.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public let errno: Int32
    public let operation: String

    public init(errno: Int32, _ operation: String) {
        self.errno = errno
        self.operation = operation
    }

    public var description: String {
        "\(operation): \(String(cString: strerror(errno)))"
    }
}

/// Thin wrappers over the C calls zaoan makes, so the rest of the code reads as Swift.
public enum Posix {
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)  // Linux releases the fd even when close reports EINTR
    }

    public static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemError(errno: Glibc.errno, "making descriptor \(fd) non-blocking")
        }
    }

    public static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Writes all of `bytes` to a blocking descriptor (stdout, stderr, a client socket).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if Glibc.errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Where the symbolic link `name` (relative to `directory`) points: at most PATH_MAX
    /// bytes, else ENAMETOOLONG. Also reads the kernel's links in /proc (`/proc/self/exe`,
    /// `/proc/self/fd/N`).
    public static func readLink(_ name: String, in directory: Int32 = AT_FDCWD) throws(SystemError) -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes { raw in
            readlinkat(directory, name, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard count >= 0 else { throw SystemError(errno: Glibc.errno, "reading the link \(name)") }
        guard count < buffer.count else { throw SystemError(errno: ENAMETOOLONG, "reading the link \(name)") }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// A path's folder and last component: `/a/b.ics` → (`/a`, `b.ics`), `/b` → (`/`, `b`),
    /// `b` → (`.`, `b`).
    public static func splitPath(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// The current time on the monotonic clock, in seconds.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
