import CLinux
import Glibc

/// Something that owns a descriptor registered with the loop.
protocol EventHandler: AnyObject {
    /// Called with the epoll event bits that fired, limited to what it registered for
    /// (plus hang-up and error, which epoll always reports).
    func handle(events: UInt32)
}

/// One thread, one epoll instance.
///
/// Every registration gets an identity, packed with the descriptor into `epoll_data`
/// (as swift-nio's `SelectorEpoll` does): a handler earlier in a batch may close a
/// descriptor and a new connection may get the same number before the batch ends, and an
/// event meant for the old registration must not reach the new one. Delivered events are
/// masked by the interest registered now, so a stale `EPOLLOUT` is not acted on either.
final class EventLoop {
    private struct Registration {
        let id: UInt32
        var interest: UInt32
        let handler: EventHandler
        /// Whether the handler counts its own loop time (`TurnBudget`): a channel does.
        let timed: Bool
    }

    private let epoll: Descriptor
    /// By descriptor number, so dispatching an event is an array load, not a hash lookup.
    private var registrations: [Registration?] = []
    private var nextID: UInt32 = 1
    /// Where epoll_wait writes: allocated once, so the wait writes into memory that is no
    /// Swift property (a property written by a C call is checked for exclusive access at
    /// run time, on every wait and every event read from it).
    private let events: UnsafeMutableBufferPointer<epoll_event>
    private(set) var running = false

    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let hangup = EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue
    /// Reported whatever the interest.
    private static let alwaysReported = EPOLLHUP.rawValue | EPOLLERR.rawValue

    init(maxEventsPerWait: Int = 256) throws(SystemError) {
        epoll = Descriptor(taking: try syscall("creating the event loop (epoll_create1)") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        events = .allocate(capacity: max(1, maxEventsPerWait))
        events.initialize(repeating: epoll_event())
    }

    deinit { events.deallocate() }

    /// - Parameter timed: whether `handler` counts its own loop time and ends with a reading
    ///   of the clock (`TurnBudget`); after any other, the loop calls `afterUntimed`.
    func register(_ fd: Int32, events mask: UInt32, handler: EventHandler, timed: Bool = false) throws(SystemError) {
        precondition(fd >= 0, "registering a closed descriptor")
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        try control(EPOLL_CTL_ADD, fd, mask, id: id)
        let index = Int(fd)
        changeOutOfPlace(self, \.registrations) { registrations in
            if index >= registrations.count {
                registrations.append(contentsOf: repeatElement(nil, count: index + 1 - registrations.count))
            }
            registrations[index] = Registration(id: id, interest: mask, handler: handler, timed: timed)
        }
    }

    func modify(_ fd: Int32, events mask: UInt32) throws(SystemError) {
        let index = Int(fd)
        guard index < registrations.count, let registration = registrations[index] else {
            throw SystemError(errno: ENOENT, "changing the events of descriptor \(fd), which is not registered")
        }
        try control(EPOLL_CTL_MOD, fd, mask, id: registration.id)
        changeOutOfPlace(self, \.registrations) { $0[index]?.interest = mask }
    }

    /// Removes the descriptor from the loop (the caller closes it). Events already fetched
    /// for it in this batch are dropped.
    func unregister(_ fd: Int32) {
        let index = Int(fd)
        guard index >= 0, index < registrations.count, registrations[index] != nil else { return }
        changeOutOfPlace(self, \.registrations) { $0[index] = nil }
        var event = epoll_event()
        if epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, &event) != 0 {
            // Only a bug can cause this (the descriptor was closed first): say so, go on.
            Log.warning("removing descriptor \(fd) from the event loop failed: \(syscallFailure("epoll_ctl"))")
        }
    }

    private func control(_ operation: Int32, _ fd: Int32, _ mask: UInt32, id: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = mask
        event.data.u64 = UInt64(id) << 32 | UInt64(UInt32(bitPattern: fd))
        _ = try syscall("registering descriptor \(fd) with epoll") { epoll_ctl(epoll.rawValue, operation, fd, &event) }  // 0 on success
    }

    /// Runs until `stop()`. `afterWake` runs each time epoll returns, before the handlers;
    /// `afterUntimed` after each handler not registered as `timed`; `afterBatch` after every
    /// handler of the batch has run, and returns whether work is left for the next turn
    /// (then epoll only polls instead of sleeping).
    func run(afterWake: () -> Void, afterUntimed: () -> Void = {}, afterBatch: () -> Bool = { false }) {
        running = true
        var moreWork = false
        while running {
            let timeout: Int32 = moreWork ? 0 : -1
            guard let count = waitForEvents(timeout: timeout) else {
                running = false
                break
            }
            afterWake()
            for index in 0..<Int(count) {
                let event = events[index]
                let fd = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: event.data.u64)))
                let id = UInt32(truncatingIfNeeded: event.data.u64 >> 32)
                guard fd >= 0, fd < registrations.count, let registration = registrations[fd], registration.id == id else { continue }
                let fired = event.events & (registration.interest | Self.alwaysReported)
                guard fired != 0 else { continue }
                registration.handler.handle(events: fired)
                if !registration.timed { afterUntimed() }
            }
            moreWork = afterBatch()
        }
    }

    func stop() { running = false }

    /// epoll_wait into `events`, retried on EINTR; nil (and logged) when it fails. Out of
    /// line, so `run` stays small enough to be inlined into the server's loop.
    @inline(never)
    private func waitForEvents(timeout: Int32) -> Int32? {
        let epoll = self.epoll.rawValue
        do throws(SystemError) {
            return try syscall("epoll_wait") { zaoan_epoll_wait(epoll, events.baseAddress, Int32(events.count), timeout) }
        } catch {
            Log.error("waiting for events failed: \(error); exiting")
            return nil
        }
    }
}
