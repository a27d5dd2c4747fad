import CLinux
import Glibc
import ZaoanCore

/// A timer on the monotonic clock, one-shot or repeating, armed only while it has work so
/// an idle service does not wake up.
final class MonotonicTimer: EventHandler {
    private let timer: TimerDescriptor
    private let action: () -> Void
    private var repeating = false
    private(set) var armed = false { didSet { TimerCensus.monotonicTimer(wasArmed: oldValue, isArmed: armed) } }

    init(loop: EventLoop, action: @escaping () -> Void) throws(SystemError) {
        timer = try TimerDescriptor(clock: CLOCK_MONOTONIC, purpose: "a timer")
        self.action = action
        try loop.register(timer.fd, events: EventLoop.readable, handler: self)
    }

    /// Fires after `seconds` (taken between 1 ns and a year), then every `seconds` if
    /// `repeating`. Re-arming restarts it.
    func arm(after seconds: Double, repeating: Bool) {
        armed = true
        self.repeating = repeating
        let bounded = seconds.isFinite ? min(max(seconds, 0), 365 * 86_400) : 365 * 86_400
        let whole = Int(clampingSeconds: bounded)
        let value = timespec(tv_sec: whole, tv_nsec: max(1, Int(clampingSeconds: (bounded - Double(whole)) * 1e9)))
        timer.set(itimerspec(it_interval: repeating ? value : timespec(), it_value: value))
    }

    func disarm() {
        guard armed else { return }
        armed = false
        timer.clear()
    }

    func handle(events: UInt32) {
        guard timer.acknowledge() != nil else { return }
        if !repeating { armed = false }
        action()
    }
}
