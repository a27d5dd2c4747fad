import CLinux
import Glibc

/// A timer on the monotonic clock (timerfd), one-shot or repeating, armed only while it has
/// work so an idle service does not wake up.
final class MonotonicTimer: EventHandler {
    private let fd: Int32
    private let action: () -> Void
    private(set) var armed = false

    init(loop: EventLoop, action: @escaping () -> Void) throws(SystemError) {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError(errno: errno, "creating a timer (timerfd_create)") }
        self.action = action
        try loop.register(fd, events: EventLoop.readable, handler: self)
    }

    /// Fires after `seconds`, then every `seconds` if `repeating`. Re-arming restarts it.
    func arm(after seconds: Double, repeating: Bool) {
        armed = true
        let whole = Int(seconds.rounded(.down))
        let value = timespec(tv_sec: whole, tv_nsec: max(1, Int((seconds - Double(whole)) * 1e9)))
        var spec = itimerspec(it_interval: repeating ? value : timespec(), it_value: value)
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
        guard read(fd, &expirations, 8) == 8 else { return }
        if !armedRepeating { armed = false }
        action()
    }

    private var armedRepeating: Bool {
        var current = itimerspec()
        timerfd_gettime(fd, &current)
        return current.it_interval.tv_sec != 0 || current.it_interval.tv_nsec != 0
    }
}
