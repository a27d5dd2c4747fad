import Foundation
import Testing

/// A bar ticks all day: the service may wake at most once a second for a per-second clock
/// (the tick; the connection sweeper sleeps while only watchers that keep up are
/// connected), and once a minute for a minute clock. Counted as the voluntary context
/// switches of every thread of the process (each is one return from a blocking wait), which
/// a loaded machine does not inflate.
@Suite("Wake-ups of the service")
struct WakeupTests {
    static func voluntarySwitches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return total + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    /// Watches `request`, lets it settle, then counts wake-ups over `seconds` of wall time.
    private func wakeups(watching request: String, seconds: Double) throws -> (wakeups: Int, elapsed: Double) {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let watcher = try RawClient(path: service.socketPath, timeout: 10)
        try watcher.send("watch \(request)\n")
        _ = try watcher.readLine()
        // Settle: the one-shot phase of the connection (and its sweeper) ends within a second or two.
        Thread.sleep(forTimeInterval: 2.5)
        let before = Self.voluntarySwitches(service.pid), start = Date()
        Thread.sleep(forTimeInterval: seconds)
        let after = Self.voluntarySwitches(service.pid), elapsed = Date().timeIntervalSince(start)
        return (after - before, elapsed)
    }

    @Test("a per-second clock wakes the service once a second, not twice")
    func perSecond() throws {
        let (count, elapsed) = try wakeups(watching: "time HH:mm:ss", seconds: 8)
        print("watch time HH:mm:ss: \(count) wake-ups in \(String(format: "%.1f", elapsed)) s")
        #expect(Double(count) <= elapsed * 1.25 + 2, "\(count) wake-ups in \(elapsed) s")
    }

    @Test("a minute clock wakes the service once a minute")
    func perMinute() throws {
        let (count, elapsed) = try wakeups(watching: "time HH:mm", seconds: 8)
        print("watch time HH:mm: \(count) wake-ups in \(String(format: "%.1f", elapsed)) s")
        #expect(count <= 3, "\(count) wake-ups in \(elapsed) s")
    }
}
