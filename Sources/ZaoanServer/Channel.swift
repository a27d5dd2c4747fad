import CLinux
import Glibc
import ZaoanCore

/// One client's socket: the descriptor and its registration with the loop, the framer that
/// cuts its bytes into lines, the queue of answers waiting to be written, and the limits on
/// both. It hands complete lines to its handler and knows nothing of requests.
///
/// What one client can cost is bounded here (`Limits`): at most `readChunk` bytes read per
/// event and one partial line held; no lines taken while `highWater` bytes of answers are
/// unread; closed past the soft or hard output limit; at most `writeBudget` bytes written per
/// event, then the loop serves the others.
///
/// Closing is asynchronous (Redis's `freeClientAsync`): `close()` only marks the channel;
/// it is unregistered, its descriptor closed and its handler told at the end of the loop
/// turn (`ConnectionTable.finishClosing`), never inside the callback that found the reason.
///
/// Every system call on the client's descriptor is in this file.
final class Channel: EventHandler {
    enum Limits {
        /// Bytes read per readable event (Redis reads 16 KiB per client per event).
        static let readChunk = 16 * 1024
        /// Bytes written per writable event (Redis writes at most 64 KiB).
        static let writeBudget = 64 * 1024
        /// Unread answers beyond this: take no more lines until the client reads. Past the
        /// soft and hard limits (`OutputLimits`, configurable) the connection is closed.
        static let highWater = OutputLimits.highWater
    }

    /// What the handler does with lines now: takes them, holds them back (a change awaits its
    /// commit: the channel stays open), or none (the channel closes once its output is written).
    enum Intake { case taking, holding, closing }

    /// Why the service closed a channel, for the log and `stats`.
    enum CloseReason { case outputHardLimit, outputAccountLimit, outputSoftLimit, stuck, partialLine }

    /// The client's socket, closed at `release()`; nil from then on.
    private var socket: Descriptor?
    /// Its number: the channel's key in the table and the loop, valid until `release()`.
    let fd: Int32
    let shared: ChannelShared
    /// The turn's instant (`shared.clock`) and the turn's budget (`shared.turn`), kept here:
    /// both are used on every answer, and reached through `shared` each was retained and
    /// released around every use.
    let clock: LoopClock
    let turn: TurnBudget
    /// The session it hands lines to, which alone keeps the protocol's state: the channel asks
    /// it whether lines are taken now (`intake`) and whether a watch is open (`isWatching`).
    /// The session made this channel, and the two hold each other until `release()` lets
    /// go of it, at the end of the turn the channel closed in. Strong: reading an unowned
    /// reference retains the session through its unowned count every time (eight times a
    /// request), where a strong one is read as it is (nil once released).
    private(set) var handler: ChannelHandler?

    /// The session that made this channel, once it is whole (`Session.init`).
    func attach(_ handler: ChannelHandler) {
        precondition(self.handler == nil, "a channel's handler is attached once")
        self.handler = handler
    }

    private var framer = LineFramer()
    private var output = OutputQueue()
    private var interest = EventLoop.readable
    /// False from `close()` on: nothing more is read, written or taken.
    private(set) var isOpen = true
    private(set) var closeReason: CloseReason?
    /// The client closed its side (EOF).
    private(set) var inputEnded = false
    /// Lines wait in the framer until the client reads what it was sent.
    private var pausedForOutput = false
    /// Lines wait in the framer until the next turn: this turn's loop time is spent (`TurnBudget`).
    private var pausedForTurn = false
    /// Since when an unfinished line has waited for its end; nil when none does.
    private(set) var partialLineSince: Double?
    /// Since when unread output has stayed above the soft limit.
    private(set) var overSoftLimitSince: Double?
    /// When output last made progress (or was empty), to close a stuck client.
    var lastOutputProgress: Double
    /// A watcher that cannot keep up keeps only the newest frame waiting here.
    var newestFrame: Reply?
    /// A descriptor the client passed with its last read (SCM_RIGHTS), for its next line.
    private var passedDescriptor: Descriptor?
    /// Whether the next read looks for a passed descriptor (`recvmsg` with room for one):
    /// only a peer that may hand a bar's pipe over, and only until its first bytes are read,
    /// which carry the descriptor (`zaoan bar` sends it with a connection's first line).
    /// Every later read is a plain `read`, which costs less; a descriptor sent with it is
    /// closed by the kernel, unseen.
    private var takesDescriptor: Bool
    /// The bar's pipe the frames go to instead of the socket (`zaoan bar`).
    var bar: BarOutput?
    /// While the lines of one read are answered with nothing queued before them, their
    /// answers are gathered in `shared.answerBuffer` (`gathered` bytes) and go out with one
    /// `send` when the lines are done (`flush`), without entering `output`. Anything else that
    /// writes moves them to `output` first (`spillGathered`), so the order never changes; at
    /// most one buffer's worth (16 KiB) is gathered, and more goes to `output` as before.
    private var gathering = false
    private var gathered = 0
    /// The account (uid) this connection's loop time and unread answers are counted to,
    /// and how much of `output` is counted there.
    let account: Account
    private var accounted = 0

