import CLinux
import Glibc

/// A timerfd: the part `MonotonicTimer` and `WallClockTimer` share. They differ only in the
/// clock and in how they are set.
struct TimerDescriptor: ~Copyable {
    private let timer: Descriptor
    /// For the loop's registration.
    var fd: Int32 { timer.rawValue }

    init(clock: clockid_t, purpose: String) throws(SystemError) {
        timer = Descriptor(taking: try syscall("creating \(purpose) (timerfd_create)") { timerfd_create(clock, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
    }

    /// Arms or clears the timer. It fails only on values zaoan never passes; if it does, the
    /// log says so (a timer that never fires would otherwise fail silently).
    func set(_ spec: itimerspec, flags: Int32 = 0) {
        var spec = spec
        if timerfd_settime(fd, flags, &spec, nil) != 0 {
            Log.error("setting a timer failed: \(syscallFailure("timerfd_settime")); timed work (watches, timeouts) may stall")
        }
    }

    func clear() { set(itimerspec()) }

    /// Consumes the expirations. nil with errno set when the read failed (ECANCELED: the
    /// wall clock was set under a CANCEL_ON_SET timer).
    func acknowledge() -> UInt64? {
        var expirations: UInt64 = 0
        return read(fd, &expirations, 8) == 8 ? expirations : nil
    }
}
