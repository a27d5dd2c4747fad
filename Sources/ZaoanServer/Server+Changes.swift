import Glibc
import ZaoanCore

/// Requests that change the service: rights, and the group commit of room changes.
///
/// `live add` and `live rm` are answered only once they are on disk. Writing and syncing
/// the state file is the slowest thing the service does, so it happens on the saver's
/// thread (`StateSaver`), never in the loop, and once for every change that arrived while
/// the previous save was running (group commit): each change is applied in turn to the
/// result of the one before, the result is saved once, and then every change is answered.
/// A connection takes no other line while its change waits, so what it sends next sees it;
/// other clients are served meanwhile and see the rooms as they are on disk.
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

    /// A room change to save with the others of this loop turn; the connection is answered
    /// through `Connection.changeAnswered`.
    func queueChange(_ request: Request, from connection: Connection) {
        pendingChanges.append((request, connection))
    }

    func resumeNextTurn(_ connection: Connection) {
        resumeQueue.append(connection)
    }

    /// Applies every change waiting, in order, each to the result of the one before, and
    /// starts saving the result on the saver's thread, after the reader process has expanded
    /// the recurring rooms the batch adds or alters. Changes that fail on their own
    /// (`not-found`, `full`) are answered with the others once the save is done.
    func startCommit() {
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
        guard next != responder.schedule else {
            answer(batch, answers, saved: .ok)  // nothing to write: the file already says this
            return
        }
        let unexpanded = responder.roomsToExpand(in: next)
        let expanding = unexpanded.isEmpty ? nil : rooms.job(for: unexpanded, checking: true)
        savingBatch = (batch, answers, next, expanding)
        saver.save(next, expanding: expanding)
    }

    /// On the loop's thread, when the saver is done.
    func saveFinished(_ outcome: StateSaver.Outcome) {
        guard let (batch, answers, next, expanding) = savingBatch else { return }
        savingBatch = nil
        guard let result = outcome.saved else {
            refuseRooms(batch, answers, outcome.expansion?.refusedRooms ?? [:])
            return
        }
        var saved = Reply.ok
        switch result {
        case .success(let written):
            if case .savedNotSynced(let problem) = written {
                Log.warning("the live rooms were saved to \(store.path), but \(problem); a power loss in the next seconds could undo the change. Check the disk", event: .stateProblem)
            }
            // state.json holds the new rooms from the rename on: memory follows it.
            responder.commit(next, expansions: expanding.flatMap { outcome.expansion?.expansions(of: $0) } ?? [:])
            for problem in outcome.expansion?.problems ?? [] { Log.warning(problem) }
            events.scheduleChanged()
            watches.refresh()
            statusChanged()
        case .failure(let error):
            Log.error("could not save the live rooms, \(batch.count == 1 ? "change" : "\(batch.count) changes") refused: \(error); check that \(store.directory) is writable and the disk not full",
                      event: .stateProblem)
            saved = .error(ProtocolError(.storage, "could not save the change (\(error)); nothing was changed"))
        }
        answer(batch, answers, saved: saved)
        startCommit()  // what came in meanwhile
    }

    /// The reader refused rooms of the batch (a rule with no occurrence, or too costly):
    /// the changes that made those rooms are answered with why; the others go round again,
    /// ahead of what came in meanwhile, on the schedule without them.
    private func refuseRooms(_ batch: [(request: Request, connection: Connection)], _ answers: [Reply?], _ refused: [String: String]) {
        var again: [(request: Request, connection: Connection)] = []
        var blamed = false
        for (index, change) in batch.enumerated() {
            if let answer = answers[index] {
                change.connection.changeAnswered(answer)
            } else if let id = change.request.changedRoomID, let why = refused[id] {
                change.connection.changeAnswered(.error(ProtocolError(.badArgument, why)))
                blamed = true
            } else {
                again.append(change)
            }
        }
        if !blamed {
            // Rooms of the state file that no change of the batch touched: they keep their
            // first start, and the batch is saved.
            Log.warning("recurring rooms that cannot be expanded show their first start only: \(refused.map { "\($0.key): \($0.value)" }.sorted().joined(separator: "; "))")
            responder.keepFirstStarts(of: Set(refused.keys))
        }
        pendingChanges.insert(contentsOf: again, at: 0)
        startCommit()
    }

    private func answer(_ batch: [(request: Request, connection: Connection)], _ answers: [Reply?], saved: Reply) {
        for (index, (_, connection)) in batch.enumerated() {
            connection.changeAnswered(answers[index] ?? saved)
        }
    }

    /// The gid of `admin_group`, looked up at start and at each reload, never per request:
    /// NSS may ask a directory server, and the loop must not wait for it. A group created or
    /// renumbered while zaoan runs is seen at the next reload.
    static func groupID(named name: String?) -> gid_t? {
        guard let name, let group = getgrnam(name) else { return nil }
        return group.pointee.gr_gid
    }
}