    /// - Parameter uid: the peer's account (`ConnectionTable.uidKey`).
    init(socket: consuming Descriptor, shared: ChannelShared, uid: Int64, takesDescriptor: Bool) {
        fd = socket.rawValue
        account = shared.accounts.join(uid)
        self.socket = Optional(socket)
        self.shared = shared
        self.takesDescriptor = takesDescriptor
        self.clock = shared.clock
        turn = shared.turn
        self.lastOutputProgress = shared.clock.monotonic
    }

    var hasPendingOutput: Bool { !output.isEmpty || bar?.isBehind == true }

    /// The refusal for a request whose answer would be rendered while this connection's
    /// account holds half its bound of unread answers (`OutputLimits.perAccount`), else nil.
    /// Refused before any rendering: an account that leaves answers unread on every
    /// connection it may open makes the loop build nothing more for it, and it holds at most
    /// half the bound plus one answer, so the bound itself is met by one answer larger than
    /// half of it only (the connection is then closed, as before).
    func unreadBacklogRefusal() -> Reply? {
        guard account.unread >= shared.outputLimits.perAccount / 2 else { return nil }
        shared.refusedForBacklog += 1
        return .error(ProtocolError(.busy, "this account (uid \(account.uid)) has \(account.unread) bytes of answers unread on its connections, half of output_hard_limit (\(shared.outputLimits.perAccount)); read them or close those connections, then ask again"))
    }
    var hasBufferedInput: Bool { framer.hasBufferedInput }
    /// Whether a time limit runs (the sweeper must look at it).
    var needsSweeping: Bool {
        isOpen && (handler?.isWatching != true || hasPendingOutput || newestFrame != nil || partialLineSince != nil || overSoftLimitSince != nil)
    }
    /// Whether the next line may be taken now.
    var takingLines: Bool { isOpen && !pausedForOutput && !pausedForTurn && handler?.intake == .taking }

    func handle(events: UInt32) {
        if events & (EventLoop.readable | EventLoop.hangup) != 0 && takingLines { readIfAffordable() }
        if isOpen && events & (EventLoop.writable | EventLoop.hangup) != 0 {
            // Writing may take the lines that waited for the client to read: the account's time.
            turn.beginFromLatestReading(account)
            flush()
            turn.end(account)
        }
    }

    /// Reads now, or, once the turn's loop time is spent (`TurnBudget`), in a later turn:
    /// what is read is answered at once, so reading is where a turn's cost is decided.
    func readIfAffordable() {
        if turn.isSpent(account) {
            pausedForTurn = true
            turn.wait(self)
            flush()  // no readable interest while it waits
            turn.loopWorkDone()  // charged to nobody, like the loop's other work
            return
        }
        turn.beginFromLatestReading(account)
        readInput()
        turn.end(account)
    }

    /// Reads once, at most `Limits.readChunk` bytes (level-triggered: the loop calls again
    /// if more is waiting), hands over the complete lines, then writes. Only while `takingLines`.
    private func readInput() {
        // Read once: a property read across the calls below would be retained at each.
        let handler = self.handler
        let buffer = shared.readBuffer
        let length = min(buffer.count, Limits.readChunk)
        let received: IOResult<Int>?
        if takesDescriptor {
            var passed: Int32 = -1
            received = try? nonBlockingSyscall("recvmsg") {  // an error: the client is gone
                zaoan_receive_with_descriptor(fd, buffer.baseAddress, length, &passed)
            }
            if passed >= 0 {
                let descriptor = Descriptor(taking: passed)
                // One at a time, and only before a bar is attached: anything else is closed at once.
                if passedDescriptor == nil && bar == nil {
                    var kept = Optional(descriptor)
                    swap(&passedDescriptor, &kept)  // the nil it replaces ends after the access
                }
            }
            if case .value(let count)? = received, count > 0 { takesDescriptor = false }
        } else {
            received = try? nonBlockingSyscall("read") { zaoan_read(fd, buffer.baseAddress, length) }  // an error: the client is gone
        }
        switch received {
        case .value(let count) where count > 0:
            gathering = output.isEmpty && newestFrame == nil && bar == nil
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            handLines { $0.feed(chunk, { handler?.take($0, from: self) ?? false }, mayTakeAnother: { !pauseForTurn() }) }
        case .value:
            inputEnded = true
        case .wouldBlock:
            // Nothing yet (a connection resumed after its turn, whose last line may have
            // been answered in the turn that paused it): decide and ask again, as after a read.
            break
        case nil:
            close()
            return
        }
        afterLines(handler)
    }

