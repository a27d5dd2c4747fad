import CSystemd
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
    private unowned(unsafe) let server: Server
    private var framer = LineFramer()
    private var output: [UInt8] = []
    private var outputSent = 0
    private(set) var mode = Mode.oneShot
    /// Close once the pending output is written; read nothing more.
    private(set) var closing = false
    private(set) var closed = false
    /// The client closed its side (EOF).
    private var inputEnded = false
    private var answeredAny = false
    /// Lines wait in the framer until the client reads what it was sent.
    private var pausedForOutput = false
    private(set) var lastActivity: Double
    let acceptedAt: Double
    private var interest: UInt32
    /// The uid of the peer process (SO_PEERCRED), for rights on changes.
    let peer: PeerCredentials?
    /// Set while this connection watches a request.
    private(set) var watch: WatchHub.Ticket?
    /// A watcher that cannot keep up keeps only the newest frame waiting here.
    private var queuedFrame: Reply?
    /// When output last made progress (or was empty), to close a stuck watcher.
    private(set) var lastOutputProgress: Double

    init(fd: Int32, server: Server, now: Double) {
        self.fd = fd
        self.server = server
        self.lastActivity = now
        self.acceptedAt = now
        self.lastOutputProgress = now
        self.interest = EventLoop.readable
        self.peer = PeerCredentials(socket: fd)
    }

    var hasPendingOutput: Bool { outputSent < output.count }

    /// The client, for debug lines.
    private var who: String {
        peer.map { "client pid \($0.pid) uid \($0.uid)" } ?? "client on fd \(fd)"
    }

    func handle(events: UInt32) {
        if events & (EventLoop.readable | EventLoop.hangup) != 0 && !closing && !pausedForOutput {
            readInput()
        }
        if !closed && (events & EventLoop.writable != 0 || events & EventLoop.hangup != 0) {
            flush()
        }
    }

    /// Reads once (level-triggered: the loop calls again if more is waiting), answers the
    /// complete lines, then writes.
    func readInput() {
        let buffer = server.readBuffer
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            lastActivity = server.monotonicNow
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { handle($0) }
        } else if count == 0 {
            inputEnded = true
        } else {
            let code = errno
            if code == EAGAIN || code == EINTR { return }
            close()
            return
        }
        decideAfterInput()
        flush()
    }

    /// After lines were taken: end of input answers an unterminated last line and closes; a
    /// one-shot connection closes once everything read so far is answered.
    private func decideAfterInput() {
        guard !closing, !pausedForOutput else { return }
        if inputEnded {
            if watch != nil {
                endWatch()  // closing the input ends a watch
            } else {
                framer.finish { handle($0) }
            }
            closing = true
        } else if mode == .oneShot && answeredAny && !framer.hasBufferedInput && watch == nil {
            closing = true
        }
    }

    /// Answers one frame. Returns whether to take the next line: not when closing, and not
    /// while a client that does not read has `outputHighWater` bytes waiting (the rest of its
    /// input waits in the framer, and reading stops, until it catches up).
    private func handle(_ frame: LineFramer.Frame) -> Bool {
        answeredAny = true
        let keepGoing = answer(frame)
        if keepGoing && output.count - outputSent >= Self.outputHighWater {
            pausedForOutput = true
            return false
        }
        return keepGoing
    }

    private func answer(_ frame: LineFramer.Frame) -> Bool {
        switch frame {
        case .tooLong:
            append(.error(ProtocolError(.tooLong, "request line longer than \(LineFramer.maxLineLength) bytes; closing the connection")))
            closing = true
            return false
        case .line(let bytes):
            if watch != nil {
                // Any further line ends the watch; in a session it is then answered as usual.
                endWatch()
                if mode == .oneShot {
                    closing = true
                    return false
                }
            }
            let request: Request
            do {
                guard let parsed = try RequestParser.parse(bytes) else { return true }
                request = parsed
            } catch {
                server.countRequest()
                Log.debug("\(self.who): \(error)")
                append(.error(error))
                return true
            }
            server.countRequest()
            Log.debug("\(self.who): \(request.commandWord)")
            switch request {
            case .session:
                mode = .session
                append(.ok)
            case .quit:
                append(server.answer(request))
                closing = true
                return false
            case .watch(let inner):
                let (ticket, first) = server.watches.add(self, request: inner)
                watch = ticket
                server.statusChanged()
                append(first)
            case _ where request.isMutation:
                append(server.change(request, from: self))
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
            lastOutputProgress = server.monotonicNow
        }
        output.append(contentsOf: reply.bytes)
    }

    /// A watch update. If the client has not read the last one yet, only the newest waits:
    /// stale frames are dropped so a stalled watcher costs bounded memory.
    func sendFrame(_ reply: Reply) {
        guard !closing, !closed else { return }
        if hasPendingOutput {
            queuedFrame = reply
            return
        }
        append(reply)  // resets lastOutputProgress: nothing was pending
        flush()
    }

    private func endWatch() {
        guard let ticket = watch else { return }
        server.watches.remove(self, ticket: ticket)
        watch = nil
        queuedFrame = nil
        server.statusChanged()
    }

    /// Writes what is pending; asks for writability only while something is left.
    func flush() {
        while outputSent < output.count || queuedFrame != nil {
            if outputSent == output.count, let frame = queuedFrame {
                queuedFrame = nil
                append(frame)
            }
            let sent = output.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + outputSent, bytes.count - outputSent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                outputSent += sent
                lastOutputProgress = server.monotonicNow
                continue
            }
            let code = errno
            if sent < 0 && code == EINTR { continue }
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) { break }
            close()  // EPIPE, ECONNRESET: the client went away without reading
            return
        }
        if pausedForOutput && output.count - outputSent < Self.outputHighWater / 2 {
            // Caught up: answer the lines that waited, then write again.
            pausedForOutput = false
            framer.resume { handle($0) }
            decideAfterInput()
            flush()
            return
        }
        if !hasPendingOutput && closing {
            close()
            return
        }
        var wanted: UInt32 = 0
        if hasPendingOutput { wanted |= EventLoop.writable }
        if !closing && !pausedForOutput { wanted |= EventLoop.readable }
        if wanted != interest {
            interest = wanted
            do { try server.loop.modify(fd, events: wanted) } catch { close() }
        }
    }

    /// Ends the connection at the next chance: at once if nothing is pending.
    func finishSoon() {
        endWatch()
        closing = true
        flush()
    }

    func close() {
        guard !closed else { return }
        closed = true
        endWatch()
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
