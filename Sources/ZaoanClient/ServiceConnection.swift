import CLinux
import Glibc
import ZaoanSystem

/// One connection to the service, as every client uses it (`ask`, `watch`, `bar`, the
/// bench): every wait bounded by a deadline, and everything kept from the server bounded in
/// size (`ClientLimits`). Lines are cut by the service's own `LineFramer`.
public final class ServiceConnection {
    /// nil once closed.
    private var socket: Descriptor?
    public let path: String
    private var framer = LineFramer(lineLimit: ClientLimits.maxLine)
    /// One read buffer for the connection's life, not one per read; made on the first
    /// read (the bench reads into its own).
    private lazy var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    /// The socket, for poll entries and peer credentials; -1 once closed (poll skips it).
    public var fd: Int32 { socket?.rawValue ?? -1 }

    /// Connects to `path` (see `ServiceSocket.locate` for the default one). Non-blocking
    /// unless `blocking` (the bench, which waits in recv(2) rather than poll(2) and recv).
    public init(path: String, blocking: Bool = false, deadline: Deadline) throws(ClientError) {
        let address: UnixAddress
        do {
            address = try UnixAddress(path: path)
        } catch {
            throw .badArgument(error.description)
        }
        self.path = path
        // A full listen queue (EAGAIN) means the service is there but behind: try again, every
        // 2 ms, until the deadline. Any other failure is final.
        while socket == nil {
            do {
                socket = try address.connect(blocking: blocking)
            } catch where error.errno == EAGAIN || error.errno == EINPROGRESS {
                guard !deadline.hasPassed else { throw .timedOut(path: path, seconds: deadline.seconds, waitingFor: "connection") }
                usleep(2_000)
            } catch {
                throw .unreachable(path: path, reason: ServiceConnection.reason(error))
            }
        }
    }

    /// Sends one request line (LF added); `passing` a descriptor sends it with the line's
    /// first bytes (SCM_RIGHTS).
    public func send(_ line: String, passing descriptor: Int32? = nil, deadline: Deadline) throws(ClientError) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        do throws(SystemError) {
            try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try send(raw, passing: descriptor, until: deadline.at) } }.get()
        } catch where error.errno == ETIMEDOUT {
            throw .timedOut(path: path, seconds: deadline.seconds, waitingFor: "room to send the request")
        } catch {
            throw .io(path: path, reason: "sending the request: \(String(cString: strerror(error.errno)))")
        }
    }

    /// Sends all of `bytes` (`Posix.writeAll`), without SIGPIPE; nil `deadline` waits as long
    /// as it takes. `passing` goes with the first bytes that are sent.
    public func send(_ bytes: UnsafeRawBufferPointer, passing descriptor: Int32? = nil, until deadline: Double?) throws(SystemError) {
        let fd = self.fd
        var attached = descriptor
        try Posix.writeAll(fd, bytes, until: deadline, "sending the request") { piece in
            guard let passed = attached else { return Glibc.send(fd, piece.baseAddress, piece.count, Int32(MSG_NOSIGNAL)) }
            let sent = zaoan_send_with_descriptor(fd, piece.baseAddress, piece.count, passed)
            if sent > 0 { attached = nil }
            return sent
        }
    }

    /// One recv(2) into `buffer`: the bytes read (0: the service closed the connection), or
    /// `.wouldBlock` when nothing is waiting on a non-blocking socket (or with MSG_DONTWAIT).
    @inline(__always)
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(SystemError) -> IOResult<Int> {
        let fd = self.fd
        return try nonBlockingSyscall("reading the answer") { recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    private func receiveIntoChunk() throws(SystemError) -> IOResult<Int> {
        try chunk.withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try receive(into: raw) } }.get()
    }

    /// Half-closes: the service sees the end of the request (one-shot).
    public func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Everything until the service closes the connection: `ask`'s answer.
    public func readToEnd(limit: Int = ClientLimits.maxAnswer, deadline: Deadline) throws(ClientError) -> [UInt8] {
        var answer: [UInt8] = []
        while true {
            let result: IOResult<Int>
            do throws(SystemError) { result = try receiveIntoChunk() } catch {
                throw .io(path: path, reason: "reading the answer: \(String(cString: strerror(error.errno)))")
            }
            switch result {
            case .value(0):
                return answer
            case .value(let count):
                answer.append(contentsOf: chunk[0..<count])
                guard answer.count <= limit else { throw .tooLarge(path: path, what: "an answer", limit: limit) }
            case .wouldBlock:
                try wait(for: Int16(POLLIN), deadline: deadline, what: answer.isEmpty ? "answer" : "end of the answer")
            }
        }
    }

    /// The lines waiting now (without LF or CR LF), without blocking, and whether the
    /// connection is still open. A line past `ClientLimits.maxLine` ends it with an error.
    public func readLines() throws(ClientError) -> (lines: [String], open: Bool) {
        var open = true
        var lines: [String] = []
        var tooLong = false
        reading: while true {
            let result = (try? receiveIntoChunk()) ?? .value(0)  // a failed read (ECONNRESET) ends the answer as EOF does
            switch result {
            case .wouldBlock:
                break reading
            case .value(0):
                open = false  // EOF, or the service reset the connection
                break reading
            case .value(let count):
                chunk.withUnsafeBytes { raw in
                    framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { frame in
                        switch frame {
                        case .line(let bytes): lines.append(String(decoding: bytes, as: UTF8.self))
                        case .tooLong: tooLong = true
                        }
                        return true
                    }
                }
                guard !tooLong else {
                    close()
                    throw .tooLarge(path: path, what: "a line", limit: ClientLimits.maxLine)
                }
                // Bounded work per call, so a flood of lines cannot keep the caller here.
                if lines.count >= 256 { break reading }
            }
        }
        if !open { close() }
        return (lines, open)
    }

    /// Waits until the socket is ready for `events`, or throws when the deadline passes.
    public func wait(for events: Int16, deadline: Deadline, what: String) throws(ClientError) {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let ready: Int32
            do throws(SystemError) { ready = try syscall("waiting for the service") { poll(&entry, 1, deadline.pollMilliseconds) } } catch {
                throw .io(path: path, reason: "waiting for the \(what): \(String(cString: strerror(error.errno)))")
            }
            if ready > 0 { return }
            if deadline.hasPassed { throw .timedOut(path: path, seconds: deadline.seconds, waitingFor: what) }
        }
    }

    public func close() {
        socket = nil
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
