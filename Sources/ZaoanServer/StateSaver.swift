import CLinux
import Glibc
import Synchronization
import ZaoanCore

/// Writes the state file on a thread of its own, so the loop never waits for a disk: a
/// save's write, fsync, rename and directory fsync take milliseconds (and seconds on a busy
/// disk), and every client would wait with it. One save at a time; when it is done the
/// loop is woken through an eventfd and hands the outcome to `finished`, on its own thread.
///
/// The thread is a plain POSIX thread started once, waiting on an eventfd for work — not
/// libdispatch, whose worker threads ask the kernel for scheduling changes that the units'
/// system call filter refuses.
final class StateSaver: EventHandler {
    typealias Outcome = Result<StateStore.SaveOutcome, SystemError>

    /// What the loop and the saver's thread share: the work, its outcome, two eventfds.
    private final class Shared: @unchecked Sendable {
        let store: StateStore
        /// The loop writes here to hand over work (blocking reads on the saver's side).
        let go: Int32
        /// The saver writes here when the work is done (read by the loop through epoll).
        let done: Int32
        /// The rooms to save next, and whether the thread is to end once it has no work.
        let work = Mutex<(schedule: LiveSchedule?, quit: Bool)>((nil, false))
        let outcome = Mutex<Outcome?>(nil)

        init(store: StateStore, go: Int32, done: Int32) {
            self.store = store
            self.go = go
            self.done = done
        }

        /// The saver's thread: waits for work, does it, says so; ends on empty work.
        func serve() {
            while true {
                var count: UInt64 = 0
                guard read(go, &count, 8) == 8 || errno == EINTR else { return }
                let (next, quit) = work.withLock { slot -> (LiveSchedule?, Bool) in
                    let taken = slot
                    slot.schedule = nil
                    return taken
                }
                guard let schedule = next else {
                    if quit { return }
                    continue
                }
                let result = Result { () throws(SystemError) in try store.save(schedule) }
                outcome.withLock { $0 = result }
                signal(done)
                if quit { return }
            }
        }
    }

    private let shared: Shared
    private let finished: (Outcome) -> Void
    private var thread: pthread_t?
    /// A save has been started and its outcome not yet handed over.
    private(set) var busy = false

    init(store: StateStore, loop: EventLoop, finished: @escaping (Outcome) -> Void) throws(SystemError) {
        self.finished = finished
        let go = eventfd(0, Int32(EFD_CLOEXEC))
        let done = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard go >= 0, done >= 0 else { throw SystemError(errno: errno, "creating the saver's eventfds") }
        shared = Shared(store: store, go: go, done: done)
        try loop.register(done, events: EventLoop.readable, handler: self)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            Unmanaged<Shared>.fromOpaque(argument!).takeRetainedValue().serve()
            return nil
        }, Unmanaged.passRetained(shared).toOpaque())
        if started == 0 {
            self.thread = thread
        } else {
            Unmanaged.passUnretained(shared).release()
            Log.warning("could not start the thread that saves the live rooms (\(SystemError(errno: started, "pthread_create"))); saving in the loop")
        }
    }

    /// Starts saving `schedule`. Call only when not `busy`.
    func save(_ schedule: LiveSchedule) {
        precondition(!busy, "one save at a time")
        busy = true
        shared.work.withLock { $0.schedule = schedule }
        if thread != nil {
            signal(shared.go)
        } else {
            // No thread: save here; the outcome arrives through `done` all the same.
            let result = Result { () throws(SystemError) in try shared.store.save(schedule) }
            shared.outcome.withLock { $0 = result }
            signal(shared.done)
        }
    }

    /// On the loop's thread: the save is done.
    func handle(events: UInt32) {
        var count: UInt64 = 0
        _ = read(shared.done, &count, 8)
        guard let result = shared.outcome.withLock({ slot -> Outcome? in
            let taken = slot
            slot = nil
            return taken
        }) else { return }
        busy = false
        finished(result)
    }

    /// At exit: lets a save handed over finish (ending in the middle of it would be safe, the
    /// rename being atomic, but would lose a change already made), then ends the thread.
    func stop() {
        guard let thread else { return }
        shared.work.withLock { $0.quit = true }
        signal(shared.go)
        pthread_join(thread, nil)
        self.thread = nil
    }
}

/// Adds one to an eventfd's counter (a write of 8 bytes; it cannot fill from here).
private func signal(_ eventFD: Int32) {
    var one: UInt64 = 1
    _ = write(eventFD, &one, 8)
}
