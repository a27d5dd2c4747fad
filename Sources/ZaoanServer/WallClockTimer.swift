import CLinux
import Glibc

/// Fires on every wall-clock second boundary (timerfd on CLOCK_REALTIME, absolute), and at
/// once when the wall clock is set (NTP step, `date -s`, resume from suspend):
/// TFD_TIMER_CANCEL_ON_SET makes the pending read fail with ECANCELED, and the timer is
/// re-aligned to the new clock. Armed only while someone watches.
final class WallClockTimer: EventHandler {
    private let timer: TimerDescriptor
    private let action: (_ clockWasSet: Bool) -> Void
    private(set) var armed = false

    init(loop: EventLoop, action: @escaping (_ clockWasSet: Bool) -> Void) throws(SystemError) {
        timer = try TimerDescriptor(clock: CLOCK_REALTIME, purpose: "the wall-clock timer")
        self.action = action
        try loop.register(timer.fd, events: EventLoop.readable, handler: self)
    }

    func arm() {
        armed = true
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        timer.set(itimerspec(it_interval: timespec(tv_sec: 1, tv_nsec: 0), it_value: timespec(tv_sec: now.tv_sec + 1, tv_nsec: 0)),
                  flags: Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET))
    }

    func disarm() {
        guard armed else { return }
        armed = false
        timer.clear()
    }

    func handle(events: UInt32) {
        if timer.acknowledge() != nil {
            action(false)
        } else if errno == ECANCELED {
            arm()  // the clock jumped: align to the new second boundaries
            action(true)
        }
    }
}
