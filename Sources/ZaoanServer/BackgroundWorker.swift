import CLinux
import Glibc
import ZaoanCore

/// Slow work off the loop's thread: one plain POSIX thread waits on an eventfd for work,
/// does it, and wakes the loop through a second eventfd; `finished` then gets the outcome on
/// the loop's thread. Work handed over while the thread is busy waits, and newer work
/// replaces it (only the latest matters — the calendars as they are now). Not libdispatch,
/// whose worker threads ask the kernel for scheduling changes the units' system call filter
/// refuses. If the thread cannot start, the work is done on the loop instead.
final class BackgroundWorker<Work: Sendable, Outcome: Sendable>: EventHandler {
    private final class Shared: WorkerThreadBody, @unchecked Sendable {
        let go: Int32
        let done: Int32
        let perform: @Sendable (Work) -> Outcome
        /// Guards `next`, `quit` and `outcome`. (An Lock: Synchronization's Mutex over these
        /// generic values crashed the compiler.)
        let lock = Lock()
        var next: Work?
        var quit = false
        var outcome: Outcome?
        /// The thread took work and has not set its outcome yet.
        var running = false

        func takeWork() -> (Work?, Bool) {
            lock.lock()
            defer { lock.unlock() }
            let taken = (next, quit)
            running = next != nil
            next = nil
            return taken
        }

        func setOutcome(_ result: Outcome?) {
            lock.lock()
            outcome = result
            running = false
            lock.unlock()
        }

        func takeOutcome() -> Outcome? {
            lock.lock()
            defer { lock.unlock() }
            let taken = outcome
            outcome = nil
            return taken
        }

        init(go: Int32, done: Int32, perform: @escaping @Sendable (Work) -> Outcome) {
            self.go = go
            self.done = done
            self.perform = perform
        }

        override func serve() {
            while true {
                var count: UInt64 = 0
                guard (try? syscall("waiting for work") { read(go, &count, 8) }) == 8 else { return }  // the eventfd closed: stop
                let (next, quit) = takeWork()
                if let next {
                    setOutcome(perform(next))
                    signal(done)
                }
                if quit { return }
            }
        }
    }

    private let shared: Shared
    private let finished: (Outcome) -> Void
    private var thread: pthread_t?

    init(loop: EventLoop, purpose: String, perform: @escaping @Sendable (Work) -> Outcome,
         finished: @escaping (Outcome) -> Void) throws(SystemError) {
        self.finished = finished
        let go = eventfd(0, Int32(EFD_CLOEXEC))
        let done = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard go >= 0, done >= 0 else { throw SystemError(errno: errno, "creating the eventfds of \(purpose)") }
        shared = Shared(go: go, done: done, perform: perform)
        try loop.register(done, events: EventLoop.readable, handler: self)
        var thread = pthread_t()
        let started = WorkerThreadBody.start(shared, thread: &thread)
        if started == 0 {
            self.thread = thread
        } else {
            Unmanaged.passUnretained(shared).release()
            Log.warning("could not start the thread for \(purpose) (\(SystemError(errno: started, "pthread_create"))); doing it in the loop")
        }
    }

    /// Hands `work` over (replacing work not yet started).
    func submit(_ work: Work) {
        guard thread != nil else {
            shared.setOutcome(shared.perform(work))
            signal(shared.done)
            return
        }
        shared.lock.lock()
        shared.next = work
        shared.lock.unlock()
        signal(shared.go)
    }

    /// Work handed over is waiting, being done, or done and not yet handed to `finished`
    /// (inside `finished`: newer work than the outcome being handed over).
    var isBusy: Bool {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return shared.next != nil || shared.running || shared.outcome != nil
    }

    /// On the loop's thread: work is done.
    func handle(events: UInt32) {
        var count: UInt64 = 0
        _ = read(shared.done, &count, 8)
        guard let result = shared.takeOutcome() else { return }
        finished(result)
    }

    /// Lets work handed over finish, then ends the thread.
    func stop() {
        guard let thread else { return }
        shared.lock.lock()
        shared.quit = true
        shared.lock.unlock()
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

/// What a worker's thread runs, without generics: a C thread entry point cannot refer to a
/// generic class.
class WorkerThreadBody {
    func serve() {}

    /// Starts `body.serve()` on a new thread; pthread_create's status.
    static func start(_ body: WorkerThreadBody, thread: inout pthread_t) -> Int32 {
        pthread_create(&thread, nil, { argument in
            Unmanaged<WorkerThreadBody>.fromOpaque(argument!).takeRetainedValue().serve()
            return nil
        }, Unmanaged.passRetained(body).toOpaque())
    }
}
