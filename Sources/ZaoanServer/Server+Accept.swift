import CLinux
import CSystemd
import Glibc
import ZaoanCore

/// Accepting connections: each gets a slot in the table (`ConnectionTable.admission`) or
/// `ERR busy`, then a `Session` on a `Channel`.
extension Server {
    func acceptConnections() {
        guard let listener, case .serving = lifecycle else { return }
        for _ in 0..<64 {
            let socket: Descriptor
            do throws(SystemError) {
                guard case .value(let accepted) = try nonBlockingSyscall("accept", { zaoan_accept_nonblocking(listener.fd) }) else { return }
                socket = Descriptor(taking: accepted)
            } catch where error.errno == ECONNABORTED {
                continue
            } catch where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errno) {
                Log.warning("cannot accept more connections (\(error)); pausing until one closes. Raise LimitNOFILE= or lower max_connections")
                pauseAccepting()
                return
            } catch {
                Log.warning("accepting a connection failed: \(error); going on")
                return
            }
            let fd = socket.rawValue
            let peer = PeerCredentials(socket: fd)
            // Only when the slots are short is the peer asked whether it is privileged (its groups).
            if let refusal = table.admission(of: peer, isPrivileged: {
                peer?.mayChange(adminGroup: dispatcher.adminGroupID) == true
            }) {
                refuse(socket, peer: peer, refusal)
                continue
            }
            let session = Session(socket: socket, shared: shared, peer: peer, dispatcher: dispatcher)
            let channel: Channel = session.channel
            do {
                try loop.register(fd, events: EventLoop.readable, handler: channel, timed: true)
            } catch {
                Log.warning("\(error); closing the new connection")
                channel.release()  // closes the socket; the session and its channel then end here
                continue
            }
            table.add(session)
            counters.connectionsTotal += 1
            idleTimer?.disarm()
            statusChanged()
            shared.sweepSoon()  // a new connection must send its line within first_line_seconds
            // The request is usually already there: answer without another trip through epoll.
            // Its account's time counts from the loop's latest reading, its accept included.
            channel.readIfAffordable()
            // Its callback has returned: a one-shot answered now is closed now, so its client
            // sees the end at once (and may connect again within this accept loop).
            table.finishClosing()
        }
    }

    private func refuse(_ socket: consuming Descriptor, peer: PeerCredentials?, _ why: String) {
        counters.connectionsRefused += 1
        counters.refusedByUID[ConnectionTable.uidKey(peer), default: 0] += 1
        let reply = Reply.error(ProtocolError(.busy, why))
        let fd = socket.rawValue
        _ = reply.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        socket.close()
        refusals.note(uid: ConnectionTable.uidKey(peer), pid: peer?.pid, message: "refused a connection: \(why)", event: .refused)
    }

    private func pauseAccepting() {
        guard let listener, case .serving(accepting: true) = lifecycle else { return }
        lifecycle = .serving(accepting: false)
        loop.unregister(listener.fd)
    }

    /// Accepting again after `pauseAccepting`; nothing unless it is paused.
    func resumeAccepting() {
        guard let listener, let listenerHandler, case .serving(accepting: false) = lifecycle else { return }
        do {
            try loop.register(listener.fd, events: EventLoop.readable, handler: listenerHandler)
            lifecycle = .serving(accepting: true)
        } catch {
            // Still paused: the sweeper tries again every second.
            Log.error("cannot resume accepting connections: \(error); retrying every second")
            if let sweeper, !sweeper.armed { sweeper.arm(after: 1, repeating: true) }
        }
    }
}
