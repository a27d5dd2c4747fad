import CLinux
import Glibc

/// Fires on every wall-clock second boundary (timerfd on CLOCK_REALTIME, absolute), and at
/// once when the wall clock is set (NTP step, `date -s`, resume from suspend):
/// TFD_TIMER_CANCEL_ON_SET makes the pending read fail with ECANCELED, and the timer is
/// re-aligned to the new clock. Armed only while someone watches.
final class WallClockTimer: EventHandler {
    private let fd: Int32
    private let action: (_ clockWasSet: Bool) -> Void
    private(set) var armed = false

    init(loop: EventLoop, action: @escaping (_ clockWasSet: Bool) -> Void) throws(SystemError) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError(errno: errno, "creating the wall-clock timer (timerfd_create)") }
        self.action = action
        try loop.register(fd, events: EventLoop.readable, handler: self)
    }

    func arm() {
        armed = true
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec(it_interval: timespec(tv_sec: 1, tv_nsec: 0),
                              it_value: timespec(tv_sec: now.tv_sec + 1, tv_nsec: 0))
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }

    func disarm() {
        guard armed else { return }
        armed = false
        var spec = itimerspec()
        timerfd_settime(fd, 0, &spec, nil)
    }

    func handle(events: UInt32) {
        var expirations: UInt64 = 0
        let count = read(fd, &expirations, 8)
        if count < 0 && errno == ECANCELED {
            arm()  // the clock jumped: align to the new second boundaries
            action(true)
        } else if count == 8 {
            action(false)
        }
    }
}
