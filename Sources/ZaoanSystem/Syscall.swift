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

    /// EAGAIN or EWOULDBLOCK: a non-blocking descriptor has no room or no data now.
    public var isWouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}

/// What a call on a non-blocking descriptor did: its value, or nothing because the
/// descriptor would have blocked (no data to read, no room to write).
public enum IOResult<Value> {
    case value(Value)
    case wouldBlock
}

/// Makes a C call that returns -1 (or any negative value) and sets errno on failure,
/// retrying it while it fails with EINTR when `retryOnInterrupt` (the default), as
/// swift-system's `valueOrErrno(retryOnInterrupt:)` and swift-nio's `syscall` do.
///
/// The one place zaoan checks EINTR. `operation` is built only when the call fails, so the
/// success path costs the call and one comparison.
/// - Throws: `SystemError` with errno and `operation`.
@inlinable @inline(__always)
public func syscall<Result: BinaryInteger>(retryOnInterrupt: Bool = true, _ operation: @autoclosure () -> String,
                                           _ call: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR && retryOnInterrupt { continue }
        throw SystemError(errno: code, operation())
    }
}

/// `syscall` for a non-blocking descriptor: EAGAIN/EWOULDBLOCK come back as `.wouldBlock`
/// (no error is built for them: a drained socket is the normal case on the loop), EINTR is
/// retried, anything else throws.
@inlinable @inline(__always)
public func nonBlockingSyscall<Result: BinaryInteger>(_ operation: @autoclosure () -> String,
                                                      _ call: () -> Result) throws(SystemError) -> IOResult<Result> {
    while true {
        let result = call()
        if result >= 0 { return .value(result) }
        let code = Glibc.errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(errno: code, operation())
    }
}

/// The error for a C call that just failed and set errno, for the callers that do not go
/// through `syscall` because they go on after the failure (a log line, a fallback).
public func syscallFailure(_ operation: String) -> SystemError {
    SystemError(errno: Glibc.errno, operation)
}

/// A C call that returns 0 or an error number itself, leaving errno alone (pthread_create,
/// posix_spawn).
/// - Throws: `SystemError` with the number it returned.
@inlinable
public func errorNumberCall(_ operation: @autoclosure () -> String, _ call: () -> Int32) throws(SystemError) {
    let result = call()
    if result != 0 { throw SystemError(errno: result, operation()) }
}

/// A C call that returns a negative error number on failure (libsystemd's `sd_*`): its
/// value when it is 0 or more.
/// - Throws: `SystemError` with the number negated.
@inlinable
public func negativeErrnoCall(_ operation: @autoclosure () -> String, _ call: () -> Int32) throws(SystemError) -> Int32 {
    let result = call()
    if result < 0 { throw SystemError(errno: result == Int32.min ? EINVAL : -result, operation()) }
    return result
}
