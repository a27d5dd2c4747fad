import Glibc

/// A pipe(2)'s two ends, each owned and close-on-exec: a child gets only what it is given
/// (posix_spawn's dup2), and an end the parent is done with is closed by consuming it.
@frozen
public struct PipeEnds: ~Copyable {
    public let readEnd: Descriptor
    public let writeEnd: Descriptor

    public init(_ operation: @autoclosure () -> String) throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        _ = try syscall(operation()) { pipe(&ends) }  // 0 on success; errors throw
        readEnd = Descriptor(taking: ends[0])
        writeEnd = Descriptor(taking: ends[1])
        Posix.setCloseOnExec(ends[0])
        Posix.setCloseOnExec(ends[1])
    }
}
