import CLinux
import CSystemd
import Glibc
import ZaoanCore

/// One client. Bytes in → lines (LineFramer) → requests (RequestParser) → replies
/// (Responder, through the server) → bytes out (OutputQueue), all on the loop's thread.
///
/// One-shot by default: once every complete line read so far is answered and nothing more
/// is buffered, the connection closes after its output is written. `session` keeps it open.
///
/// What one client can cost is bounded by construction (`Limits`): it reads at most
/// `readChunk` bytes per event and holds at most one partial line; it stops taking lines
/// while `highWater` bytes of answers are unread, and is closed past the soft or hard
/// output limit; and it writes at most `writeBudget` bytes per event, then the loop serves
/// the others.
final class Connection: EventHandler {
    enum Mode { case oneShot, session }

    enum Limits {
        /// Bytes read per readable event (Redis reads 16 KiB per client per event).
        static let readChunk = 16 * 1024
        /// Bytes written per writable event (Redis writes at most 64 KiB).
        static let writeBudget = 64 * 1024
        /// Unread answers beyond this: take no more lines until the client reads. Past the
        /// soft and hard limits (`OutputLimits`, configurable) the connection is closed.
        static let highWater = OutputLimits.highWater
    }

    /// Why the service closed a connection, for the log and `stats`.
    enum CloseReason {
        case outputHardLimit, outputSoftLimit, stuck, partialLine
    }

    let fd: Int32
    private unowned(unsafe) let server: Server
    private var framer = LineFramer()
    private var output = OutputQueue()
    private(set) var mode = Mode.oneShot
    /// Close once the pending output is written; read nothing more.
    private(set) var closing = false
    private(set) var closed = false
    /// The client closed its side (EOF).
    private var inputEnded = false
    private var answeredAny = false
    /// Lines wait in the framer until the client reads what it was sent.
    private var pausedForOutput = false
    /// Room changes sent to the server's next group commit and not yet answered.
    private var changesInFlight = 0
    /// Its changes are answered; the lines after them are taken on the next loop turn
    /// (`resumeAfterCommit`), so one client gets at most one commit per turn.
    private var resumePending = false
    /// Waiting for a commit, or for the turn after it.
    private var waitingForCommit: Bool { changesInFlight > 0 || resumePending }
    /// What came after a room change in the same read: answered once the change is, so it
    /// sees the change and its answer comes after the change's.
    private var heldFrame: HeldFrame?
    private enum HeldFrame { case line([UInt8]), tooLong }
    /// When a complete line was last taken (a partial line is not activity).
    private(set) var lastActivity: Double
    /// Since when an unfinished line has waited for its end; nil when none does.
    private(set) var partialLineSince: Double?
    /// Since when unread output has stayed above the soft limit.
    private(set) var overSoftLimitSince: Double?
    let acceptedAt: Double
    private var interest: UInt32
    /// The peer process (SO_PEERCRED), for rights on changes and per-user limits.
    let peer: PeerCredentials?
    /// Set while this connection watches a request.
    private(set) var watch: WatchHub.Ticket?
    /// This connection follows `watch events`.
    private(set) var followsEvents = false
    /// Watching a request or following events: the connection stays open for it.
    var isWatching: Bool { watch != nil || followsEvents }
    /// A watcher that cannot keep up keeps only the newest frame waiting here.
    private var queuedFrame: Reply?
    /// When output last made progress (or was empty), to close a stuck client.
    private(set) var lastOutputProgress: Double
    /// A descriptor the client passed with its last read (SCM_RIGHTS), for its next request:
    /// `zaoan bar` hands over its standard output with its watch.
    private var passedDescriptor: Int32?
    /// The bar's output this connection's watch writes to, instead of the socket.
    private var barOutput: BarOutput?

    init(fd: Int32, server: Server, peer: PeerCredentials?, now: Double) {
        self.fd = fd
        self.server = server
        self.lastActivity = now
        self.acceptedAt = now
        self.lastOutputProgress = now
        self.interest = EventLoop.readable
        self.peer = peer
    }

    var hasPendingOutput: Bool { !output.isEmpty || barOutput?.isBehind == true }

    /// Whether a time limit runs for this connection (the sweeper must look at it): every
    /// connection but a watcher that keeps up and sends nothing unfinished.
    var needsSweeping: Bool {
        !isWatching || hasPendingOutput || queuedFrame != nil || partialLineSince != nil || overSoftLimitSince != nil
    }

    /// The client, for debug lines.
    private var who: String {
        peer.map { "client pid \($0.pid) uid \($0.uid)" } ?? "client on fd \(fd)"
    }

    /// Whether the next line may be taken now.
    private var takingLines: Bool {
        !closed && !closing && !pausedForOutput && !waitingForCommit
    }

    func handle(events: UInt32) {
        if events & (EventLoop.readable | EventLoop.hangup) != 0 && takingLines {
            readInput()
        }
        if !closed && (events & EventLoop.writable != 0 || events & EventLoop.hangup != 0) {
            flush()
        }
    }

