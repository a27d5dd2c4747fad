import Glibc

/// CPU time of the calling thread, for the budgets of an expansion: unlike a wall clock it
/// does not count time another process or a busy machine took from this one, and unlike an
/// iteration count it measures what libical's own steps cost.
package enum CPUClock {
    package static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// A CPU-time allowance that runs out: `spent` once `seconds` of this thread's CPU time
/// have passed since it was made.
package struct CPUBudget {
    package let deadline: Double

    package init(seconds: Double) { deadline = CPUClock.threadSeconds() + seconds }

    package var spent: Bool { CPUClock.threadSeconds() > deadline }
}
