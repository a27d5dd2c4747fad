/// How many timers are armed now, for `stats`: each timer counts itself as it is armed,
/// fires (a one-shot) and is disarmed, so the figure is the timers' own state, never derived
/// from what is watched. Read and written on the loop's thread only.
///
/// `timers` are the wall-clock timers (`WallClockTimer`): the watches' tick, shared by every
/// watcher, and `watch events`' next moment — what clients' watches cost; 0 with no watcher.
/// `service_timers` are the monotonic ones (`MonotonicTimer`): the connection sweeper, idle
/// exit, the watchdog, the status line, the refusal log, the calendars' and rooms' refresh.
enum TimerCensus {
    nonisolated(unsafe) private(set) static var wallClock = 0
    nonisolated(unsafe) private(set) static var monotonic = 0

    static func wallClockTimer(wasArmed: Bool, isArmed: Bool) {
        if wasArmed != isArmed { wallClock += isArmed ? 1 : -1 }
    }

    static func monotonicTimer(wasArmed: Bool, isArmed: Bool) {
        if wasArmed != isArmed { monotonic += isArmed ? 1 : -1 }
    }
}
