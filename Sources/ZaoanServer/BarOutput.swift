import Glibc
import ZaoanCore

/// A bar's standard output, handed over by `zaoan bar` with its `watch --format=i3bar
/// blocks ...` request (SCM_RIGHTS). The service writes each status line straight into the
/// pipe i3bar or swaybar reads, as one element of the i3bar protocol's endless array
/// (`[...],` and LF), so the bar process sleeps instead of waking every second to relay:
/// ten bars cost one render and ten writes.
///
/// Only the write end of an anonymous pipe is taken: a regular file (on NFS or FUSE) could
/// block the loop, a named FIFO's checks can reach its file system, and a terminal or a
/// socket is not what a bar gives its status command. The handed descriptor is never written
/// to: its open file description, and so its O_NONBLOCK flag, is shared with the sender,
/// who could clear the flag and fill the pipe to block the loop's one thread. The pipe is
/// opened anew through /proc/self/fd (`O_NONBLOCK` on a description only the service
/// holds) and the handed descriptor closed. A line of at most `PIPE_BUF` bytes goes in one
/// write or not at all, so the pipe only ever holds whole lines; the rest of a longer one is
/// finished first. While the pipe is full only the newest line waits, as for a watcher on a
/// socket: a bar that catches up sees the present.
final class BarOutput: EventHandler {
    /// The service's own description of the pipe; nil once closed.
    private var pipe: Descriptor?
    var fd: Int32 { pipe?.rawValue ?? -1 }
    private unowned let connection: Channel
    private let loop: EventLoop
    /// The rest of a line the pipe took only part of (longer than `PIPE_BUF`).
    private var unwritten: [UInt8] = []
    /// The newest line, waiting for room.
    private var waiting: Reply?
    private var registered = false

    /// What ends each line: the array's comma, then LF.
    private static let separator: [UInt8] = [UInt8(ascii: ","), 0x0A]

    /// Takes the pipe `passed` is the write end of, through a description of the service's
    /// own; `passed` ends here in every case, and the result says why if the pipe is not taken.
    static func adopt(_ passed: consuming Descriptor, for connection: Channel, loop: EventLoop) -> Result<BarOutput, SystemError> {
        let handed = passed.rawValue
        // Neither check reaches a file system: the link's text and the access mode are the kernel's.
        guard isAnonymousPipe(handed) else {
            return .failure(SystemError(errno: EINVAL, "the bar's output is not an anonymous pipe (a file, a named FIFO, a terminal or a socket)"))
        }
        let flags: Int32
        do throws(SystemError) { flags = try syscall("checking the bar's output") { fcntl(handed, F_GETFL) } } catch { return .failure(error) }
        guard flags & O_ACCMODE != O_RDONLY else {
            return .failure(SystemError(errno: EINVAL, "the bar's output is the read end of its pipe, not the write end"))
        }
        // ENXIO: nobody reads the pipe any more; EACCES: it belongs to another user.
        return Result { () throws(SystemError) in
            BarOutput(pipe: try Descriptor.open("/proc/self/fd/\(handed)", O_WRONLY | O_NONBLOCK,
                                                "opening the bar's pipe for the service alone (/proc/self/fd)"),
                      connection: connection, loop: loop)
        }
    }

    /// Whether `fd` is an anonymous pipe (`pipe(2)`): its /proc link reads `pipe:[inode]`.
    private static func isAnonymousPipe(_ fd: Int32) -> Bool {
        (try? Posix.readLink("/proc/self/fd/\(fd)"))?.hasPrefix("pipe:[") == true  // unreadable: not taken
    }

    private init(pipe: consuming Descriptor, connection: Channel, loop: EventLoop) {
        self.pipe = Optional(pipe)
        self.connection = connection
        self.loop = loop
    }

    /// Something waits for the pipe: the bar's reader is behind.
    var isBehind: Bool { !unwritten.isEmpty || waiting != nil }

    /// Writes a status line (a reply ending in LF) now, or keeps it as the newest waiting.
    /// Returns false if the pipe is broken (the bar is gone): the caller closes the connection.
    func send(_ reply: Reply) -> Bool {
        if isBehind {
            waiting = reply
            return true
        }
        return write(reply)
    }

    private func write(_ reply: Reply) -> Bool {
        let line = reply.bytes.last == 0x0A ? reply.bytes.dropLast() : reply.bytes[...]
        let total = line.count + Self.separator.count
        let fd = self.fd
        let result = line.withUnsafeBytes { body in
            Self.separator.withUnsafeBytes { end in
                var vectors = [iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress), iov_len: body.count),
                               iovec(iov_base: UnsafeMutableRawPointer(mutating: end.baseAddress), iov_len: end.count)]
                return try? nonBlockingSyscall("writing to the bar's pipe") { writev(fd, &vectors, 2) }  // nil: EPIPE, the bar is gone
            }
        }
        switch result {
        case nil:
            return false  // EPIPE: the bar is gone
        case .wouldBlock?:
            waiting = reply  // none of it went: the newest line replaces it while it waits
        case .value(let written)? where written < total:
            unwritten = Array((Array(line) + Self.separator)[written...])
        case .value?:
            return true
        }
        connection.outputProgressed()  // the stuck-client clock starts now
        return waitForPipe()
    }

    /// The pipe is writable again: the rest of the line, then the newest waiting one.
    func handle(events: UInt32) {
        guard drain() else {
            connection.close()
            return
        }
    }

    private func drain() -> Bool {
        while !unwritten.isEmpty {
            let fd = self.fd, pending = unwritten  // written from a copy, not the property (`changeOutOfPlace`)
            guard let result = pending.withUnsafeBytes({ try? Posix.write(fd, $0, "writing to the bar's pipe") }) else { return false }  // EPIPE: the bar is gone
            guard case .value(let written) = result else { return true }  // full: wait for the next writable event
            changeOutOfPlace(self, \.unwritten) { $0.removeFirst(written) }
            connection.outputProgressed()
        }
        if let next = waiting {
            waiting = nil
            guard write(next) else { return false }
            if isBehind { return true }  // still full: wait for the next writable event
            connection.outputProgressed()
        }
        if registered {
            loop.unregister(fd)
            registered = false
        }
        return true
    }

    private func waitForPipe() -> Bool {
        guard !registered else { return true }
        do {
            try loop.register(fd, events: EventLoop.writable, handler: self)
            registered = true
            return true
        } catch {
            Log.warning("\(error); ending the bar's watch")
            return false
        }
    }

    func close() {
        if registered { loop.unregister(fd) }
        registered = false
        pipe = nil
    }
}
