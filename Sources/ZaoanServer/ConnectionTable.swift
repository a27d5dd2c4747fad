import Glibc
import ZaoanCore

/// Every open session, by descriptor: who may have a slot (admission), how many each uid
/// holds, the time limits (`expire`), and the closes marked during a loop turn, carried out
/// at its end (`finishClosing`).
///
/// Every account on the machine may connect to the system instance, so the slots are
/// shared out: the last `reserved_connections` of `max_connections` are kept for the
/// service's own user, root and `admin_group` members, and any other uid may hold at most
/// `max_connections_per_user`. One user opening every slot it can (watches never time out)
/// locks out neither the owner nor the other users.
final class ConnectionTable {
    private var sessions: [Int32: Session] = [:]
    /// Open sessions by the peer's uid (`uidKey`).
    private var byUID: [Int64: Int] = [:]
    private let shared: ChannelShared
    /// `max_connections`, `reserved_connections`, `max_connections_per_user` in force
    /// (set at start and reload: admission copies no settings per connection).
    var slots = Slots(maxConnections: Settings.defaultMaxConnections, reserved: Settings.defaultReservedConnections, perUser: 16)

    struct Slots {
        var maxConnections, reserved, perUser: Int
        init(maxConnections: Int, reserved: Int, perUser: Int) {
            self.maxConnections = maxConnections
            self.reserved = reserved
            self.perUser = perUser
        }
        init(_ settings: Settings) {
            self.init(maxConnections: settings.maxConnections, reserved: settings.reservedConnections, perUser: settings.maxConnectionsPerUser)
        }
    }

    /// Told of each session closed, after it is out of the table.
    var closed: (Session) -> Void = { _ in }

    init(shared: ChannelShared) { self.shared = shared }

    /// Sessions open: those whose channel was closed in this turn no longer count, though
    /// they leave the table only at its end.
    var count: Int { sessions.count - shared.closing.count }
    var isEmpty: Bool { sessions.isEmpty }

    /// Why a new connection from `peer` may not have a slot, or nil if it may.
    /// - Parameter isPrivileged: asked only when the answer depends on it (it may read the
    ///   peer's groups).
    func admission(of peer: PeerCredentials?, isPrivileged: () -> Bool) -> String? {
        let open = count
        if open >= slots.maxConnections {
            return "too many connections (max_connections is \(slots.maxConnections)); try again shortly"
        }
        let unreserved = slots.maxConnections - slots.reserved
        let mine = byUID[Self.uidKey(peer)] ?? 0
        guard open >= unreserved || mine >= slots.perUser else { return nil }
        if isPrivileged() { return nil }
        if mine >= slots.perUser {
            return "uid \(peer.map { "\($0.uid)" } ?? "unknown") already has \(mine) connections open (max_connections_per_user is \(slots.perUser)); close some"
        }
        return "too many connections (the last \(slots.reserved) are kept for the service's user and admins); try again shortly"
    }

    func add(_ session: Session) {
        sessions[session.channel.fd] = session
        byUID[Self.uidKey(session.peer), default: 0] += 1
    }

    /// Whether some session has a time limit running (the sweeper must keep looking).
    var needsSweeping: Bool { sessions.values.contains { $0.channel.needsSweeping } }

    /// Closes the sessions past a time limit (at the end of this turn).
    func expire(now: Double, _ timeouts: Session.Timeouts) {
        for session in sessions.values { session.expire(now: now, timeouts) }
    }

    /// Shutdown: every session ends as soon as its answers are written.
    func finishAll() {
        for session in Array(sessions.values) { session.finishSoon() }
    }

    /// The end of a loop turn: every channel marked closed in it is unregistered and its
    /// descriptor closed, its session told and taken out of the table.
    func finishClosing() {
        // Last first: a close carried out here may mark another channel, taken next.
        while !shared.closing.isEmpty, let channel = changeOutOfPlace(shared, \.closing, { $0.popLast() }) {
            channel.release()
            guard let session = sessions.removeValue(forKey: channel.fd) else { continue }
            let uid = Self.uidKey(session.peer)
            if let open = byUID[uid], open > 1 { byUID[uid] = open - 1 } else { byUID[uid] = nil }
            session.channelClosed(channel)
            closed(session)
        }
    }

    /// The key of the per-uid counts: the uid, or -1 for a peer the kernel did not name
    /// (never 0, which would read as root).
    static func uidKey(_ peer: PeerCredentials?) -> Int64 {
        peer.map { Int64($0.uid) } ?? -1
    }
}
