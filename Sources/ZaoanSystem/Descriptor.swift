import Glibc

/// An open file descriptor, owned: it is closed exactly once, when the value ends (or by
/// `close()`, which ends it), and the compiler refuses a copy, so no path can close it twice
/// or keep using a number that was closed and handed to someone else.
///
/// swift-system's `FileDescriptor` is the model for the calls, but it does not own its
/// number (it predates `~Copyable`), which leaves every error path its `defer { close }`;
/// here the owner is the value. `rawValue` is for the C boundary only (poll entries,
/// `epoll_ctl`, `fstatat` in an open folder); `release()` hands the number on to code that
/// keeps raw descriptors (the loop's registrations) without closing it.
public struct Descriptor: ~Copyable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, an open descriptor nothing else will close.
    public init(taking rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { Posix.close(rawValue) }

    /// Closes the descriptor now.
    public consuming func close() {}

    /// Gives up ownership without closing: the caller closes the number it gets.
    public consuming func release() -> Int32 {
        let number = rawValue
        discard self
        return number
    }

    /// `openat(2)`, retried on EINTR, close-on-exec always.
    public static func open(_ name: String, in directory: Int32 = AT_FDCWD, _ flags: Int32, mode: mode_t = 0,
                            _ operation: @autoclosure () -> String) throws(SystemError) -> Descriptor {
        Descriptor(taking: try syscall(operation()) { openat(directory, name, flags | O_CLOEXEC, mode) })
    }

    /// `fstat(2)`.
    public func status(_ operation: @autoclosure () -> String) throws(SystemError) -> stat {
        var info = stat()
        _ = try syscall(operation()) { fstat(rawValue, &info) }  // 0 on success; errors throw
        return info
    }

    /// One `read(2)` into `buffer`, retried on EINTR: the bytes read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, _ operation: @autoclosure () -> String) throws(SystemError) -> Int {
        try syscall(operation()) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// One `write(2)` on a non-blocking descriptor: see `Posix.write`.
    public func write(_ bytes: UnsafeRawBufferPointer, _ operation: @autoclosure () -> String) throws(SystemError) -> IOResult<Int> {
        try Posix.write(rawValue, bytes, operation())
    }

    /// All of `bytes`: see `Posix.writeAll`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, until deadline: Double? = nil,
                         _ operation: @autoclosure () -> String) throws(SystemError) {
        try Posix.writeAll(rawValue, bytes, until: deadline, operation())
    }

    /// All of `bytes`, on a blocking descriptor (a file being written).
    public func writeAll(_ bytes: [UInt8], _ operation: @autoclosure () -> String) throws(SystemError) {
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try Posix.writeAll(rawValue, raw, operation()) }
        }
        try written.get()
    }
}
