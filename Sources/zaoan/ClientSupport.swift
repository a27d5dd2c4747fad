import Glibc
import ZaoanServer

/// One connection that watches a request: it sends `watch ...` and hands back the answer's
/// lines as they arrive. Its sending side stays open, because the service ends a watch when
/// the client closes it or sends another line.
final class WatchStream {
    let fd: Int32
    let socketPath: String
    private var pending: [UInt8] = []
    private var isClosed = false
    /// A line longer than this is not an answer from zaoan; the stream is dropped.
    static let maxLineLength = 64 * 1024

    /// Connects and sends `requestLine` (without its LF).
    init(socketPath: String, requestLine: String) throws(Client.Failure) {
        let fd = try Client.connect(socketPath: socketPath)
        do {
            try Client.send(requestLine, on: fd, socketPath: socketPath)
        } catch {
            Glibc.close(fd)
            throw error
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        self.fd = fd
        self.socketPath = socketPath
    }

    deinit { close() }

    /// Reads what is waiting. Returns the complete lines (without LF or CR LF) and whether
    /// the connection is still open; at EOF or on an error it is closed here.
    func readLines() -> (lines: [String], open: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var open = true
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            open = false  // EOF, or the service reset the connection
            break
        }
        var lines: [String] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            var end = newline
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            lines.append(String(decoding: pending[start..<end], as: UTF8.self))
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > Self.maxLineLength { open = false }
        if !open { close() }
        return (lines, open)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }
}

/// The delay before the next reconnection attempt: short at first, so a restarted service
/// is picked up quickly, then every `limit` seconds for as long as it takes.
struct Backoff {
    static let limit = 2.0
    private var next = 0.5

    mutating func delay() -> Double {
        defer { next = min(next * 2, Self.limit) }
        return next
    }

    mutating func reset() { next = 0.5 }
}

/// The monotonic clock, in seconds.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// poll(2), retried on EINTR. `timeout` in seconds; nil waits for ever.
func pollDescriptors(_ entries: inout [pollfd], timeout: Double?) {
    let milliseconds = timeout.map { Int32(max(0, min($0, 3600)) * 1000 + 0.999) } ?? -1
    while true {
        let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        if ready >= 0 || errno != EINTR { return }
    }
}

/// Where `zaoan watch` and `zaoan bar` write: fd 1 through write(2), one whole line at a
/// time and never buffered, because bars act on each line as it arrives.
enum StandardOutput {
    /// A closed reader must end the program quietly, not kill it with SIGPIPE mid-line.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text`; if the reader has gone (EPIPE), exits with status 0.
    static func write(_ text: String) {
        var copy = text
        let written = copy.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        // Someone handed us a non-blocking stdout: wait until it takes more.
                        var entry = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&entry, 1, -1)
                        continue
                    }
                    return false
                }
                offset += count
            }
            return true
        }
        if !written { exit(0) }  // EPIPE: the bar or the pipe's reader is gone
    }

    /// A poll entry that reports the reader going away (a pipe's read end closed: POLLERR),
    /// so a producer whose bar has died exits even while it has nothing to write.
    static var hangupEntry: pollfd { pollfd(fd: 1, events: 0, revents: 0) }

    static func readerIsGone(_ entry: pollfd) -> Bool {
        entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }
}

func printError(_ message: String) {
    var text = "zaoan: " + message + "\n"
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
}
