import Glibc
import ZaoanClient
import ZaoanSystem
import ZaoanText

/// The delay before the next reconnection attempt: short at first (half a second, then
/// doubling), so a restarted service is picked up quickly, then every `limit` seconds
/// (--retry-after, 2 s by default) for as long as it takes.
struct Backoff {
    let limit: Double
    private var next: Double

    init(limit: Double = ClientLimits.defaultRetryAfter) {
        self.limit = limit
        next = min(0.5, limit)
    }

    mutating func delay() -> Double {
        defer { next = min(next * 2, limit) }
        return next
    }

    mutating func reset() { next = min(0.5, limit) }
}

/// poll(2), retried on EINTR. `timeout` in seconds; nil waits for ever.
func pollDescriptors(_ entries: inout [pollfd], timeout: Double?) {
    let milliseconds = timeout.map { $0.isFinite ? Int32(max(0, min($0, 3600)) * 1000 + 0.999) : 0 } ?? -1
    // A failed poll (EINVAL, ENOMEM) returns as a timeout would: the callers read, or give up, after it.
    _ = try? entries.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
        try syscall("poll") { poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds) }
    }
}

/// Where `zaoan watch` and `zaoan bar` write: fd 1 through write(2), one whole line at a
/// time and never buffered, because bars act on each line as it arrives.
enum StandardOutput {
    /// A closed reader must end the program quietly, not kill it with SIGPIPE mid-line.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text`, all of it (waiting for room if someone handed us a non-blocking
    /// stdout); if the reader has gone (EPIPE), exits with status 0.
    static func write(_ text: String) {
        if !Posix.writeAll(1, text) { exit(0) }  // EPIPE: the bar or the pipe's reader is gone
    }

    /// A poll entry that reports the reader going away (a pipe's read end closed: POLLERR),
    /// so a producer whose bar has died exits even while it has nothing to write.
    static var hangupEntry: pollfd { pollfd(fd: 1, events: 0, revents: 0) }

    static func readerIsGone(_ entry: pollfd) -> Bool {
        entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }
}
