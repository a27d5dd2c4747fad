import Foundation
import Glibc
import Testing

/// A watcher that stops reading must not grow the service's memory: it keeps one frame being
/// written and the newest one waiting (stale frames are dropped), and is closed once its
/// output has not moved for `stuck_client_seconds` (30 s by default, 12 here so the test
/// waits less). Big frames make the socket fill in seconds: `live list`
/// with 600 rooms with long titles is about 180 KB and changes every second.
@Suite("Live rooms: a watcher that stops reading")
struct LiveSlowWatcherTests {
    @Test("memory stays flat, other clients are served, and the stuck watcher is closed", .timeLimit(.minutes(2)), Sanitizer.skipped("it bounds the resident memory, which the sanitizer's shadow memory and quarantine inflate"))
    func stuckWatcherIsBoundedAndClosed() throws {
        let limit = 12.0
        let service = try TestService.start(config: #"{"stuck_client_seconds": 12}"#)
        defer { try? service.stop() }
        let title = String(repeating: "夜读", count: 40)  // 240 bytes
        let adds = (0..<600).map { "live add room\($0) +\(2 + $0)h \(title)" }
        let answers = try ask(service.socketPath, ["session"] + adds + ["quit"], timeout: 60)
        #expect(answers.components(separatedBy: "\n").filter { $0 == "ok" }.count == 601, "\(answers.prefix(200))")

        let stuck = try RawClient(path: service.socketPath, timeout: 5)
        try stuck.send("watch live list\n")  // and never read
        let start = Date()
        sleep(6)  // the socket buffers fill within a few seconds at ~90 KB/s
        let filled = try Live.residentKiB(service.pid)
        var closedAfter: Double?
        var peak = filled
        while Date().timeIntervalSince(start) < limit + 20 {
            #expect(try service.ask("ping") == "pong\n", "the stuck watcher must not stall other clients")
            peak = max(peak, try Live.residentKiB(service.pid))
            if try Live.stats(service.socketPath)["watches"] == "0" {
                closedAfter = Date().timeIntervalSince(start)
                break
            }
            sleep(1)
        }
        #expect(peak - filled < 2 * 1024, "resident memory grew by \(peak - filled) KiB while a watcher did not read")
        let after = try #require(closedAfter, "the stuck watcher was not closed within \(limit + 20) s")
        #expect(after >= limit - 5, "closed after \(after) s; a watcher gets \(limit) s without progress")
    }
}
