import Foundation
import Glibc
import Testing

/// `watch REQUEST`: the answer now, then again on each change, on wall-clock second
/// boundaries; nothing while the text is unchanged; any further line or EOF ends it.
@Suite("Live rooms: watch streams")
struct LiveWatchTests {
    /// Seconds after midnight of `HH:mm:ss`.
    private func secondOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    @Test("watch time HH:mm:ss: a new line just after each second boundary, each one different")
    func alignment() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        let client = try RawClient(path: service.socketPath, timeout: 3)
        let asked = Live.now
        try client.send("watch time HH:mm:ss\n")
        let first = try client.readLine()
        #expect(Live.now - asked < 0.5, "the first answer comes at once")
        #expect(secondOfDay(first) != nil, "\(first.debugDescription)")

        var updates: [(text: String, delay: Double)] = []
        for _ in 0..<5 {
            let text = try client.readLine()
            let arrived = Live.now
            guard let shown = secondOfDay(text) else {
                Issue.record("not HH:mm:ss: \(text.debugDescription)")
                break
            }
            // The second the line names, taken as the latest such second not after its
            // arrival (UTC); the delay is how long after that boundary it arrived.
            let whole = Int(arrived.rounded(.down))
            let back = ((whole % 86_400 - shown) % 86_400 + 86_400) % 86_400
            updates.append((text, arrived - Double(whole - back)))
        }
        let delays = updates.map(\.delay).sorted()
        let report = updates.map { "\($0.text) +\(Int($0.delay * 1000)) ms" }.joined(separator: ", ")
        #expect(delays.count == 5)
        if !delays.isEmpty {
            // Lenient on a busy test machine; the benchmark measures the real figure.
            #expect(delays[delays.count / 2] < 0.1, "median delay after the boundary: \(report)")
            #expect(delays.last! < 0.5, "every update shortly after its boundary, none before: \(report)")
        }
        let seconds = ([first] + updates.map(\.text)).compactMap(secondOfDay)
        for (earlier, later) in zip(seconds, seconds.dropFirst()) {
            let step = ((later - earlier) % 86_400 + 86_400) % 86_400
            #expect(step >= 1 && step <= 2, "consecutive lines differ and move forward by a second: \(seconds)")
        }

