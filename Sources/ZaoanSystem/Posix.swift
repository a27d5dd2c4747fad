import CLinux
import Glibc

/// Thin wrappers over the C calls zaoan makes, so the rest of the code reads as Swift.
public enum Posix {
    /// Closes `fd`. Linux releases the number even when close reports EINTR or EIO, so those
    /// are not retried (a retry could close a number another thread just got). EBADF traps,
    /// as swift-nio's close does: the number was not open, so some owner closed it twice,
    /// and the first close may have been of a number reused meanwhile by someone else.
    public static func close(_ fd: Int32) {
        guard Glibc.close(fd) != 0, Glibc.errno == EBADF else { return }
        preconditionFailure("closing descriptor \(fd), which is not open: it was closed twice")
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

    /// Writes all of `bytes` to `fd`: continues after a partial write, retries on EINTR,
    /// and when `fd` is non-blocking and full, waits for room with poll(2) — until `deadline`
    /// (on `monotonicSeconds`; nil: as long as it takes), then ETIMEDOUT. The one write-all
    /// loop: stdout and stderr, a client's request, the bench's.
    /// - Parameter chunk: writes one piece and returns what write(2) returns; send(2) with
    ///   MSG_NOSIGNAL for a socket, or a first piece carrying a descriptor (SCM_RIGHTS).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, until deadline: Double? = nil,
                                _ operation: @autoclosure () -> String,
                                chunk: (UnsafeRawBufferPointer) -> Int) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch try nonBlockingSyscall(operation(), { chunk(rest) }) {
            case .value(let written):
                offset += written
            case .wouldBlock:
                try waitUntilWritable(fd, until: deadline, operation())
            }
        }
    }

    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, until deadline: Double? = nil,
                                _ operation: @autoclosure () -> String) throws(SystemError) {
        try writeAll(fd, bytes, until: deadline, operation()) { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    /// `writeAll`, for callers that only need to know whether it all went (a log line).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? writeAll(fd, bytes, "writing")) != nil  // the caller logs nothing more for a lost log line
    }

    public static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Waits with poll(2) until `fd` takes more, or throws ETIMEDOUT once `deadline` passes.
    public static func waitUntilWritable(_ fd: Int32, until deadline: Double?, _ operation: @autoclosure () -> String) throws(SystemError) {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let timeout = deadline.map { pollMilliseconds(until: $0) } ?? -1
            if try syscall(operation(), { poll(&entry, 1, timeout) }) > 0 { return }
            if let deadline, monotonicSeconds() >= deadline { throw SystemError(errno: ETIMEDOUT, operation()) }
        }
    }

    /// For poll(2): milliseconds until `deadline` (monotonic seconds), rounded up, 0 to an hour.
    public static func pollMilliseconds(until deadline: Double) -> Int32 {
        let left = deadline - monotonicSeconds()
        guard left > 0 else { return 0 }
        return Int32(min(left, 3_600) * 1000 + 0.999)
    }

    /// One write(2) on a non-blocking descriptor, retried on EINTR: how much it took, or
    /// `.wouldBlock` when it is full (the loop's pipes and sockets).
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ operation: @autoclosure () -> String) throws(SystemError) -> IOResult<Int> {
        try nonBlockingSyscall(operation()) { Glibc.write(fd, bytes.baseAddress, bytes.count) }
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

    /// `realpath(3)`: the absolute path with every symbolic link and `.`/`..` resolved.
    public static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemError(errno: Glibc.errno, "resolving \(path)") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A path's folder and last component: `/a/b.ics` → (`/a`, `b.ics`), `/b` → (`/`, `b`),
    /// `b` → (`.`, `b`).
    public static func splitPath(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// The user's home from the password database, for when `HOME` is not set; `/` if
    /// there is none.
    public static func homeDirectory() -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let directory = entry.pw_dir else { return "/" }
        let home = String(cString: directory)
        return home.isEmpty ? "/" : home
    }

    /// The current time on the monotonic clock, in whole microseconds (as sd_notify's
    /// MONOTONIC_USEC= wants it), in integers throughout: nothing to round or trap on.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(clamping: now.tv_sec) &* 1_000_000 &+ UInt64(clamping: now.tv_nsec / 1_000)
    }

    /// The current time on the monotonic clock, in seconds.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
