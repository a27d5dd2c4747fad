import CLinux
import Glibc

/// A once-a-second timer on the monotonic clock (timerfd), armed only while it has work,
/// so an idle service does not wake up.
final class PeriodicTimer: EventHandler {
    private let fd: Int32
    private let action: () -> Void
    private(set) var armed = false

    init(loop: EventLoop, action: @escaping () -> Void) throws(SystemError) {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError(errno: errno, "creating a timer (timerfd_create)") }
        self.action = action
        try loop.register(fd, events: EventLoop.readable, handler: self)
    }

    func arm() {
        guard !armed else { return }
        armed = true
        var spec = itimerspec(it_interval: timespec(tv_sec: 1, tv_nsec: 0), it_value: timespec(tv_sec: 1, tv_nsec: 0))
        timerfd_settime(fd, 0, &spec, nil)
    }

    func disarm() {
        guard armed else { return }
        armed = false
        var spec = itimerspec()
        timerfd_settime(fd, 0, &spec, nil)
    }

    func handle(events: UInt32) {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
        action()
    }
}
