import CLinux
import Glibc
import ZaoanSystem

/// One connection to the service, as every client uses it: non-blocking, every wait bounded
/// by a deadline, and everything kept from the server bounded in size (`ClientLimits`).
public final class ServiceConnection {
    public let fd: Int32
    public let path: String
    private var pending: [UInt8] = []
    private var closed = false

    /// Connects to `path` (see `ServiceSocket.locate` for the default one).
    public init(path: String, deadline: Deadline) throws(ClientError) {
        let address: UnixAddress
        do {
            address = try UnixAddress(path: path)
        } catch {
            throw .badArgument(error.description)
        }
        // A full listen queue (EAGAIN) means the service is there but behind: try again, every
        // 2 ms, until the deadline. Any other failure is final.
        var connected: Int32?
        while connected == nil {
            do {
                connected = try address.connect(blocking: false)
            } catch where error.errno == EAGAIN || error.errno == EINPROGRESS {
                guard !deadline.hasPassed else { throw .timedOut(path: path, seconds: deadline.seconds, waitingFor: "connection") }
                usleep(2_000)
            } catch {
                throw .unreachable(path: path, reason: ServiceConnection.reason(error))
            }
        }
        self.fd = connected!
        self.path = path
    }

    deinit { close() }

    /// Sends one request line (LF added); `passing` a descriptor sends it with the line's
    /// first bytes (SCM_RIGHTS).
    public func send(_ line: String, passing descriptor: Int32? = nil, deadline: Deadline) throws(ClientError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        var attached = descriptor
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                if let passed = attached {
                    return zaoan_send_with_descriptor(fd, buffer.baseAddress! + offset, buffer.count - offset, passed)
                }
                return Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                attached = nil
                offset += sent
                continue
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw .io(path: path, reason: "sending the request: \(String(cString: strerror(errno)))")
            }
            try wait(for: Int16(POLLOUT), deadline: deadline, what: "room to send the request")
        }
    }

    /// Half-closes: the service sees the end of the request (one-shot).
    public func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Everything until the service closes the connection: `ask`'s answer.
    public func readToEnd(limit: Int = ClientLimits.maxAnswer, deadline: Deadline) throws(ClientError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                guard pending.count <= limit else { throw .tooLarge(path: path, what: "an answer", limit: limit) }
                continue
            }
            if count == 0 { return pending }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw .io(path: path, reason: "reading the answer: \(String(cString: strerror(errno)))")
            }
            try wait(for: Int16(POLLIN), deadline: deadline, what: pending.isEmpty ? "answer" : "end of the answer")
        }
    }

    /// The lines waiting now (without LF or CR LF), without blocking, and whether the
    /// connection is still open. A line past `ClientLimits.maxLine` ends it with an error.
    public func readLines() throws(ClientError) -> (lines: [String], open: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var open = true
        var lines: [String] = []
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                lines += takeLines()
                guard pending.count <= ClientLimits.maxLine else {
                    close()
                    throw .tooLarge(path: path, what: "a line", limit: ClientLimits.maxLine)
                }
                // Bounded work per call, so a flood of lines cannot keep the caller here.
                if lines.count >= 256 { break reading }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            open = false  // EOF, or the service reset the connection
            break
        }
        if !open { close() }
        return (lines, open)
    }

    private func takeLines() -> [String] {
        var lines: [String] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            var end = newline
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            lines.append(String(decoding: pending[start..<end], as: UTF8.self))
            start = newline + 1
        }
        pending.removeFirst(start)
        return lines
    }

    /// Waits until the socket is ready for `events`, or throws when the deadline passes.
    public func wait(for events: Int16, deadline: Deadline, what: String) throws(ClientError) {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 || deadline.hasPassed { throw .timedOut(path: path, seconds: deadline.seconds, waitingFor: what) }
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    private static func reason(_ error: SystemError) -> String {
        switch error.errno {
        case ENOENT: return "no socket there"
        case ECONNREFUSED: return "nothing is listening on it"
        case EACCES: return "permission denied"
        default: return String(cString: strerror(error.errno))
        }
    }
}
