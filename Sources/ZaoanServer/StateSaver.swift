import ZaoanCore

/// Writes the state file on a thread of its own (`BackgroundWorker`), so the loop never
/// waits for a disk: a save's write, fsync, rename and directory fsync take milliseconds
/// (and seconds on a busy disk), and every client would wait with it. One save at a time;
/// when it is done the loop hands the outcome to `finished`, on its own thread.
///
/// Recurring rooms a change adds or alters are expanded first, by the reader process
/// (`ReaderProcess`): a rule that gives no occurrence, or costs more than the budget, is
/// refused before anything is written, and the rest is shown expanded from the moment it is
/// saved.
final class StateSaver {
    struct Job: Sendable {
        let schedule: LiveSchedule
        let expanding: ReaderJob?
    }

    struct Outcome: Sendable {
        /// The expansion of the rooms the change adds or alters, if any.
        var expansion: ReaderResult?
        /// Nil when nothing was written: the expansion refused a room.
        var saved: Result<StateStore.SaveOutcome, SystemError>?
    }

    private var worker: BackgroundWorker<Job, Outcome>!
    private let stopping = ReaderProcess.StopFlag()
    /// A save has been started and its outcome not yet handed over.
    private(set) var busy = false

    init(store: StateStore, loop: EventLoop, finished: @escaping (Outcome) -> Void) throws(SystemError) {
        worker = try BackgroundWorker(loop: loop, purpose: "saving the live rooms", perform: { [stopping] job in
            var outcome = Outcome()
            if let expanding = job.expanding {
                let expansion = ReaderProcess.run(expanding, stop: stopping)
                outcome.expansion = expansion
                guard expansion.refusedRooms.isEmpty else { return outcome }
            }
            outcome.saved = Result { () throws(SystemError) in try store.save(job.schedule) }
            return outcome
        }) { [unowned self] outcome in
            self.busy = false
            finished(outcome)
        }
    }

    /// Starts saving `schedule`, after expanding the rooms of `expanding`. Call only when
    /// not `busy`.
    func save(_ schedule: LiveSchedule, expanding: ReaderJob? = nil) {
        precondition(!busy, "one save at a time")
        busy = true
        worker.submit(Job(schedule: schedule, expanding: expanding))
    }

    /// At exit: lets a save handed over finish (ending in the middle of it would be safe, the
    /// rename being atomic, but would lose a change already made), then ends the thread. An
    /// expansion in progress is cut short: its rooms are saved unexpanded.
    func stop() {
        stopping.set()
        worker.stop()
    }
}