    /// Reads once, at most `Limits.readChunk` bytes (level-triggered: the loop calls again
    /// if more is waiting, after serving the others), answers the complete lines, then writes.
    /// Called only while `takingLines`.
    func readInput() {
        let buffer = server.readBuffer
        var passed: Int32 = -1
        let count = zaoan_receive_with_descriptor(fd, buffer.baseAddress, min(buffer.count, Limits.readChunk), &passed)
        if passed >= 0 {
            // One at a time, and only before a watch: anything else is closed at once.
            if passedDescriptor == nil && barOutput == nil { passedDescriptor = passed } else { Posix.close(passed) }
        }
        if count > 0 {
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { take($0) }
        } else if count == 0 {
            inputEnded = true
        } else {
            let code = errno
            if code == EAGAIN || code == EINTR { return }
            close()
            return
        }
        afterLines()
    }

    /// After lines were taken: note an unfinished line, decide whether to close, write.
    private func afterLines() {
        if takingLines && framer.hasBufferedInput {
            if partialLineSince == nil { partialLineSince = server.monotonicNow }
        } else {
            partialLineSince = nil
        }
        decideAfterInput()
        flush()
    }

    /// End of input answers an unterminated last line and closes; a one-shot connection
    /// closes once everything read so far is answered.
    private func decideAfterInput() {
        guard takingLines else { return }
        if inputEnded {
            if isWatching {
                endWatch()  // closing the input ends a watch
            } else {
                framer.finish { take($0) }
                guard takingLines else { return }  // the last line was a change: close after its answer
            }
            closing = true
        } else if mode == .oneShot && answeredAny && !framer.hasBufferedInput && !isWatching {
            closing = true
        }
    }

    /// Takes one frame. Returns whether to take the next line now.
    private func take(_ frame: LineFramer.Frame) -> Bool {
        // An answer past the hard output limit closes the connection in the middle of a read:
        // the lines after it are not answered (nor watched, nor queued as changes).
        guard !closed else { return false }
        if waitingForCommit {
            // A room change waits for the group commit: more changes join it (same peer, same
            // rights); anything else waits until they are answered, so it sees them.
            // A line that does not parse is not a change: it waits like any other, and its error
            // is answered in its turn.
            if case .line(let bytes) = frame, let request = try? RequestParser.parse(bytes), request.isRoomChange {
                server.countRequest()
                queueChange(request)
                return true
            }
            if case .line(let bytes) = frame { heldFrame = .line(Array(bytes)) } else { heldFrame = .tooLong }
            return false
        }
        lastActivity = server.monotonicNow
        answeredAny = true
        guard answer(frame) else { return false }
        if output.count >= Limits.highWater {
            pausedForOutput = true
            return false
        }
        return true
    }

    private func answer(_ frame: LineFramer.Frame) -> Bool {
        switch frame {
        case .tooLong:
            append(.error(ProtocolError(.tooLong, "request line longer than \(LineFramer.maxLineLength) bytes; closing the connection")))
            closing = true
            return false
        case .line(let bytes):
            return answer(line: bytes)
        }
    }

    private func answer(line bytes: UnsafeRawBufferPointer) -> Bool {
        // A passed descriptor is for this line only.
        defer { dropPassedDescriptor() }
        if isWatching {
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
        case .watchEvents:
            // A stream of moments: nothing is sent now.
            followsEvents = true
            server.events.add(self)
            server.statusChanged()
        case .watch(let inner):
            let (ticket, first) = server.watches.add(self, request: inner)
            watch = ticket
            server.statusChanged()
            if !first.isError, case .formatted(.i3bar, .blocks) = inner, let bar = adoptBarOutput() {
                // The bar's status lines go to its pipe; the socket says so, then stays quiet.
                barOutput = bar
                append(.handedOver)
                guard bar.send(first) else {
                    close()
                    return false
                }
            } else {
                append(first)
            }
        case _ where request.isRoomChange:
            if let refusal = server.refusal(of: request, from: self) {
                append(refusal)
            } else {
                queueChange(request)  // answered by the group commit at the end of this loop turn
            }
        case .reload:
            append(server.refusal(of: request, from: self) ?? server.reload())
        default:
            append(server.answer(request))
        }
        return true
    }

    private func queueChange(_ request: Request) {
        changesInFlight += 1
        server.queueChange(request, from: self)
    }

    /// The server's group commit answered one of this connection's changes. When the last
    /// is answered, the connection asks to be resumed on the next loop turn.
    func changeAnswered(_ reply: Reply) {
        guard !closed else { return }
        changesInFlight -= 1
        append(reply)
        if changesInFlight == 0 && !closed {
            resumePending = true
            server.resumeNextTurn(self)
        }
        flush()
    }

