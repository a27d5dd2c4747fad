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

    private let worker: BackgroundWorker<Job, Outcome>
    private let stopping: ReaderProcess.StopFlag

    init(store: StateStore, loop: EventLoop, finished: @escaping (Outcome) -> Void) throws(SystemError) {
        let stopping = ReaderProcess.StopFlag()
        self.stopping = stopping
        worker = try BackgroundWorker(loop: loop, purpose: "saving the live rooms", perform: { job in
            var outcome = Outcome()
            if let expanding = job.expanding {
                let expansion = ReaderProcess.run(expanding, stop: stopping)
                outcome.expansion = expansion
                guard expansion.refusedRooms.isEmpty else { return outcome }
            }
            outcome.saved = Result { () throws(SystemError) in try store.save(job.schedule) }
            return outcome
        }, finished: finished)
    }

    /// Starts saving `schedule`, after expanding the rooms of `expanding`. One save at a time:
    /// the group commit, which owns the save in flight (`GroupCommit.saving`), starts the
    /// next once this one's outcome is handed over.
    func save(_ schedule: LiveSchedule, expanding: ReaderJob? = nil) {
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
