import Glibc

/// CPU time of the calling thread, for the budgets of an expansion: unlike a wall clock it
/// does not count time another process or a busy machine took from this one, and unlike an
/// iteration count it measures what each step costs, however long.
package enum CPUClock {
    package static func threadSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// A CPU-time allowance that runs out: `spent` once `seconds` of this thread's CPU time
/// have passed since it was made.
package struct CPUBudget {
    package let deadline: Double

    /// The monotonic clock when the thread's CPU clock was last read. Reading the CPU clock
    /// is a system call (no vDSO for CLOCK_THREAD_CPUTIME_ID), the monotonic clock is not:
    /// while less than `recheckSeconds` of wall time has passed since the last reading, less
    /// CPU time has too, so `check()` need not ask.
    private var lastRead: Double
    private var lastSpent = false
    package static let recheckSeconds = 0.001

    package init(seconds: Double) {
        deadline = CPUClock.threadSeconds() + seconds
        lastRead = CPUClock.monotonicSeconds()
    }

    package var spent: Bool { CPUClock.threadSeconds() > deadline }

    /// `spent`, reading the CPU clock at most once per `recheckSeconds` of wall time: it is
    /// known at most a millisecond late, however fast the steps between checks are.
    package mutating func check() -> Bool {
        if lastSpent { return true }
        let now = CPUClock.monotonicSeconds()
        guard now - lastRead >= Self.recheckSeconds else { return false }
        lastRead = now
        lastSpent = spent
        return lastSpent
    }
}