    /// Takes the lines kept in the framer (after a pause or a commit).
    func resumeLines() {
        if takingLines { handLines { $0.resume({ handler?.take($0, from: self) ?? false }, mayTakeAnother: { !pauseForTurn() }) } }
    }

    /// At end of input an unterminated last line is still a line.
    func finishInput() {
        handLines { $0.finish({ handler?.take($0, from: self) ?? false }, mayTakeAnother: { !pauseForTurn() }) }
    }

    /// The framer hands its lines to the session taken out of place, as `changeOutOfPlace`
    /// does, but swapped with an empty framer directly: through a key path the channel was
    /// retained and released around the change, on every read.
    private func handLines(_ framing: (inout LineFramer) -> Void) {
        var taken = LineFramer()
        swap(&framer, &taken)
        framing(&taken)
        swap(&framer, &taken)
    }

    /// After lines were taken: note an unfinished line, let the handler decide, write.
    func afterLines() { afterLines(handler) }

    private func afterLines(_ handler: ChannelHandler?) {
        if takingLines && framer.hasBufferedInput {
            if partialLineSince == nil { partialLineSince = clock.monotonic }
        } else {
            partialLineSince = nil
        }
        handler?.linesTaken(by: self)
        flush()
    }

    /// Queues an answer (or gathers it, see `gathering`); past the hard output limit the
    /// channel is closed.
    func send(_ reply: Reply) {
        if gathering {  // never while closed: `close` ends it
            let bytes = reply.bytes
            let room = shared.answerBuffer.count - gathered
            if bytes.count <= room {
                bytes.withUnsafeBytes { (shared.answerBuffer.baseAddress! + gathered).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                gathered += bytes.count
                return
            }
        }
        queue(reply.bytes)
    }

    /// Moves what was gathered to `output`, before anything else is queued or written.
    private func spillGathered() {
        gathering = false
        guard gathered > 0 else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: shared.answerBuffer[0..<gathered])
        gathered = 0
        queue { $0.append(copying: bytes) }
    }

    /// Sends what was gathered with one `send`; what the socket does not take is queued.
    /// Returns false if the socket is full or gone (no second `send` this turn).
    private func sendGathered() -> Bool {
        gathering = false
        guard gathered > 0 else { return true }
        let waiting = UnsafeRawBufferPointer(rebasing: shared.answerBuffer[0..<gathered])
        gathered = 0  // before the send: a rest is queued from the buffer, not spilled again
        return sendAtOnce(waiting)
    }

    /// One `send` of `bytes`, with nothing waiting before them; what the socket does not take
    /// is queued. Returns whether it took all of it (false: full, or gone and closed).
    private func sendAtOnce(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let result = try? nonBlockingSyscall("send") {  // nil: EPIPE/ECONNRESET, closed below
            zaoan_send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        switch result {
        case .value(let sent)?:
            lastOutputProgress = clock.monotonic
            if sent >= bytes.count { return true }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[max(0, sent)...])
            queue { $0.append(copying: rest) }
        case .wouldBlock?:
            queue { $0.append(copying: bytes) }
        case nil:
            close()  // EPIPE, ECONNRESET: the client went away without reading
        }
        return false
    }

    /// An update for a watcher with nothing waiting: written at once, straight from the
    /// rendering every watcher of the request shares (no copy into the queue, one `send`);
    /// what the socket does not take now is queued and written as any answer is.
    func write(_ reply: Reply) {
        guard isOpen else { return }
        spillGathered()
        guard output.isEmpty, newestFrame == nil else {
            send(reply)
            flush()
            return
        }
        if !reply.bytes.withUnsafeBytes({ sendAtOnce($0) }) { flush() }
    }

    private func queue(_ bytes: [UInt8]) {
        queue { $0.append(bytes) }
    }

    private func queue(_ append: (inout OutputQueue) -> Void) {
        guard isOpen else { return }
        spillGathered()
        if output.isEmpty { lastOutputProgress = clock.monotonic }
        changeOutOfPlace(self, \.output, placeholder: OutputQueue(), append)
        settleAccount()
        if output.count > shared.outputLimits.hard {
            close(for: .outputHardLimit)
        } else if account.unread > shared.outputLimits.perAccount {
            close(for: .outputAccountLimit)
        } else if output.count > shared.outputLimits.soft {
            if overSoftLimitSince == nil { overSoftLimitSince = clock.monotonic }
        }
    }

    /// After an answer: with `highWater` bytes unread, no more lines until the client reads.
    /// Returns whether the lines stop here.
    func pauseIfBehind() -> Bool {
        if output.count >= Limits.highWater { pausedForOutput = true }
        return pausedForOutput
    }

