import ZaoanCore

/// Writes the state file on a thread of its own (`BackgroundWorker`), so the loop never
/// waits for a disk: a save's write, fsync, rename and directory fsync take milliseconds
/// (and seconds on a busy disk), and every client would wait with it. One save at a time;
/// when it is done the loop hands the outcome to `finished`, on its own thread.
final class StateSaver {
    typealias Outcome = Result<StateStore.SaveOutcome, SystemError>

    private var worker: BackgroundWorker<LiveSchedule, Outcome>!
    /// A save has been started and its outcome not yet handed over.
    private(set) var busy = false

    init(store: StateStore, loop: EventLoop, finished: @escaping (Outcome) -> Void) throws(SystemError) {
        worker = try BackgroundWorker(loop: loop, purpose: "saving the live rooms", perform: { schedule in
            Result { () throws(SystemError) in try store.save(schedule) }
        }) { [unowned self] outcome in
            self.busy = false
            finished(outcome)
        }
    }

    /// Starts saving `schedule`. Call only when not `busy`.
    func save(_ schedule: LiveSchedule) {
        precondition(!busy, "one save at a time")
        busy = true
        worker.submit(schedule)
    }

    /// At exit: lets a save handed over finish (ending in the middle of it would be safe, the
    /// rename being atomic, but would lose a change already made), then ends the thread.
    func stop() { worker.stop() }
}
