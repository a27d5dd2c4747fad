import Foundation
import Testing

/// `stats`' `timers` counts the wall-clock timers armed now, as the timers count themselves:
/// watchers of one clock share one, and when they leave it is disarmed. A figure derived
/// from the watches (as it once was: `timers` = `watches`) could not see a leaked timer.
@Suite("Timers counted as armed")
struct TimerCountTests {
    private func figures(_ service: TestService) throws -> (watches: Int, timers: Int, service: Int) {
        let stats = try service.stats()
        guard let watches = Int(stats["watches"] ?? ""), let timers = Int(stats["timers"] ?? ""),
              let own = Int(stats["service_timers"] ?? "") else {
            throw TestFailure("stats lacks watches, timers or service_timers: \(stats)")
        }
        return (watches, timers, own)
    }

    @Test("three watchers of one clock share one timer; timers go back to the baseline when they leave")
    func watchersShareOneTimer() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        defer { try? service.stop() }
        let baseline = try figures(service)
        #expect(baseline.watches == 0 && baseline.timers == 0, "nobody watches, no wall-clock timer: \(baseline)")
        #expect(baseline.service >= 1, "the sweeper runs for the connection asking: \(baseline)")

        var watchers: [RawClient] = []
        for _ in 0..<3 {
            let client = try RawClient(path: service.socketPath, timeout: 5)
            try client.send("watch time HH:mm:ss\n")
            _ = try client.readLine()
            watchers.append(client)
        }
        let watching = try figures(service)
        #expect(watching.watches == 3, "\(watching)")
        #expect(watching.timers == baseline.timers + 1, "three watchers of one clock share one timer: \(watching)")

        // A room and a follower of `watch events`: one more timer, for the room's next moment.
        #expect(try service.ask("live add tea +1h Tea") == "ok\n")
        let follower = try RawClient(path: service.socketPath, timeout: 5)
        try follower.send("watch events\n")
        #expect(eventually(timeout: 5) { (try? figures(service))?.timers == baseline.timers + 2 },
                "the event stream arms its own timer: \((try? figures(service)).map { "\($0)" } ?? "")")

        follower.close()
        for watcher in watchers { watcher.close() }
        #expect(eventually(timeout: 5) {
            guard let now = try? figures(service) else { return false }
            return now.watches == 0 && now.timers == baseline.timers
        }, "timers back to the baseline once the watchers left: \((try? figures(service)).map { "\($0)" } ?? "")")
    }
}
