import CLinux
import Dispatch
import Glibc
import Synchronization
import ZaoanCore

/// Writes the state file on a thread of its own, so the loop never waits for a disk: a
/// save's write, fsync, rename and directory fsync take milliseconds (and seconds on a busy
/// disk), and every client would wait with it. One save at a time; when it is done the
/// loop is woken through an eventfd and hands the outcome to `finished`, on its own thread.
final class StateSaver: EventHandler {
    private let store: StateStore
    private let queue = DispatchQueue(label: "zaoan.state-saver")
    private let wake: Int32
    /// Where the saver's thread leaves the outcome for the loop.
    private final class Slot: Sendable {
        let value = Mutex<Result<StateStore.SaveOutcome, SystemError>?>(nil)
    }
    private let outcome = Slot()
    private let finished: (Result<StateStore.SaveOutcome, SystemError>) -> Void
    /// A save has been started and its outcome not yet handed over.
    private(set) var busy = false

    init(store: StateStore, loop: EventLoop, finished: @escaping (Result<StateStore.SaveOutcome, SystemError>) -> Void) throws(SystemError) {
        self.store = store
        self.finished = finished
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else { throw SystemError(errno: errno, "creating the saver's eventfd") }
        try loop.register(wake, events: EventLoop.readable, handler: self)
    }

    /// Starts saving `schedule`. Call only when not `busy`.
    func save(_ schedule: LiveSchedule) {
        precondition(!busy, "one save at a time")
        busy = true
        let store = self.store
        let wake = self.wake
        let outcome = self.outcome
        queue.async {
            let result = Result { () throws(SystemError) in try store.save(schedule) }
            outcome.value.withLock { $0 = result }
            var one: UInt64 = 1
            _ = write(wake, &one, 8)  // cannot fail but for a full counter, which one write cannot fill
        }
    }

    /// On the loop's thread: the save is done.
    func handle(events: UInt32) {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
        guard let result = outcome.value.withLock({ slot -> Result<StateStore.SaveOutcome, SystemError>? in
            let taken = slot
            slot = nil
            return taken
        }) else { return }
        busy = false
        finished(result)
    }

    /// At exit: waits for a save in flight, so the process does not end in the middle of it
    /// (which would be safe, the rename being atomic, but would lose a change already made).
    func waitUntilIdle() {
        queue.sync {}
    }
}
