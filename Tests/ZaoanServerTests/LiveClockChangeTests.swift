import Foundation
import Glibc
import Testing

/// A wall-clock jump (NTP step, `date -s`, resume from suspend) must reach the loop at once
/// (TFD_TIMER_CANCEL_ON_SET), not leave the watches drifting. The test sets the clock to its
/// own current value — a jump of microseconds, harmless to everything else on the machine,
/// but still a clock_settime that cancels the service's wall-clock timer.
@Suite("Live rooms: a wall-clock change re-aligns the watches")
struct LiveClockChangeTests {
    /// Sets CLOCK_REALTIME to itself. Needs CAP_SYS_TIME (root here); false when refused.
    static func nudgeWallClock() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return clock_settime(CLOCK_REALTIME, &now) == 0
    }

    @Test("setting the clock is noticed at once and the watch stays on second boundaries")
    func clockChangeIsNoticed() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let watcher = try RawClient(path: service.socketPath, timeout: 5)
        try watcher.send("watch time HH:mm:ss\n")
        _ = try watcher.readLine()
        _ = try watcher.readLine()  // now on a boundary

        #expect(try Live.stats(service.socketPath)["clock_changes"] == "0")
        guard Self.nudgeWallClock() else {
            // Skipped through the framework, so the run reports it (a print would pass).
            try Test.cancel("clock_settime refused here (\(String(cString: strerror(errno)))); needs CAP_SYS_TIME")
        }
        let noticed = eventually(timeout: 2, interval: 0.05) {
            (try? Live.stats(service.socketPath)["clock_changes"]) == "1"
        }
        #expect(noticed, "the service did not learn of the clock change")

        // The re-armed timer still fires on whole seconds, once a second.
        var previous: String?
        for _ in 0..<2 {
            let line = try watcher.readLine()
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let millisecondsAfterBoundary = Double(now.tv_nsec) / 1e6
            #expect(millisecondsAfterBoundary < 300, "an update arrived \(millisecondsAfterBoundary) ms after the second boundary")
            #expect(line != previous)
            previous = line
        }
    }
}
