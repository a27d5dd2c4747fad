import CLinux
import CSystemd
import Glibc
import ZaoanCore

/// Accepting connections, and the slots each user may take.
///
/// Every account on the machine may connect to the system instance, so the slots are
/// shared out: the last `reserved_connections` of `max_connections` are kept for the
/// service's own user, root and `admin_group` members, and any other uid may hold at most
/// `max_connections_per_user`. One user opening every slot it can (watches never time out)
/// locks out neither the owner nor the other users.
extension Server {
    func acceptConnections() {
        guard let listener, case .serving = lifecycle else { return }
        monotonicNow = Posix.monotonicSeconds()
        for _ in 0..<64 {
            let fd = zaoan_accept_nonblocking(listener.fd)
            if fd < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    Log.warning("cannot accept more connections (\(SystemError(errno: code, "accept"))); pausing until one closes. Raise LimitNOFILE= or lower max_connections")
                    pauseAccepting()
                } else if code != EAGAIN && code != EWOULDBLOCK {
                    Log.warning("accepting a connection failed: \(SystemError(errno: code, "accept")); going on")
                }
                return
            }
            let peer = PeerCredentials(socket: fd)
            if let refusal = admission(of: peer) {
                refuse(fd, peer: peer, refusal)
                continue
            }
            let connection = Connection(fd: fd, server: self, peer: peer, now: monotonicNow)
            do {
                try loop.register(fd, events: EventLoop.readable, handler: connection)
            } catch {
                Log.warning("\(error); closing the new connection")
                Posix.close(fd)
                continue
            }
            connections[fd] = connection
            connectionsByUID[Self.uidKey(peer), default: 0] += 1
            counters.connectionsTotal += 1
            idleTimer?.disarm()
            statusChanged()
            sweepSoon()  // a new connection must send its line within 10 s
            // The request is usually already there: answer without another trip through epoll.
            connection.readInput()
        }
    }

    /// Why a new connection from `peer` may not have a slot, or nil if it may.
    private func admission(of peer: PeerCredentials?) -> String? {
        let settings = responder.settings
        let open = connections.count
        if open >= settings.maxConnections {
            return "too many connections (max_connections is \(settings.maxConnections)); try again shortly"
        }
        let unreserved = settings.maxConnections - settings.reservedConnections
        let mine = connectionsByUID[Self.uidKey(peer)] ?? 0
        guard open >= unreserved || mine >= settings.maxConnectionsPerUser else { return nil }
        // Only now ask whether the peer is privileged: the group lookup reads /etc/group.
        if let peer, peer.mayChange(adminGroup: adminGroupID) { return nil }
        if mine >= settings.maxConnectionsPerUser {
            return "uid \(peer.map { "\($0.uid)" } ?? "unknown") already has \(mine) connections open (max_connections_per_user is \(settings.maxConnectionsPerUser)); close some"
        }
        return "too many connections (the last \(settings.reservedConnections) are kept for the service's user and admins); try again shortly"
    }

    private func refuse(_ fd: Int32, peer: PeerCredentials?, _ why: String) {
        counters.connectionsRefused += 1
        counters.refusedByUID[Self.uidKey(peer), default: 0] += 1
        let reply = Reply.error(ProtocolError(.busy, why))
        _ = reply.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Posix.close(fd)
        refusals.note(uid: Self.uidKey(peer), pid: peer?.pid, message: "refused a connection: \(why)", event: .refused)
    }

    private func pauseAccepting() {
        guard let listener, !acceptPaused else { return }
        acceptPaused = true
        loop.unregister(listener.fd)
    }

    func resumeAccepting() {
        guard let listener, let listenerHandler, acceptPaused, case .serving = lifecycle else { return }
        do {
            try loop.register(listener.fd, events: EventLoop.readable, handler: listenerHandler)
            acceptPaused = false
        } catch {
            // Still paused: the sweeper tries again every second.
            Log.error("cannot resume accepting connections: \(error); retrying every second")
            if let sweeper, !sweeper.armed { sweeper.arm(after: 1, repeating: true) }
        }
    }
}