        // A further input line ends the watch; one-shot, so the connection closes.
        try client.send("stop\n")
        let (closed, after) = Live.waitForClose(client, within: 2.5)
        #expect(closed, "a further line should end the watch and close the one-shot connection; still open, sent \(after)")
        #expect(after.count <= 1 && !after.contains { $0.hasPrefix("ERR") },
                "at most a tick already on its way, and no answer to the line that ends a watch: \(after)")
        #expect(eventually(timeout: 2) { (try? Live.stats(service.socketPath)["watches"]) == "0" })
        try service.stop()
    }

    @Test("watch greeting: one line, then nothing while the text stays the same, while time watchers tick")
    func changeOnly() throws {
        // One greeting for the whole day: the text cannot change during the test.
        let service = try TestService.start(arguments: ["--timezone", "UTC", "--language", "zh"],
                                            config: #"{"greetings": {"00:00": "早"}}"#)
        let greeting = try RawClient(path: service.socketPath, timeout: 3)
        try greeting.send("watch greeting\n")
        let shown = try greeting.readLine()
        #expect(shown.hasPrefix("早·"), "\(shown.debugDescription)")
        let ticking = try RawClient(path: service.socketPath, timeout: 3)
        try ticking.send("watch time HH:mm:ss\n")
        _ = try ticking.readLine()

        let started = Live.now
        var ticks = 0
        while Live.now - started < 2.5 {
            _ = try ticking.readLine()  // at most ~1 s each: the timer runs
            ticks += 1
        }
        #expect(ticks >= 2, "the watch timer should be ticking")
        #expect(greeting.peerState(within: 0.1) == .open, "nothing may be sent while the greeting is unchanged")
        let stats = try Live.stats(service.socketPath)
        #expect(stats["watches"] == "2", "\(stats)")

        // A further line ends the greeting watch and closes the one-shot connection, quietly.
        try greeting.send("ping\n")
        let greetingEnd = Live.waitForClose(greeting, within: 2)
        #expect(greetingEnd.closed && greetingEnd.lines.isEmpty, "a further line ends the watch, quietly: \(greetingEnd)")
        // EOF ends the time watch.
        ticking.shutdownWrite()
        let tickingEnd = Live.waitForClose(ticking, within: 2.5)
        #expect(tickingEnd.closed && tickingEnd.lines.count <= 1, "EOF ends the watch: \(tickingEnd)")
        #expect(eventually(timeout: 2) {
            let stats = try? Live.stats(service.socketPath)
            return stats?["watches"] == "0" && stats?["timers"] == "0"
        }, "\((try? Live.stats(service.socketPath)) ?? [:])")
        try service.stop()
    }

    @Test("in a session a further line ends the watch and is answered as usual")
    func sessionEndsWatch() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"], config: #"{"greetings": {"00:00": "hi"}}"#)
        let client = try RawClient(path: service.socketPath, timeout: 3)
        try client.send("session\nwatch greeting\n")
        #expect(try client.readLine() == "ok")
        let first = try client.readLine()
        #expect(first.hasPrefix("hi"), "\(first.debugDescription)")
        try client.send("ping\n")
        #expect(try client.readLine() == "pong")
        #expect(client.peerState(within: 1.2) == .open, "the session stays, without further watch output")
        #expect(try Live.stats(service.socketPath)["watches"] == "0")
        try client.send("quit\n")
        #expect(try client.readLine() == "bye")
        try service.stop()
    }

    @Test("watch countdown: empty with no rooms, updated at once by live add and live rm")
    func countdownFollowsChanges() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC", "--language", "en"])
        let watcher = try RawClient(path: service.socketPath, timeout: 3)
        try watcher.send("watch countdown\n")
        #expect(try watcher.readLine() == "", "no rooms: an empty line")
        #expect(watcher.peerState(within: 1.2) == .open, "still no rooms: nothing more")

        // Add just after a boundary; the update must not wait for the next one.
        _ = eventually(timeout: 2, interval: 0.005) { (0.05...0.3).contains(Live.now.truncatingRemainder(dividingBy: 1)) }
        let added = Live.now
        #expect(try service.ask("live add show +1h Show") == "ok\n")
        let line = try watcher.readLine()
        let delay = Live.now - added
        #expect(line == "Show · starts in 01:00:00" || line == "Show · starts in 00:59:59", "\(line.debugDescription)")
        #expect(delay < 0.6, "the change should be sent at once, not at the next boundary: \(Int(delay * 1000)) ms")

        _ = eventually(timeout: 2, interval: 0.005) { (0.05...0.3).contains(Live.now.truncatingRemainder(dividingBy: 1)) }
        #expect(try service.ask("live rm show") == "ok\n")
        // A tick may come first; the empty line follows at once.
        var next = try watcher.readLine()
        if next.hasPrefix("Show") { next = try watcher.readLine() }
        #expect(next == "", "no rooms again: an empty line")
        watcher.close()
        try service.stop()
    }

    @Test("stats counts open watches; errors and non-watchable requests")
    func countsAndErrors() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        var watchers: [RawClient] = []
        for request in ["watch time HH:mm:ss", "watch time HH:mm:ss", "watch countdown", "watch ticker"] {
            let client = try RawClient(path: service.socketPath, timeout: 3)
            try client.send(request + "\n")
            _ = try client.readLine()
            watchers.append(client)
        }
        let open = try Live.stats(service.socketPath)
        #expect(open["watches"] == "4", "\(open)")
        #expect(Int(open["timers"] ?? "") ?? 0 >= 1, "a timer runs while there are watches: \(open)")

        for request in ["watch live add x +1h", "watch watch time", "watch session", "watch quit", "watch reload"] {
            let answer = try service.ask(request)
            #expect(answer.hasPrefix("ERR not-watchable "), "\(request): \(answer.debugDescription)")
        }
        #expect(try service.ask("watch").hasPrefix("ERR bad-argument "))
        #expect(try service.ask("live list") == "\n", "a refused watch of live add changes nothing")

        for watcher in watchers { watcher.close() }
        #expect(eventually(timeout: 2) {
            let stats = try? Live.stats(service.socketPath)
            return stats?["watches"] == "0" && stats?["timers"] == "0"
        }, "\((try? Live.stats(service.socketPath)) ?? [:])")
        try service.stop()
    }

    @Test("watchers of one request leave first, last and in between: every one left is still updated on each tick")
    func watchersLeaveInAnyOrder() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        var watchers: [RawClient] = []
        for _ in 0..<6 {
            let client = try RawClient(path: service.socketPath, timeout: 3)
            try client.send("watch time HH:mm:ss\n")
            _ = try client.readLine()
            watchers.append(client)
        }
        // The first, then the one that took its place (the last), then one in the middle.
        for (closed, index) in [0, 5, 2].enumerated() {
            watchers[index].close()
            let left = watchers.count - closed - 1
            #expect(eventually(timeout: 5) { (try? Live.stats(service.socketPath)["watches"]) == "\(left)" })  // nil: asked again until the deadline
        }
        for index in [1, 3, 4] {
            // Two more ticks each (at most ~1 s apart): every watcher still in the group hears them.
            for _ in 0..<2 {
                let line = try watchers[index].readLine()
                #expect(line.split(separator: ":").count == 3, "watcher \(index): \(line.debugDescription)")
            }
        }
        #expect(try Live.stats(service.socketPath)["watches"] == "3")
        for index in [1, 3, 4] { watchers[index].close() }
        #expect(eventually(timeout: 5) { (try? Live.stats(service.socketPath)["watches"]) == "0" })
        try service.stop()
    }
}
