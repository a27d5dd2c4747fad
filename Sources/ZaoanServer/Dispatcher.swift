import Glibc
import ZaoanCore

/// What a request does, for a peer: the answer to send and what the session does next
/// (`Outcome`), routed by the request's row in the request table
/// (`RequestDescriptor.effect`). It owns the rights on changes and the request count, and
/// holds what sessions act on (watches, the event stream, the group commit); it knows
/// nothing of sockets or sessions.
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
        /// now but the moments after TIME it missed.
        case follow(since: String?)
        /// A room change the peer may make: answered by the group commit once saved.
        case enqueueChange(Request)
        /// `reload` by a peer that may: answered once the config is read and applied.
        case reloadSettings
        /// `event add`, `event rm` by a peer that may, checked against the settings: answered
        /// once the file is written or removed (`CalendarWriter`).
        case writeCalendar(CalendarWrite)
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
    var parsedLines = ParsedLines()
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

    func countRequest() { requests += 1 }

    /// Routed by the kind worked out at parse (`ParsedRequest.kind`); the request itself is
    /// only looked into for what it carries (a copy of it is not free: an enum with
    /// indirect cases is copied through its value witnesses).
    func dispatch(_ parsed: ParsedRequest, from peer: PeerCredentials?) -> Outcome {
        switch parsed.kind.effect {
        case .readsOnly:
            switch parsed.kind {
            case .watch: if case .watch(let inner) = parsed.request { return .watch(inner) }
            case .watchEvents:
                if case .text(_, let since) = parsed.request { return .follow(since: since) }
                return .follow(since: nil)
            default: break
            }
            return .reply(responder.answer(parsed, now: clock.wall, counters: statistics()))
        case .controlsConnection:
            return parsed.kind == .quit ? .replyAndClose(answer(parsed.request)) : .enterSession
        case .reloadsSettings:
            return refusal(of: parsed.request, from: peer).map(Outcome.reply) ?? .reloadSettings
        case .changesRooms:
            return refusal(of: parsed.request, from: peer).map(Outcome.reply) ?? .enqueueChange(parsed.request)
        case .writesCalendars:
            if let refused = refusal(of: parsed.request, from: peer) { return .reply(refused) }
            var random = SystemRandomNumberGenerator()
            do {
                return .writeCalendar(try responder.calendarWrite(parsed.request, now: clock.wall, uid: EventUID.make(using: &random)))
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
