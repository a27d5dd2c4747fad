import ZaoanCore

/// Room changes (`live add`, `live rm`, `live skip`) saved together: the one owner of the
/// changes waiting, the save in flight and the sessions to resume after it.
///
/// A change is answered only once it is on disk. Writing and syncing the state file is the
/// slowest thing the service does, so it happens on the saver's thread (`StateSaver`), never
/// in the loop, and once for every change that arrived while the previous save was running:
/// each change is applied in turn to the result of the one before, the result is saved once,
/// and then every change is answered, each session directly. A session takes no other line
/// while its change waits, so what it sends next sees it; other clients are served meanwhile
/// and see the rooms as they are on disk.
final class GroupCommit {
    /// A change and the session to answer; `decided`, its answer once the reader refused it
    /// (it stays in its place in the batch, so its session reads the answers in order).
    private struct Change {
        let request: Request
        let session: Session
        var decided: Reply? = nil
    }

    /// The changes being saved now (one save at a time: the next batch starts when this
    /// one's outcome is in), their answers so far (nil: applied, answered after the
    /// save), and the rooms they make.
    private struct Batch {
        let changes: [Change]
        let answers: [Reply?]
        let schedule: LiveSchedule
        let expanding: ReaderJob?
    }

    /// Changes read since the last save began, in order.
    private var waiting: [Change] = []
    /// `watch events` sent alarms due up to this second since the last save began: saved
    /// with the next batch (or alone), so a restart fires none of them again.
    private var alarmsSentThrough: Int?
    private var saving: Batch?
    /// Sessions whose changes were answered, to take their next lines at the end of the turn.
    private var resumeQueue: [Session] = []
    private let responder: Responder
    private let rooms: RoomExpander
    private let store: StateStore
    private let clock: LoopClock
    private var saver: StateSaver!
    /// The rooms on disk changed: watches, the event stream and the status follow.
    private let committed: () -> Void

    init(responder: Responder, rooms: RoomExpander, store: StateStore, loop: EventLoop, clock: LoopClock,
         committed: @escaping () -> Void) throws(SystemError) {
        self.responder = responder
        self.rooms = rooms
        self.store = store
        self.clock = clock
        self.committed = committed
        saver = try StateSaver(store: store, loop: loop) { [unowned self] outcome in self.saveFinished(outcome) }
    }

    /// A room change to save with the others of this loop turn.
    func enqueue(_ request: Request, from session: Session) {
        changeOutOfPlace(self, \.waiting) { $0.append(Change(request: request, session: session)) }
    }

    func alarmsSent(through second: Int) {
        alarmsSentThrough = max(alarmsSentThrough ?? second, second)
    }

    func resumeAtEndOfTurn(_ session: Session) {
        changeOutOfPlace(self, \.resumeQueue) { $0.append(session) }
    }

    /// The end of a loop turn: sessions answered in the turn take their next lines, then the
    /// changes read so far are saved (unless a save is in flight: they wait for the next).
    /// Returns whether sessions wait to be resumed (answered by this end of turn itself: a
    /// refusal), which the next turn does.
    func finishTurn() -> Bool {
        if !resumeQueue.isEmpty {
            let ready = resumeQueue
            resumeQueue = []
            for session in ready { session.resumeAfterCommit() }
        }
        start()
        return !resumeQueue.isEmpty
    }

    /// At exit: lets a save handed over finish, then ends the saver's thread.
    func stop() { saver.stop() }

    /// Applies every change waiting, in order, each to the result of the one before, and
    /// starts saving the result, after the reader process has expanded the recurring rooms
    /// the batch adds or alters. Changes that fail on their own (`not-found`, `full`), or
    /// that the reader refused in an earlier round, are answered with the others, each in
    /// its place, once the save is done.
    private func start() {
        guard saving == nil, !waiting.isEmpty || alarmsSentThrough != nil else { return }
        let changes = waiting
        waiting = []
        var next = responder.schedule
        if let sent = alarmsSentThrough {
            next.noteAlarmsSent(through: sent)
            alarmsSentThrough = nil
        }
        var answers: [Reply?] = []
        for change in changes {
            if let decided = change.decided {
                answers.append(decided)
                continue
            }
            do {
                next = try responder.proposedChange(change.request, to: next, now: clock.wall)
                answers.append(nil)
            } catch {
                answers.append(.error(error))
            }
        }
        guard next != responder.schedule else {
            answer(changes, answers, saved: .ok)  // nothing to write: the file already says this
            return
        }
        let unexpanded = responder.roomsToExpand(in: next)
        let expanding = unexpanded.isEmpty ? nil : rooms.job(for: unexpanded, checking: true)
        saving = Batch(changes: changes, answers: answers, schedule: next, expanding: expanding)
        saver.save(next, expanding: expanding)
    }

    /// On the loop's thread, when the saver is done.
    private func saveFinished(_ outcome: StateSaver.Outcome) {
        guard let batch = saving else { return }
        saving = nil
        guard let result = outcome.saved else {
            refuseRooms(batch, outcome.expansion?.refusedRooms ?? [:])
            return
        }
        var saved = Reply.ok
        switch result {
        case .success(let written):
            if case .savedNotSynced(let problem) = written {
                Log.warning("the live rooms were saved to \(store.path), but \(problem); a power loss in the next seconds could undo the change. Check the disk", event: .stateProblem)
            }
            // state.json holds the new rooms from the rename on: memory follows it.
            responder.commit(batch.schedule, expansions: batch.expanding.flatMap { outcome.expansion?.expansions(of: $0) } ?? [:])
            for problem in outcome.expansion?.problems ?? [] { Log.warning(problem) }
            committed()
        case .failure(let error):
            let count = batch.changes.count
            Log.error("could not save the live rooms, \(count == 1 ? "change" : "\(count) changes") refused: \(error); check that \(store.directory) is writable and the disk not full",
                      event: .stateProblem)
            saved = .error(ProtocolError(.storage, "could not save the change (\(error)); nothing was changed"))
        }
        answer(batch.changes, batch.answers, saved: saved)
        start()  // what came in meanwhile
    }

    /// The reader refused rooms of the batch (a rule with no occurrence, or too costly):
    /// the changes that made those rooms are refused with why, and the whole batch goes round
    /// again, ahead of what came in meanwhile, on the schedule without them. Nothing is
    /// answered yet: a client that pipelined several changes reads each answer in its own
    /// place, after the save of the ones accepted.
    private func refuseRooms(_ batch: Batch, _ refused: [String: String]) {
        var again: [Change] = []
        var blamed = false
        for (index, change) in batch.changes.enumerated() {
            var decided = batch.answers[index]
            if decided == nil, let id = change.request.changedRoomID, let why = refused[id] {
                decided = .error(ProtocolError(.badArgument, why))
                blamed = true
            }
            again.append(Change(request: change.request, session: change.session, decided: decided))
        }
        if !blamed {
            // Rooms of the state file that no change of the batch touched: they keep their
            // first start, and the batch is saved.
            Log.warning("recurring rooms that cannot be expanded show their first start only: \(refused.map { "\($0.key): \($0.value)" }.sorted().joined(separator: "; "))")
            responder.keepFirstStarts(of: Set(refused.keys))
        }
        changeOutOfPlace(self, \.waiting) { $0.insert(contentsOf: again, at: 0) }
        start()
    }

    private func answer(_ changes: [Change], _ answers: [Reply?], saved: Reply) {
        for (index, change) in changes.enumerated() {
            change.session.changeAnswered(answers[index] ?? saved)
        }
    }
}
