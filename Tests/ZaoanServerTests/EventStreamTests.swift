import Foundation
import Testing

/// `watch events`: one JSON line the second a room or calendar event becomes soon, goes
/// live or ends — and nothing else.
@Suite("watch events")
struct EventStreamTests {
    private func object(_ line: String) -> [String: String]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
    }

    private func instant(_ iso: String?) -> Date? {
        iso.flatMap { ISO8601DateFormatter().date(from: $0) }
    }

    @Test("nothing on subscribing; then soon, live and ended, each within a second of its moment, rooms and calendar events alike")
    func transitionsOnTime() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"soon_threshold": 2, "calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        let client = try RawClient(path: service.socketPath, timeout: 20)
        try client.send("watch events\n")
        #expect(throws: (any Error).self, "nothing is sent on subscribing") { _ = try client.readLine(timeout: 1.5) }

        #expect(try service.ask("live add quick +5s Quick end=+3s") == "ok\n")
        var received: [(line: [String: String], arrived: Date)] = []
        let deadline = Date().addingTimeInterval(15)
        while received.count < 3, Date() < deadline {
            guard let line = try? client.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) else { break }
            received.append((object(line) ?? ["raw": line], Date()))
        }
        #expect(received.map { $0.line["phase"] } == ["soon", "live", "ended"], "\(received.map(\.line))")
        #expect(received.allSatisfy { $0.line["id"] == "quick" && $0.line["title"] == "Quick" && $0.line["source"] == "live" },
                "\(received.map(\.line))")
        for (line, arrived) in received {
            let at = try #require(instant(line["at"]), "\(line)")
            #expect(arrived.timeIntervalSince(at) > -0.5 && arrived.timeIntervalSince(at) < 1.5,
                    "\(line["phase"] ?? "?") arrived \(arrived.timeIntervalSince(at)) s after its moment")
        }
        // Every line names the room's own start and end beside its moment (soon comes
        // soon_threshold before the start), and says the moment in the service's language.
        let lines = received.map(\.line)
        if lines.count == 3, let start = lines[1]["at"], let end = lines[2]["at"] {
            #expect(lines.allSatisfy { $0["start"] == start && $0["end"] == end }, "\(lines)")
            #expect(instant(lines[0]["at"]).map { instant(start)!.timeIntervalSince($0) } == 2, "\(lines)")
            let clock = { (iso: String) in String(iso.dropFirst(11).prefix(8)) }
            #expect(lines.map { $0["text"] } == ["soon — starts at \(clock(start))", "live now — since \(clock(start))", "ended at \(clock(end))"],
                    "\(lines)")
        }

        // A calendar event starting in a few seconds: its moments come the same way.
        let event = CalendarFeedTests.event(uid: "cal-2", title: "Call", start: Date().addingTimeInterval(4))
        try event.write(toFile: calendar + "/call.ics", atomically: true, encoding: .utf8)
        var live: [String: String]?
        let until = Date().addingTimeInterval(12)
        while live == nil, Date() < until, let line = try? client.readLine(timeout: max(0.1, until.timeIntervalSinceNow)) {
            if let parsed = object(line), parsed["phase"] == "live" { live = parsed }
        }
        #expect(live?["title"] == "Call" && live?["source"] == calendar + "/call.ics" && live?["id"] == "calendar:cal-2", "\(String(describing: live))")
        #expect(live?["start"] == live?["at"] && live?["text"]?.hasPrefix("in progress — since ") == true, "\(String(describing: live))")
    }

    @Test("watch events takes --format=json and no other format")
    func formats() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        #expect(try service.ask("watch --format=i3bar events").hasPrefix("ERR bad-argument watch events streams JSON lines only; leave out --format=i3bar"))
        #expect(try service.ask("watch events now").hasPrefix("ERR bad-argument"))
        let client = try RawClient(path: service.socketPath, timeout: 10)
        try client.send("watch --format=json events\n")
        #expect(try service.ask("live add r +2s Two end=+1s") == "ok\n")
        // Added inside the soon window (600 s): soon at once, then live.
        let line = try client.readLine(timeout: 6)
        #expect(object(line)?["phase"] == "soon", "\(line)")
        let live = try client.readLine(timeout: 6)
        #expect(object(live)?["phase"] == "live", "\(live)")
    }

    @Test("zaoan watch events waits quietly for the next moment instead of timing out")
    func clientWaits() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let watcher = try RunningZaoan(["watch", "--socket", service.socketPath, "--timeout", "1", "events"],
                                       environment: service.environment, scratch: service.directory)
        defer { _ = watcher.terminate() }
        Thread.sleep(forTimeInterval: 3)
        #expect(watcher.process.isRunning, "still waiting after three times its --timeout: \(watcher.lines) \(watcher.errorText)")
        #expect(try service.ask("live add w +1s Wake end=+1s") == "ok\n")
        let live = watcher.line(within: 8) { $0.contains(#""phase":"live""#) }
        #expect(live?.contains(#""title":"Wake""#) == true, "\(watcher.lines) \(watcher.errorText)")
    }

    @Test("a room or event that appears already soon is said soon at once (live add tea +60s); one soon before the stream began is not")
    func appearsInsideTheSoonWindow() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("live add early +120s Early") == "ok\n")  // soon before anyone listens
        let client = try RawClient(path: service.socketPath, timeout: 20)
        try client.send("watch events\n")
        #expect(throws: (any Error).self, "nothing is sent on subscribing, not even for a room already soon") { _ = try client.readLine(timeout: 1.5) }

        let added = Date()
        #expect(try service.ask("live add tea +60s Tea") == "ok\n")
        let soon = try object(client.readLine(timeout: 10))
        #expect(soon?["id"] == "tea" && soon?["phase"] == "soon", "\(soon ?? [:])")
        #expect(Date().timeIntervalSince(added) < 5, "at once, not at the start")
        // The same room again, unchanged: nothing new; moved to another start: soon again.
        #expect(try service.ask("live add tea +60s Tea") == "ok\n")
        #expect(try service.ask("live add tea +50s Tea") == "ok\n")
        let moved = try object(client.readLine(timeout: 10))
        #expect(moved?["id"] == "tea" && moved?["phase"] == "soon", "\(moved ?? [:])")

        // A calendar event that appears 90 s ahead (soon_threshold is 600 s): soon at once.
        let event = CalendarFeedTests.event(uid: "cal-soon", title: "Standup", start: Date().addingTimeInterval(90))
        try event.write(toFile: calendar + "/standup.ics", atomically: true, encoding: .utf8)
        var line: [String: String]?
        let until = Date().addingTimeInterval(15)
        while Date() < until, let read = try? client.readLine(timeout: max(0.1, until.timeIntervalSinceNow)) {
            line = object(read)
            if line?["title"] == "Standup" { break }
        }
        #expect(line?["title"] == "Standup" && line?["phase"] == "soon", "\(line ?? [:])")
    }
}
