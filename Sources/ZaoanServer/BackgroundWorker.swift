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
        /// The loop signals work on `go`, the thread signals outcomes on `done`; both are
        /// closed with the last reference (the worker's or its thread's).
        let goEvent: Descriptor
        let doneEvent: Descriptor
        var go: Int32 { goEvent.rawValue }
        var done: Int32 { doneEvent.rawValue }
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

        init(go: consuming Descriptor, done: consuming Descriptor, perform: @escaping @Sendable (Work) -> Outcome) {
            goEvent = go
            doneEvent = done
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
        let go = Descriptor(taking: try syscall("creating the eventfds of \(purpose)") { eventfd(0, Int32(EFD_CLOEXEC)) })
        let done = Descriptor(taking: try syscall("creating the eventfds of \(purpose)") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
        shared = Shared(go: go, done: done, perform: perform)
        try loop.register(shared.done, events: EventLoop.readable, handler: self)
        var thread = pthread_t()
        do throws(SystemError) {
            try errorNumberCall("pthread_create") { WorkerThreadBody.start(shared, thread: &thread) }
            self.thread = thread
        } catch {
            Unmanaged.passUnretained(shared).release()
            Log.warning("could not start the thread for \(purpose) (\(error)); doing it in the loop")
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