    /// Takes what waited behind the changes: the held frame, then the buffered lines.
    func resumeAfterCommit() {
        guard resumePending, !closed else { return }
        resumePending = false
        if let held = heldFrame {
            heldFrame = nil
            let keepGoing: Bool
            switch held {
            case .line(let bytes): keepGoing = bytes.withUnsafeBytes { take(.line($0)) }
            case .tooLong: keepGoing = take(.tooLong)
            }
            if keepGoing && takingLines { framer.resume { take($0) } }
        } else if takingLines {
            framer.resume { take($0) }
        }
        afterLines()
    }

    private func append(_ reply: Reply) {
        if output.isEmpty { lastOutputProgress = server.monotonicNow }
        output.append(reply.bytes)
        if output.count > server.outputLimits.hard {
            close(for: .outputHardLimit)
        } else if output.count > server.outputLimits.soft {
            if overSoftLimitSince == nil { overSoftLimitSince = server.monotonicNow }
        }
    }

    /// A watch update. If the client has not read the last one yet, only the newest waits:
    /// stale frames are dropped so a stalled watcher costs bounded memory.
    /// With `keepAll` (an event stream, where every line counts) it is queued behind the
    /// others instead; the output limits still bound what a reader that stopped can cost.
    func sendFrame(_ reply: Reply, keepAll: Bool = false) {
        guard !closing, !closed else { return }
        if let barOutput {
            if !barOutput.send(reply) { close() }  // EPIPE: the bar is gone
            if needsSweeping { server.sweepSoon() }
            return
        }
        if hasPendingOutput && !keepAll {
            queuedFrame = reply
            return
        }
        append(reply)
        flush()
    }

    /// Takes the descriptor passed with the watch request as the bar's output, if it is one.
    private func adoptBarOutput() -> BarOutput? {
        guard let passed = passedDescriptor else { return nil }
        passedDescriptor = nil
        guard peer?.mayHandOver == true else {
            Posix.close(passed)  // untouched: not even fstat, which can reach a hostile file system
            Log.debug("\(who): only the service's own user or root may hand over a bar's output; answering on the socket")
            return nil
        }
        switch BarOutput.adopt(passed, for: self, loop: server.loop) {
        case .success(let bar):
            return bar
        case .failure(let error):
            Log.debug("\(who): \(error); answering on the socket")
            return nil
        }
    }

    private func dropPassedDescriptor() {
        if let passed = passedDescriptor { Posix.close(passed) }
        passedDescriptor = nil
    }

    /// The bar's pipe took some of a waiting line.
    func outputProgressed() {
        lastOutputProgress = server.monotonicNow
    }

    private func endWatch() {
        barOutput?.close()
        barOutput = nil
        if followsEvents {
            followsEvents = false
            server.events.remove(self)
            server.statusChanged()
        }
        guard let ticket = watch else { return }
        server.watches.remove(self, ticket: ticket)
        watch = nil
        queuedFrame = nil
        server.statusChanged()
    }

    /// Writes what is pending, at most `Limits.writeBudget` bytes; asks for writability only
    /// while something is left.
    func flush() {
        guard !closed else { return }
        if output.isEmpty, let frame = queuedFrame {
            queuedFrame = nil
            append(frame)
        }
        if !output.isEmpty {
            let sent = output.send(to: fd, budget: Limits.writeBudget)
            if sent > 0 {
                lastOutputProgress = server.monotonicNow
            } else if sent < 0 {
                let code = errno
                if code != EAGAIN && code != EWOULDBLOCK && code != EINTR {
                    close()  // EPIPE, ECONNRESET: the client went away without reading
                    return
                }
            }
            if output.count <= server.outputLimits.soft { overSoftLimitSince = nil }
        }
        if pausedForOutput && output.count < Limits.highWater / 2 {
            // Caught up: answer the lines that waited, then write again.
            pausedForOutput = false
            if takingLines { framer.resume { take($0) } }
            afterLines()
            return
        }
        if output.isEmpty && queuedFrame == nil && closing && !waitingForCommit {
            close()
            return
        }
        if needsSweeping { server.sweepSoon() }
        var wanted: UInt32 = 0
        if !output.isEmpty || queuedFrame != nil { wanted |= EventLoop.writable }
        if takingLines { wanted |= EventLoop.readable }
        if wanted != interest {
            do {
                try server.loop.modify(fd, events: wanted)
                interest = wanted
            } catch {
                Log.warning("\(error); closing the connection of \(who)")
                close()
            }
        }
    }

    /// Ends the connection at the next chance: at once if nothing is pending.
    func finishSoon() {
        endWatch()
        closing = true
        flush()
    }

    /// Closed by the service for breaking a limit: counted and logged.
    func close(for reason: CloseReason) {
        guard !closed else { return }
        server.closedForLimit(self, reason: reason)
        close()
    }

    func close() {
        guard !closed else { return }
        closed = true
        endWatch()
        dropPassedDescriptor()
        server.loop.unregister(fd)
        drainUnreadInput()
        Posix.close(fd)
        output = OutputQueue()
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
