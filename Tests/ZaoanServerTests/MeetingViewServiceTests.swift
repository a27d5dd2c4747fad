import Foundation
import Testing

/// What a bar shows during a meeting (issue 31, point 6) through the real service: a
/// countdown format's `{ends_in}` and `{next}`, and `before_end`'s `ending` line in
/// `watch events` on its second.
@Suite("during a meeting: ends in, next, before_end")
struct MeetingViewServiceTests {
    @Test("{ends_in} and {next} in a countdown format; before_end \"2s\" sends ending two seconds before the end, then ended")
    func endsInNextEnding() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"""
            {"before_end": "2s", "countdown_formats": {"m": {"live": "{title} ends in {ends_in} · next: {next}"}}}
            """#)
        defer { try? service.stop() }
        let end = NotifyAlarmTests.second(in: 6)
        let started = NotifyIntegrationTests.Room.iso(end.unix - 600)
        #expect(try service.ask("live add standup \(started) Standup end=\(end.iso)") == "ok\n")
        #expect(try service.ask("live add review +1h Review") == "ok\n")
        let client = try RawClient(path: service.socketPath, timeout: 30)
        defer { client.close() }
        try client.send("watch events\n")

        let text = try service.ask("countdown format=m")
        #expect(text.range(of: #"^Standup ends in 00:00:0[1-7] · next: Review · starts in (00:59:[0-9]{2}|01:00:00)\n$"#, options: .regularExpression) != nil,
                "\(text.debugDescription)")
        #expect(try service.ask("countdown") .hasPrefix("Standup · live "), "without format=, today's text")

        var lines: [(phase: String, arrived: Double, text: String)] = []
        while lines.count < 2, let line = try? client.readLine(timeout: 15) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            lines.append((object["phase"] ?? "", Date().timeIntervalSince1970, object["text"] ?? ""))
        }
        #expect(lines.map(\.phase) == ["ending", "ended"], "\(lines)")
        if lines.count == 2 {
            #expect(lines[0].text == "ending — ends at \(NotifyIntegrationTests.Room.clock(end.unix))", "\(lines)")
            #expect(abs(lines[0].arrived - Double(end.unix - 2)) < 1.5 && abs(lines[1].arrived - Double(end.unix)) < 1.5, "on their seconds: \(lines)")
        }
    }

    @Test("a bad before_end is said with what to write, and the service keeps its default")
    func badBeforeEnd() throws {
        let service = try TestService.start(arguments: ["--language", "en"], config: #"{"before_end": "soon"}"#)
        defer { try? service.stop() }
        let problems = try service.ask("stats")
        #expect(problems.contains("before_end") && problems.contains(#"expected seconds or a duration such as "5m""#), "\(problems)")
    }
}
