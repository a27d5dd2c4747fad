import Glibc
import ZaoanCore

/// One client's conversation, on its `Channel`: what its lines mean, in one `State`, and
/// its deadline. The session alone keeps the protocol's state; the channel asks it what it
/// needs (`intake`, `isWatching`). The `Dispatcher` parses each line and says what it does
/// (`Dispatcher.Outcome`), and the session carries it out: an answer, a watch, the event
/// stream, or what is answered later (a room change, a reload, a calendar write), its next
/// lines held until then.
///
/// One-shot by default: once every complete line read so far is answered and nothing more
/// is buffered, the connection closes after its output is written. `session` keeps it open.
final class Session: ChannelHandler {
    enum Mode { case oneShot, session }

    /// What came after a room change in the same read: answered once the change is, so it
    /// sees the change and its answer comes after the change's.
    enum HeldFrame { case line([UInt8]), tooLong }

    /// What was handed off to be answered later (room changes, a reload, a calendar write),
    /// not yet all answered.
    struct CommitWait {
        var mode: Mode
        var inFlight: Int
        var held: HeldFrame?
        /// Room changes that follow join the commit (false while a reload is read: a change
        /// after it waits, so it is answered after the reload).
        var takesChanges = true
        /// All answered: the next lines are taken at the end of the loop turn (after every
        /// handler of the turn, where the next commit starts), so one client gets at most one
        /// commit per turn.
        var answered = false
        /// The service began to stop meanwhile: close once the changes are answered.
        var closeAfter = false
    }

    enum State {
        /// `answered`: a line was taken; once all are answered, the connection closes.
        case oneShot(answered: Bool)
        case session
        case awaitingCommit(CommitWait)
        case watching(Mode, WatchHub.Ticket)
        case followingEvents(Mode)
        /// Closes once its output is written; reads nothing more.
        case closing
    }

    /// Its client's socket, made with the session, which `init` then attaches as the
    /// channel's handler. A constant: read on every line, it needs no retain.
    let channel: Channel
    /// The peer process (SO_PEERCRED), for rights on changes and per-user limits.
    let peer: PeerCredentials?
    /// The server's, which outlives every session. Strong: a constant read needs no retain,
    /// where an unowned one is retained through its unowned count on every use; the
    /// dispatcher holds a session only while its change waits to be answered.
    let dispatcher: Dispatcher
    let clock: LoopClock
    private(set) var state = State.oneShot(answered: false)
    let acceptedAt: Double
    /// When a complete line was last taken (a partial line is not activity).
    private(set) var lastActivity: Double

    init(socket: consuming Descriptor, shared: ChannelShared, peer: PeerCredentials?, dispatcher: Dispatcher) {
        self.peer = peer
        self.dispatcher = dispatcher
        clock = dispatcher.clock
        acceptedAt = clock.monotonic
        lastActivity = acceptedAt
        channel = Channel(socket: socket, shared: shared, uid: ConnectionTable.uidKey(peer),
                          takesDescriptor: peer?.mayHandOver == true)
        channel.attach(self)
    }

    var mode: Mode {
        switch state {
        case .session: return .session
        case .awaitingCommit(let wait): return wait.mode
        case .watching(let mode, _), .followingEvents(let mode): return mode
        case .oneShot, .closing: return .oneShot
        }
    }

    private var isClosing: Bool { if case .closing = state { true } else { false } }

    /// Closing is for good: nothing leaves it.
    func become(_ next: State) {
        if !isClosing { state = next }
    }

    func back(to mode: Mode) { become(mode == .session ? .session : .oneShot(answered: true)) }

    var intake: Channel.Intake {
        switch state {
        case .closing: return .closing
        case .awaitingCommit: return .holding
        default: return .taking
        }
    }

    var isWatching: Bool {
        switch state {
        case .watching, .followingEvents: return true
        default: return false
        }
    }

    /// The client, for debug lines.
    var who: String {
        peer.map { "client pid \($0.pid) uid \($0.uid)" } ?? "client on fd \(channel.fd)"
    }

    /// Small answers of fixed cost that say what is wrong, answered even to an account that
    /// left half its bound of answers unread (`Channel.unreadBacklogRefusal`).
    /// (A switch: a set's lookup hashed the kind on every request.)
    static func isAnsweredWhateverIsUnread(_ kind: RequestKind) -> Bool {
        switch kind {
        case .ping, .version, .stats: true
        default: false
        }
    }

