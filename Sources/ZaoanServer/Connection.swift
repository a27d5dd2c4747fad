import Glibc
import ZaoanCore

/// One client. Bytes in → lines (LineFramer) → requests (RequestParser) → replies
/// (Responder, through the server) → bytes out, all on the loop's thread.
///
/// One-shot by default: once every complete line read so far is answered and nothing more
/// is buffered, the connection closes after its output is written. `session` keeps it open.
final class Connection: EventHandler {
    enum Mode { case oneShot, session }

    /// Output beyond this stops reading from the client until it catches up (backpressure).
    static let outputHighWater = 256 * 1024

    let fd: Int32
    private unowned let server: Server
    private var framer = LineFramer()
    private var output: [UInt8] = []
    private var outputSent = 0
    private(set) var mode = Mode.oneShot
    /// Close once the pending output is written; read nothing more.
    private(set) var closing = false
    private(set) var closed = false
    private(set) var lastActivity: Double
    private var interest: UInt32

    init(fd: Int32, server: Server, now: Double) {
        self.fd = fd
        self.server = server
        self.lastActivity = now
        self.interest = EventLoop.readable
    }

    var hasPendingOutput: Bool { outputSent < output.count }

    func handle(events: UInt32) {
        if events & (EventLoop.readable | EventLoop.hangup) != 0 && !closing {
            readInput()
        }
        if !closed && (events & EventLoop.writable != 0 || events & EventLoop.hangup != 0) {
            flush()
        }
    }

    /// Reads once (level-triggered: the loop calls again if more is waiting), answers every
    /// complete line, then writes.
    func readInput() {
        let buffer = server.readBuffer
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            lastActivity = server.monotonicNow
            var answered = false
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { frame in
                answered = true
                return handle(frame)
            }
            if mode == .oneShot && answered && !framer.hasPartialLine {
                closing = true
            }
        } else if count == 0 {
            framer.finish { handle($0) }
            closing = true
        } else {
            let code = errno
            if code == EAGAIN || code == EINTR { return }
            close()
            return
        }
        flush()
    }

    private func handle(_ frame: LineFramer.Frame) -> Bool {
        switch frame {
        case .tooLong:
            append(.error(ProtocolError(.tooLong, "request line longer than \(LineFramer.maxLineLength) bytes; closing the connection")))
            closing = true
            return false
        case .line(let bytes):
            let request: Request
            do {
                guard let parsed = try RequestParser.parse(bytes) else { return true }
                request = parsed
            } catch {
                server.countRequest()
                append(.error(error))
                return true
            }
            server.countRequest()
            switch request {
            case .session:
                mode = .session
                append(.ok)
            case .quit:
                append(server.answer(request))
                closing = true
                return false
            default:
                append(server.answer(request))
            }
            return true
        }
    }

    private func append(_ reply: Reply) {
        if outputSent == output.count {
            output.removeAll(keepingCapacity: true)
            outputSent = 0
        }
        output.append(contentsOf: reply.bytes)
    }

    /// Writes what is pending; asks for writability only while something is left.
    func flush() {
        while outputSent < output.count {
            let sent = output.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + outputSent, bytes.count - outputSent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                outputSent += sent
                continue
            }
            let code = errno
            if sent < 0 && code == EINTR { continue }
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) { break }
            close()  // EPIPE, ECONNRESET: the client went away without reading
            return
        }
        if !hasPendingOutput && closing {
            close()
            return
        }
        var wanted: UInt32 = 0
        if hasPendingOutput { wanted |= EventLoop.writable }
        if !closing && output.count - outputSent < Self.outputHighWater { wanted |= EventLoop.readable }
        if wanted != interest {
            interest = wanted
            do { try server.loop.modify(fd, events: wanted) } catch { close() }
        }
    }

    /// Ends the connection at the next chance: at once if nothing is pending.
    func finishSoon() {
        closing = true
        flush()
    }

    func close() {
        guard !closed else { return }
        closed = true
        server.loop.unregister(fd)
        drainUnreadInput()
        Posix.close(fd)
        server.connectionClosed(self)
    }

    /// Closing a Unix socket with unread input makes the peer's read fail with ECONNRESET,
    /// which can hide our last answer from it (`ERR too-long`). Read away what is queued first.
    private func drainUnreadInput() {
        let buffer = server.readBuffer
        for _ in 0..<4 {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { break }
        }
    }
}
