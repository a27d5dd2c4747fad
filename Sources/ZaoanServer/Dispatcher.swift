import Glibc
import ZaoanCore

/// What a request does, for a peer: the answer to send and what the session does next
/// (`Outcome`), routed by the effect of the request's row in the request table
/// (`RequestKind.effect`, read from the rows once). It parses and counts the requests, owns the rights on
/// changes, hands what is answered later to the part that does it (`handOff`), and holds
/// what a session subscribes to (watches, the event stream); it knows nothing of sockets.
final class Dispatcher {
    enum Outcome {
        case reply(Reply)
        /// `quit`: the answer, then the connection closes.
        case replyAndClose(Reply)
        /// `session`: `ok`, and the connection stays open.
        case enterSession
        /// `watch REQUEST`: the session registers the watch and sends its first answer.
        case watch(Request)
        /// `watch events [since=TIME]`: the session follows the event stream; nothing is sent
        /// now but the moments after `replayingAfter` (a second) it missed.
        case follow(replayingAfter: Int?)
        /// Answered later, by the part that does it (`handOff`): the session holds its next
        /// lines until then, so that they see what it did.
        case answerLater(Deferred)
    }

    /// What is answered once done off the loop, and who does it.
    enum Deferred {
        /// A room change the peer may make: saved by the group commit (`GroupCommit`), with
        /// the room changes that follow it on the connection.
        case change(Request)
        /// `reload` by a peer that may: the config read and applied (`SettingsReloader`).
        case reload
        /// `event add`, `event rm` by a peer that may, checked against the settings: the file
        /// written or removed (`CalendarWriter`).
        case write(CalendarWrite)

        /// Whether room changes sent after it join it (a change after a reload or a write
        /// waits, so it is answered after it).
        var takesChanges: Bool { if case .change = self { true } else { false } }
    }

    let responder: Responder
    let clock: LoopClock
    let loop: EventLoop
    let watches: WatchHub
    let events: EventStream
    let commit: GroupCommit
    private let refusals: RefusalLog
    /// `admin_group`'s gid, resolved at start and at reload (`groupID(named:)`).
    var adminGroupID: gid_t?
    /// The lines clients send again and again, parsed once (shared by every session: a
    /// prompt's one-shot `greeting` is the same line from every shell).
    let parsedLines = ParsedLines()
    /// Requests answered since start, errors included.
    private(set) var requests = 0
    /// What `stats` reports, read when it is asked.
    var statistics: () -> ServiceFigures = { ServiceFigures(startedAt: Instant(unixSeconds: 0)) }
    /// Re-reads the config off the loop (`reload`), answering the session when it is applied.
    var reload: (Session) -> Void = { _ in }
    /// Writes or removes a calendar event's file off the loop, answering the session when done.
    var writeCalendar: (CalendarWrite, Session) -> Void = { _, _ in }
    /// Connections, watches or rooms changed: the status line is due.
    var statusChanged: () -> Void = {}

    init(responder: Responder, clock: LoopClock, loop: EventLoop, watches: WatchHub, events: EventStream,
         commit: GroupCommit, refusals: RefusalLog, adminGroupID: gid_t?) {
        self.responder = responder
        self.clock = clock
        self.loop = loop
        self.watches = watches
        self.events = events
        self.commit = commit
        self.refusals = refusals
        self.adminGroupID = adminGroupID
    }

    /// The request `line` asks for, counted (a line that does not parse is counted too,
    /// and its error answered); nil for an empty line, which asks nothing.
    func parse(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> ParsedRequest? {
        let parsed: ParsedRequest?
        do {
            parsed = try parsedLines.parsed(for: line)
        } catch {
            requests += 1
            throw error
        }
        if parsed != nil { requests += 1 }
        return parsed
    }

    /// A line sent while `session`'s room changes wait for their commit: a further room
    /// change joins them (same peer, same rights: the first was checked), counted; anything
    /// else is left for its turn, when it is answered (a line that does not parse too).
    func joinsCommit(_ line: UnsafeRawBufferPointer, from session: Session) -> Bool {
        // A line that does not parse is not dropped: it is held, and its error answered in its turn.
        guard let request = try? parsedLines.request(for: line), request.isRoomChange else { return false }
        requests += 1
        commit.enqueue(request, from: session)
        return true
    }

    /// Hands what is answered later to the part that does it, which answers `session`
    /// (`Session.changeAnswered`) once it is done; call once the session holds its lines.
    func handOff(_ deferred: Deferred, from session: Session) {
        switch deferred {
        case .change(let request): commit.enqueue(request, from: session)
        case .reload: reload(session)
        case .write(let write): writeCalendar(write, session)
        }
    }

    /// Routed by the kind worked out at parse (`ParsedRequest.kind`); the request itself is
    /// only looked into for what it carries (a copy of it is not free: an enum with
    /// indirect cases is copied through its value witnesses).
    func dispatch(_ parsed: ParsedRequest, from peer: PeerCredentials?) -> Outcome {
        switch parsed.kind.effect {
        case .readsOnly:
            switch parsed.kind {
            case .watch: if case .watch(let inner) = parsed.request { return .watch(inner) }
            case .watchEvents:
                guard case .text(_, let since?) = parsed.request else { return .follow(replayingAfter: nil) }
                do {
                    return .follow(replayingAfter: try responder.replayStart(since: since, now: clock.wall))
                } catch {
                    return .reply(.error(error))
                }
            default: break
            }
            return .reply(responder.answer(parsed, now: clock.wall, counters: statistics()))
        case .entersSession:
            return .enterSession
        case .endsConnection:
            return .replyAndClose(answer(parsed.request))
        case .reloadsSettings:
            return refusal(of: parsed.request, from: peer).map(Outcome.reply) ?? .answerLater(.reload)
        case .changesRooms:
            return refusal(of: parsed.request, from: peer).map(Outcome.reply) ?? .answerLater(.change(parsed.request))
        case .writesCalendars:
            if let refused = refusal(of: parsed.request, from: peer) { return .reply(refused) }
            var random = SystemRandomNumberGenerator()
            do {
                return .answerLater(.write(try responder.calendarWrite(parsed.request, now: clock.wall, uid: EventUID.make(using: &random))))
            } catch {
                return .reply(.error(error))
            }
        }
    }

    /// The answer for the turn's instant (one clock read per loop turn, not per request).
    func answer(_ request: Request) -> Reply {
        responder.answer(request, now: clock.wall, counters: statistics())
    }

    /// The refusal to send if `peer` may not send `request` (a change or a reload), else nil.
    /// Changes are for the service's own user, root and members of `admin_group`.
    private func refusal(of request: Request, from peer: PeerCredentials?) -> Reply? {
        if let peer, peer.mayChange(adminGroup: adminGroupID) { return nil }
        let allowed = "the service's own user (uid \(geteuid()))"
            + (responder.settings.adminGroup.map { ", root and members of group \($0)" } ?? " and root")
        refusals.note(uid: ConnectionTable.uidKey(peer), pid: peer?.pid,
                      message: "refused \(request.commandWord): only \(allowed) may change zaoan", event: .refused)
        return .error(ProtocolError(.forbidden, "only \(allowed) may \(request.commandWord)"))
    }

    /// The gid of `admin_group`, looked up at start and at each reload, never per request:
    /// NSS may ask a directory server, and the loop must not wait for it. A group created or
    /// renumbered while zaoan runs is seen at the next reload.
    static func groupID(named name: String?) -> gid_t? {
        guard let name, let group = getgrnam(name) else { return nil }
        return group.pointee.gr_gid
    }
}
