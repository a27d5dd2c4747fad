import Foundation
import Testing

/// `watch events` under a calendar of thousands of simultaneous events: a firing's lines are
/// bounded (`EventFiring.linesInFull` in full, then a line per phase counting the rest), the
/// user's own room is among those shown, and a subscriber that stops reading is cut.
@Suite("watch events under a flood")
struct EventFloodTests {
    static let linesInFull = 8

    /// One calendar file of `count` events, all from `start` for an hour.
    static func flood(_ count: Int, start: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"]
        for index in 0..<count {
            lines += ["BEGIN:VEVENT", "UID:flood-\(index)", "DTSTAMP:20261201T000000Z",
                      "DTSTART:\(formatter.string(from: start))", "DTEND:\(formatter.string(from: start.addingTimeInterval(3600)))",
                      "SUMMARY:Flood \(index)", "END:VEVENT"]
        }
        lines += ["END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    private static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test("3,000 events starting in one second: 8 lines in full with the user's own room among them, then one line counting the rest")
    func boundedFiring() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        // Whole seconds, far enough ahead for the calendar to be read on a loaded machine.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 12).rounded(.down))
        try Self.flood(3_000, start: start).write(toFile: calendar + "/flood.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"soon_threshold": 3, "calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let seconds = Int(start.timeIntervalSinceNow.rounded(.down))
        try #require(seconds >= 5, "the calendar took too long to read to see its soon moment; \(seconds) s were left")
        #expect(try service.ask("live add mine @\(Int(start.timeIntervalSince1970)) Mine end=+1h") == "ok\n")
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send("watch events\n")

        var byPhase: [String: [[String: Any]]] = [:]
        let deadline = Date().addingTimeInterval(30)
        // Until the live firing's "more" line, or (without the bound) more live lines than it sends.
        while !byPhase["more", default: []].contains(where: { $0["of"] as? String == "live" }),
              byPhase["live", default: []].count <= Self.linesInFull + 1, Date() < deadline {
            let line = try client.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow))
            let parsed = try #require(Self.object(line), "every line is a JSON object: \(line)")
            byPhase[parsed["phase"] as? String ?? "?", default: []].append(parsed)
        }
        for phase in ["soon", "live"] {
            let shown = byPhase[phase, default: []]
            #expect(shown.count == Self.linesInFull, "\(phase): \(Self.linesInFull) moments in full, not \(shown.count)")
            #expect(shown.contains { $0["id"] as? String == "mine" }, "the user's own room is shown before calendar events: \(shown.map { $0["id"] ?? "?" })")
            let more = byPhase["more", default: []].filter { $0["of"] as? String == phase }
            #expect(more.count == 1, "\(phase): one line for the rest: \(more)")
            #expect(more.first?["count"] as? Int == 3_001 - Self.linesInFull, "\(more)")
            let text = more.first?["text"] as? String ?? ""
            #expect(text.hasPrefix("and \(3_001 - Self.linesInFull) more ") && text.hasSuffix("zaoan ask schedule"), "\(text)")
        }
        #expect(try service.ask("ping") == "pong\n")
    }
}

/// How a subscriber learns what it missed: `watch events since=TIME` replays the moments
/// after TIME, and `zaoan watch events` asks for them when it comes back.
@Suite("watch events: what a subscriber missed")
struct EventReplayTests {
    private static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test("since=TIME replays the moments after TIME at once; a bad TIME is refused")
    func replayedOnSubscribing() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"soon_threshold": 2}"#)
        defer { try? service.stop() }
        let first = try RawClient(path: service.socketPath, timeout: 20)
        try first.send("watch events\n")
        #expect(try service.ask("live add quick +4s Quick end=+30m") == "ok\n")
        let soon = try #require(Self.object(try first.readLine()), "a soon line")
        let live = try #require(Self.object(try first.readLine()), "a live line")
        #expect(soon["phase"] as? String == "soon" && live["phase"] as? String == "live")
        let soonAt = try #require(soon["at"] as? String)
        // A subscriber that read nothing since before the soon moment gets both, at once.
        let late = try RawClient(path: service.socketPath, timeout: 5)
        try late.send("watch events since=\(soonAt.replacingOccurrences(of: "+00:00", with: "Z").dropLast(3))00Z\n")
        let replayed = [try late.readLine(timeout: 5), try late.readLine(timeout: 5)].compactMap(Self.object)
        #expect(replayed.map { $0["phase"] as? String } == ["soon", "live"], "\(replayed)")
        #expect(replayed.allSatisfy { $0["id"] as? String == "quick" })
        // One whose last line was the soon one gets the live one only.
        let next = try RawClient(path: service.socketPath, timeout: 5)
        try next.send("watch --format=json events since=\(soonAt)\n")
        #expect((try next.readLine(timeout: 5)).contains(#""phase":"live""#))
        #expect(throws: (any Error).self, "nothing more until the next moment") { _ = try next.readLine(timeout: 1) }
        for bad in ["since=", "since=yesterday-ish", "now", "since=1 since=2"] {
            let answer = try service.ask("watch events \(bad)")
            #expect(answer.hasPrefix("ERR bad-argument"), "\(bad): \(answer)")
        }
    }

    @Test("zaoan watch events that lost the service asks for what it missed when it comes back: the moment that passed while it was away is not lost")
    func clientCatchesUp() throws {
        let world = try LiveWorld(config: #"{"soon_threshold": 3}"#, arguments: ["--timezone", "UTC", "--language", "en"])
        let first = try world.start()
        let watch = try RunningZaoan(["watch", "--socket", world.socketPath, "--retry-after", "200ms", "events"],
                                     environment: first.environment, scratch: world.directory)
        defer { _ = watch.terminate() }
        #expect(eventually(timeout: 10) { (try? first.ask("stats"))?.contains("connections_open: 2") == true }, "the client subscribed")
        #expect(try first.ask("live add gap +5s Gap end=+1h") == "ok\n")
        let soon = watch.line(within: 10) { $0.contains(#""phase":"soon""#) }
        #expect(soon != nil, "\(watch.lines); \(watch.errorText)")
        // The service goes away before the live moment and comes back after it.
        try first.stop()
        #expect(watch.line(within: 5) { $0.hasPrefix("zaoan:") } != nil, "\(watch.lines)")
        let start = try #require(soon.flatMap(Self.object)?["start"] as? String, "the room's start in the soon line")
        let startDate = try #require(ISO8601DateFormatter().date(from: start), "\(start)")
        #expect(eventually(timeout: 10) { Date() > startDate.addingTimeInterval(1) })
        let second = try world.start()
        defer { try? second.stop() }
        let live = watch.line(within: 10) { $0.contains(#""phase":"live""#) }
        #expect(live?.contains(#""id":"gap""#) == true, "the live moment passed while the service was away: \(watch.lines); \(watch.errorText)")
    }
}