    func take(_ frame: LineFramer.Frame, from channel: Channel) -> Bool {
        // An answer past the hard output limit closes the connection in the middle of a read:
        // the lines after it are not answered (nor watched, nor queued as changes).
        guard channel.isOpen else { return false }
        if case .awaitingCommit(var wait) = state {
            // More changes join the commit (same peer, same rights); anything else waits until
            // they are answered, so it sees them. A line that does not parse waits too.
            if wait.takesChanges, case .line(let bytes) = frame, dispatcher.joinsCommit(bytes, from: self) {
                wait.inFlight += 1
                state = .awaitingCommit(wait)
                return true
            }
            if case .line(let bytes) = frame { wait.held = .line(Array(bytes)) } else { wait.held = .tooLong }
            state = .awaitingCommit(wait)
            return false
        }
        lastActivity = clock.monotonic
        if case .oneShot(answered: false) = state { state = .oneShot(answered: true) }
        guard answer(frame) else { return false }
        return !channel.pauseIfBehind()  // the turn's budget is the framer's to ask, before a further line
    }

    private func answer(_ frame: LineFramer.Frame) -> Bool {
        guard case .line(let bytes) = frame else {
            endWatch()
            channel.send(.error(ProtocolError(.tooLong, "request line longer than \(LineFramer.maxLineLength) bytes; closing the connection")))
            state = .closing
            return false
        }
        // A passed descriptor is for this line only.
        defer { channel.dropPassedDescriptor() }
        if isWatching, endWatch() == .oneShot {
            // Any further line ends the watch; in a session it is then answered as usual.
            state = .closing
            return false
        }
        let parsed: ParsedRequest
        do {
            guard let found = try dispatcher.parse(bytes) else { return true }
            parsed = found
        } catch {
            Log.debug("\(self.who): \(error)")
            channel.send(.error(error))
            return true
        }
        Log.debug("\(self.who): \(parsed.request.commandWord)")
        if parsed.kind.effect == .readsOnly, !Self.isAnsweredWhateverIsUnread(parsed.kind), let refusal = channel.unreadBacklogRefusal() {
            channel.send(refusal)  // nothing rendered: the account has not read what it asked before
            return true
        }
        switch dispatcher.dispatch(parsed, from: peer) {
        case .reply(let reply):
            channel.send(reply)
        case .replyAndClose(let reply):
            channel.send(reply)
            state = .closing
            return false
        case .enterSession:
            become(.session)
            channel.send(.ok)
        case .follow(let replayAfter):
            follow(replayingAfter: replayAfter)
        case .watch(let inner):
            return watch(inner)
        case .answerLater(let deferred):
            // Its lines wait until the part that does it answers (`changeAnswered`).
            state = .awaitingCommit(CommitWait(mode: mode, inFlight: 1, held: nil, takesChanges: deferred.takesChanges, closeAfter: isClosing))
            dispatcher.handOff(deferred, from: self)
        }
        return true
    }

    /// End of input answers an unterminated last line and closes; a one-shot connection
    /// closes once everything read so far is answered.
    func linesTaken(by channel: Channel) {
        guard channel.takingLines else { return }
        if channel.inputEnded {
            if isWatching {
                endWatch()  // closing the input ends a watch
            } else {
                channel.finishInput()
                guard channel.takingLines else { return }  // the last line was a change: close after its answer
            }
            state = .closing
        } else if case .oneShot(answered: true) = state, !channel.hasBufferedInput {
            state = .closing
        }
    }

    /// The group commit answered one of this session's changes (or the reloader its reload). When the last is answered,
    /// the session asks to be resumed at the end of the turn.
    func changeAnswered(_ reply: Reply) {
        guard channel.isOpen, case .awaitingCommit(var wait) = state else { return }
        wait.inFlight -= 1
        state = .awaitingCommit(wait)
        channel.send(reply)
        if wait.inFlight == 0 && channel.isOpen {
            wait.answered = true
            state = .awaitingCommit(wait)
            dispatcher.commit.resumeAtEndOfTurn(self)
        }
        channel.flush()
    }

    /// Takes what waited behind the changes: the held frame, then the buffered lines.
    func resumeAfterCommit() {
        guard channel.isOpen, case .awaitingCommit(let wait) = state, wait.answered else { return }
        if wait.closeAfter { state = .closing } else { back(to: wait.mode) }
        var keepGoing = true
        switch wait.held {
        case .line(let bytes)?: keepGoing = bytes.withUnsafeBytes { take(.line($0), from: channel) }
        case .tooLong?: keepGoing = take(.tooLong, from: channel)
        case nil: break
        }
        if keepGoing { channel.resumeLines() }
        channel.afterLines()
    }

    /// Ends the connection at the next chance (shutdown): at once if nothing is pending.
    func finishSoon() {
        endWatch()
        if case .awaitingCommit(var wait) = state {
            wait.closeAfter = true
            state = .awaitingCommit(wait)
        } else {
            state = .closing
        }
        channel.flush()
    }

    func channelClosed(_ channel: Channel) {
        endWatch()
        if !isClosing { state = .closing }
    }
}