    /// Before a further line of the same read: once the turn's loop time is spent, it and the
    /// lines after it wait for the next turn (`TurnBudget`). Returns whether the lines stop
    /// here. Asked by the framer only when a line waits, so one line read costs no clock reading.
    private func pauseForTurn() -> Bool {
        guard turn.isSpent(account) else { return false }
        pausedForTurn = true
        turn.wait(self)
        return true
    }

    /// A later turn, on the budget of the waiting: the lines that waited are taken and
    /// written, or, when none had been read yet, the socket is read.
    func resumeAfterTurn() {
        guard pausedForTurn else { return }
        pausedForTurn = false
        guard takingLines else { return }
        if framer.hasCompleteLine || inputEnded {
            resumeLines()
            afterLines()
        } else {
            readInput()
        }
    }

    /// The descriptor passed with the line being answered, taken by the one who uses it.
    func takePassedDescriptor() -> Descriptor? {
        passedDescriptor.take()
    }

    /// A passed descriptor is for one line only. Taken out before it is closed: closing it
    /// while the property is held would make Swift check every access to it at run time.
    func dropPassedDescriptor() {
        _ = passedDescriptor.take()
    }

    /// Writes what is pending, at most `Limits.writeBudget` bytes; asks for writability only
    /// while something is left.
    func flush() {
        guard isOpen else { return }
        let socketTakesMore = sendGathered()
        if output.isEmpty, let frame = newestFrame {
            newestFrame = nil
            send(frame)
        }
        if !output.isEmpty && socketTakesMore {
            switch try? nonBlockingSyscall("send", { changeOutOfPlace(self, \.output, placeholder: OutputQueue()) { $0.send(to: fd, budget: Limits.writeBudget) } }) {  // nil: EPIPE/ECONNRESET
            case .value(let sent) where sent > 0: lastOutputProgress = clock.monotonic
            case .value, .wouldBlock: break
            case nil:
                close()  // EPIPE, ECONNRESET: the client went away without reading
                return
            }
            settleAccount()
            if output.count <= shared.outputLimits.soft { overSoftLimitSince = nil }
        }
        if pausedForOutput && output.count < Limits.highWater / 2 {
            // Caught up: take the lines that waited, then write again.
            pausedForOutput = false
            resumeLines()
            afterLines()
            return
        }
        if output.isEmpty && newestFrame == nil && handler?.intake == .closing {
            close()
            return
        }
        if needsSweeping { shared.sweepSoon() }
        var wanted: UInt32 = 0
        if !output.isEmpty || newestFrame != nil { wanted |= EventLoop.writable }
        if takingLines { wanted |= EventLoop.readable }
        if wanted != interest {
            do {
                try shared.loop.modify(fd, events: wanted)
                interest = wanted
            } catch {
                Log.warning("\(error); closing the connection on fd \(fd)")
                close()
            }
        }
    }

    /// Closed by the service for breaking a limit: counted and logged when it is closed.
    func close(for reason: CloseReason) {
        guard isOpen else { return }
        closeReason = reason
        close()
    }

    /// Marks the channel closed; the descriptor goes at the end of the loop turn.
    func close() {
        guard isOpen else { return }
        isOpen = false
        shared.droppedOutput(output.count)
        output = OutputQueue()
        settleAccount()
        gathering = false
        gathered = 0
        newestFrame = nil
        changeOutOfPlace(shared, \.closing) { $0.append(self) }
    }

    /// Brings the account's count up to date with `output`: what it keeps alive, a large
    /// answer being written counted whole.
    private func settleAccount() {
        let retained = output.retained
        account.unread += retained - accounted
        accounted = retained
    }

    /// Waiting for a later loop turn (`TurnBudget`): its line has arrived or may have; it is
    /// the service that is behind, so no time limit on the client runs.
    var waitsForTurn: Bool { pausedForTurn }

    /// The end of the turn: releases the descriptor, the bar's pipe, a passed descriptor and
    /// the session. Called once for every channel made (`ConnectionTable.finishClosing`, or
    /// the accept loop when the loop refuses the descriptor).
    func release() {
        shared.accounts.leave(account)
        detachBar()
        dropPassedDescriptor()
        shared.loop.unregister(fd)
        drainUnreadInput()
        socket = nil  // closes it
        handler = nil  // the session and its channel no longer hold each other
    }

    /// Closing a Unix socket with unread input makes the peer's read fail with ECONNRESET,
    /// which can hide our last answer from it (`ERR too-long`). Read away what is queued first.
    private func drainUnreadInput() {
        let buffer = shared.readBuffer
        for _ in 0..<4 {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { break }
        }
    }
}
