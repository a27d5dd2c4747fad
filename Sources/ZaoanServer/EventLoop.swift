import CLinux
import Glibc

/// Something that owns a descriptor registered with the loop.
protocol EventHandler: AnyObject {
    /// Called with the epoll event bits that fired.
    func handle(events: UInt32)
}

/// One thread, one epoll instance. Handlers are kept in an array indexed by descriptor, so
/// dispatching an event is an array load, not a hash lookup.
final class EventLoop {
    private let epoll: Int32
    private var handlers: [EventHandler?] = []
    private var events: [epoll_event]
    private(set) var running = false

    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let hangup = EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue

    init(maxEventsPerWait: Int = 256) throws(SystemError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SystemError(errno: Glibc.errno, "creating the event loop (epoll_create1)") }
        events = Array(repeating: epoll_event(), count: maxEventsPerWait)
    }

    deinit { Posix.close(epoll) }

    func register(_ fd: Int32, events mask: UInt32, handler: EventHandler) throws(SystemError) {
        try control(EPOLL_CTL_ADD, fd, mask)
        let index = Int(fd)
        if index >= handlers.count {
            handlers.append(contentsOf: repeatElement(nil, count: index + 1 - handlers.count))
        }
        handlers[index] = handler
    }

    func modify(_ fd: Int32, events mask: UInt32) throws(SystemError) {
        try control(EPOLL_CTL_MOD, fd, mask)
    }

    /// Removes the descriptor from the loop (the caller closes it).
    func unregister(_ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
        if Int(fd) < handlers.count { handlers[Int(fd)] = nil }
    }

    private func control(_ operation: Int32, _ fd: Int32, _ mask: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = mask
        event.data.fd = fd
        guard epoll_ctl(epoll, operation, fd, &event) == 0 else {
            throw SystemError(errno: Glibc.errno, "registering descriptor \(fd) with epoll")
        }
    }

    /// Runs until `stop()`; `afterWake` runs each time epoll returns, before the handlers.
    func run(afterWake: () -> Void) {
        running = true
        while running {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), -1)
            }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                Log.error("waiting for events failed: \(SystemError(errno: Glibc.errno, "epoll_wait")); exiting")
                running = false
                break
            }
            afterWake()
            for index in 0..<Int(count) {
                let event = events[index]
                let fd = Int(event.data.fd)
                // A handler earlier in this batch may have closed this descriptor.
                guard fd < handlers.count, let handler = handlers[fd] else { continue }
                handler.handle(events: event.events)
            }
        }
    }

    func stop() { running = false }
}
