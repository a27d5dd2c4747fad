import Glibc
import ZaoanCore

/// Requests that change the service: rights, and the group commit of room changes.
///
/// `live add` and `live rm` are answered only once they are on disk. Writing and syncing
/// the state file is the slowest thing the loop does, so it is done once per loop turn for
/// every change read in that turn (group commit): each change is applied in turn to the
/// result of the one before, the result is saved once, and then every change is answered.
/// A connection takes no other line while its change waits, so what it sends next sees it.
extension Server {
    /// The refusal to send if `connection` may not send `request` (a change), else nil.
    /// Changes are for the service's own user, root and members of `admin_group`.
    func refusal(of request: Request, from connection: Connection) -> Reply? {
        if let peer = connection.peer, peer.mayChange(adminGroup: adminGroupID) { return nil }
        let allowed = "the service's own user (uid \(geteuid()))"
            + (responder.settings.adminGroup.map { ", root and members of group \($0)" } ?? " and root")
        refusals.note(uid: Self.uidKey(connection.peer), pid: connection.peer?.pid,
                      message: "refused \(request.commandWord): only \(allowed) may change zaoan", event: .refused)
        return .error(ProtocolError(.forbidden, "only \(allowed) may \(request.commandWord)"))
    }

    /// `reload`, after `refusal`; room changes go through `queueChange`.
    func change(_ request: Request, from connection: Connection) -> Reply {
        if let refusal = refusal(of: request, from: connection) { return refusal }
        return reload()
    }

    /// A room change to save with the others of this loop turn; the connection is answered
    /// through `Connection.changeAnswered`.
    func queueChange(_ request: Request, from connection: Connection) {
        pendingChanges.append((request, connection))
    }

    /// The end of a loop turn: connections answered last turn take their next lines, then
    /// every change read in this turn is committed. Returns whether connections wait to be
    /// resumed (the loop then polls instead of sleeping).
    func finishTurn() -> Bool {
        if !resumeQueue.isEmpty {
            let ready = resumeQueue
            resumeQueue.removeAll(keepingCapacity: true)
            for connection in ready { connection.resumeAfterCommit() }
        }
        commitPendingChanges()
        return !resumeQueue.isEmpty
    }

    func resumeNextTurn(_ connection: Connection) {
        resumeQueue.append(connection)
    }

    /// Applies, saves and answers every change of this loop turn.
    private func commitPendingChanges() {
        guard !pendingChanges.isEmpty else { return }
        let batch = pendingChanges
        pendingChanges.removeAll(keepingCapacity: true)
        var next = responder.schedule
        var answers: [Reply?] = []  // nil: applied, answered after the save
        for (request, _) in batch {
            do {
                next = try responder.proposedChange(request, to: next, now: wallNow)
                answers.append(nil)
            } catch {
                answers.append(.error(error))
            }
        }
        var saved = Reply.ok
        if next != responder.schedule {
            do {
                let outcome = try store.save(next)
                if case .savedNotSynced(let problem) = outcome {
                    Log.warning("the live rooms were saved to \(store.path), but \(problem); a power loss in the next seconds could undo the change. Check the disk", event: .stateProblem)
                }
                // state.json holds the new rooms from the rename on: memory follows it.
                responder.commit(next)
                watches.refresh()
                statusChanged()
            } catch {
                Log.error("could not save the live rooms, \(batch.count == 1 ? "change" : "\(batch.count) changes") refused: \(error); check that \(store.directory) is writable and the disk not full",
                          event: .stateProblem)
                saved = .error(ProtocolError(.storage, "could not save the change (\(error)); nothing was changed"))
            }
        }
        for (index, (_, connection)) in batch.enumerated() {
            connection.changeAnswered(answers[index] ?? saved)
        }
    }

    /// The gid of `admin_group`, looked up when asked (groups can change while zaoan runs).
    var adminGroupID: gid_t? {
        guard let name = responder.settings.adminGroup, let group = getgrnam(name) else { return nil }
        return group.pointee.gr_gid
    }
}
