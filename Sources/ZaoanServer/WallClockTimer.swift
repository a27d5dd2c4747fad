import CLinux
import Glibc

/// Fires on every wall-clock boundary of its period — each second, or each minute when only
/// minute clocks are watched — (timerfd on CLOCK_REALTIME, absolute), and at once when the
/// wall clock is set (NTP step, `date -s`, resume from suspend):
/// TFD_TIMER_CANCEL_ON_SET makes the pending read fail with ECANCELED, and the timer is
/// re-aligned to the new clock. Armed only while someone watches.
final class WallClockTimer: EventHandler {
    private let timer: TimerDescriptor
    private let action: (_ clockWasSet: Bool) -> Void
    private(set) var armed = false { didSet { TimerCensus.wallClockTimer(wasArmed: oldValue, isArmed: armed) } }
    /// Seconds between firings while armed; 0 for a one-shot (`arm(at:)`).
    private(set) var period = 1

    init(loop: EventLoop, action: @escaping (_ clockWasSet: Bool) -> Void) throws(SystemError) {
        timer = try TimerDescriptor(clock: CLOCK_REALTIME, purpose: "the wall-clock timer")
        self.action = action
        try loop.register(timer.fd, events: EventLoop.readable, handler: self)
    }

    /// Fires on the next multiple of `period` seconds of Unix time, then every `period`.
    func arm(period: Int = 1) {
        armed = true
        self.period = max(1, period)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let next = (Int(now.tv_sec) / self.period + 1) * self.period
        timer.set(itimerspec(it_interval: timespec(tv_sec: self.period, tv_nsec: 0), it_value: timespec(tv_sec: next, tv_nsec: 0)),
                  flags: Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET))
    }

    /// Fires once, at `unixSeconds` on the wall clock (at once if that has passed), or
    /// early if the clock is set (`clockWasSet`): the owner then arms it again.
    func arm(at unixSeconds: Int) {
        armed = true
        period = 0
        timer.set(itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: max(1, unixSeconds), tv_nsec: 0)),
                  flags: Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET))
    }

    func disarm() {
        guard armed else { return }
        armed = false
        timer.clear()
    }

    func handle(events: UInt32) {
        if timer.acknowledge() != nil {
            if period == 0 { armed = false }
            action(false)
        } else if errno == ECANCELED {
            if period == 0 {
                armed = false  // a one-shot's owner arms it again for the new clock
            } else {
                arm(period: period)  // the clock jumped: align to the new boundaries
            }
            action(true)
        }
    }
}
