import Foundation
import Testing

/// Alarms through the real service: a calendar's VALARMs and a room's `alarm=` fired as
/// `watch events` lines with `"phase":"alarm"`, `remind list`, `remind snooze` and
/// `remind dismiss` saved in the state file, and alarms missed while the service was not
/// running fired once at start.
@Suite("Alarms through the service")
struct AlarmServiceTests {
    private static func object(_ line: String) -> [String: String]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
    }

    private static func instant(_ iso: String?) -> Double? {
        iso.flatMap { ISO8601DateFormatter().date(from: $0) }?.timeIntervalSince1970
    }

    static func stamp(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// A VCALENDAR of VEVENTs, each `(uid, title, start, length, lines inside the VEVENT)`.
    static func calendar(_ events: [(uid: String, title: String, start: Int, length: Int, inside: [String])]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"]
        for event in events {
            lines += ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20261201T000000Z", "DTSTART:\(stamp(event.start))",
                      "DTEND:\(stamp(event.start + event.length))", "SUMMARY:\(event.title)"] + event.inside + ["END:VEVENT"]
        }
        return (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    static func alarm(_ lines: [String]) -> [String] { ["BEGIN:VALARM"] + lines + ["END:VALARM"] }

    /// Lines of `client` until `count` alarm lines came or `seconds` passed; with when each arrived.
    private static func alarms(_ client: RawClient, count: Int, within seconds: Double) -> [(line: [String: String], arrived: Double)] {
        var found: [(line: [String: String], arrived: Double)] = []
        let deadline = Date().addingTimeInterval(seconds)
        while found.count < count, Date() < deadline {
            guard let line = try? client.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) else { break }
            if let parsed = object(line), parsed["phase"] == "alarm" { found.append((parsed, Date().timeIntervalSince1970)) }
        }
        return found
    }

    @Test("a calendar's VALARMs fire on their second: before the start, before the end, at an absolute time; EMAIL, NONE and acknowledged ones do not")
    func calendarAlarmsFire() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send("watch events\n")
        let start = Int(Date().timeIntervalSince1970) + 60
        let text = Self.calendar([(uid: "standup", title: "Standup", start: start, length: 60, inside:
            Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT52S"])
            + Self.alarm(["ACTION:AUDIO", "TRIGGER;RELATED=END:-PT110S"])
            + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;VALUE=DATE-TIME:\(Self.stamp(start - 48))"])
            + Self.alarm(["ACTION:EMAIL", "SUMMARY:x", "DESCRIPTION:x", "ATTENDEE:mailto:a@example.org", "TRIGGER:-PT51S"])
            + Self.alarm(["ACTION:NONE", "TRIGGER:-PT51S"])
            + Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT51S", "ACKNOWLEDGED:\(Self.stamp(start - 50))"]))])
        try CalendarFeedTests.replace(calendar + "/standup.ics", with: text)

        let fired = Self.alarms(client, count: 4, within: 25)
        let lines = fired.map(\.line)
        #expect(lines.compactMap { Self.instant($0["at"]).map { Int($0) - start } } == [-52, -50, -48], "\(lines)")
        #expect(lines.allSatisfy { $0["id"] == "calendar:standup" && $0["title"] == "Standup" }, "\(lines)")
        #expect(Set(lines.compactMap { $0["alarm"] }).count == 3 && lines.allSatisfy { ($0["alarm"] ?? "").count == 12 }, "\(lines)")
        #expect(lines.allSatisfy { $0["text"]?.hasPrefix("reminder — starts at ") == true }, "\(lines)")
        for (line, arrived) in fired {
            let at = try #require(Self.instant(line["at"]))
            #expect(arrived - at > -0.5 && arrived - at < 1.5, "an alarm arrived \(arrived - at) s after its second")
        }
        // Each fired once, and none repeats: nothing is pending.
        #expect(try service.ask("remind list") == "\n")
    }

    @Test("live add alarm=, remind list, snooze and dismiss: saved before answered and kept across a restart; bad input changes nothing")
    func remindCommands() throws {
        let world = try LiveWorld(arguments: ["--timezone", "UTC", "--language", "en"])
        let first = try world.start()
        #expect(try first.ask("live add tea +2h Tea alarm=-10m,-1h") == "ok\n")
        let shown = try Live.lines(first.ask("live show tea"))
        let start = try #require(shown.first { $0.hasPrefix("start: ") }.flatMap { Self.instant(String($0.dropFirst(7))) })
        var rows = try Live.lines(first.ask("remind list")).map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { Self.instant($0[1]).map { $0 - start } } == [-3600, -600], "\(rows)")
        #expect(rows.allSatisfy { $0.count == 4 && $0[2] == "tea" && $0[3] == "Tea" && $0[0].count == 12 }, "\(rows)")
        let (early, late) = (rows[0][0], rows[1][0])

        // Bad input: a clear error each, and nothing changes.
        let refusals = [
            ("live add x +1h X alarm=-8d", "ERR bad-argument alarm=-8d: a trigger -8d from the start is more than a week away"),
            ("live add x +1h X alarm=soon", "ERR bad-argument alarm=soon: 'soon' is not an alarm offset"),
            ("live add x +1h X alarm=", "ERR bad-argument alarm= takes offsets"),
            ("remind snooze zzz 5m", "ERR bad-argument 'zzz' is not an alarm ID"),
            ("remind snooze 0123456789ab 5m", "ERR not-found no alarm '0123456789ab'"),
            ("remind dismiss 0123456789ab", "ERR not-found no alarm '0123456789ab'"),
            ("remind snooze \(early) 10y", "ERR bad-argument snooze '10y': write 30s, 5m, 1h"),
            ("remind snooze \(early) 3650d", "ERR bad-argument snooze '3650d'"),
            ("remind snooze \(early) 1d", "ERR bad-argument the event ends at"),
            ("remind snooze \(early)", "ERR bad-argument usage: remind snooze ALARM DURATION|start"),
        ]
        for (request, answer) in refusals {
            let got = try first.ask(request)
            #expect(got.hasPrefix(answer), "\(request) → \(got)")
        }
        #expect(try world.stateFile()["reminders"] == nil, "no refusal wrote anything")
        #expect(try first.ask("live show x").hasPrefix("ERR not-found"))

        // Snooze the early one five minutes (before it fired: it comes then, not at start-1h),
        // dismiss the other.
        let asked = Date().timeIntervalSince1970
        #expect(try first.ask("remind snooze \(early) 5m") == "ok\n")
        #expect(try first.ask("remind dismiss \(late)") == "ok\n")
        rows = try Live.lines(first.ask("remind list")).map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count == 1 && rows.first?[0] == early, "\(rows)")
        let snoozedTo = try #require(rows.first.flatMap { Self.instant($0[1]) })
        #expect(snoozedTo - asked >= 299 && snoozedTo - asked <= 302, "snoozed to \(snoozedTo - asked) s from the request")
        let saved = try #require(world.stateFile()["reminders"] as? [String: Any])
        #expect((saved["alarms"] as? [[String: Any]])?.count == 2, "\(saved)")

        try first.stop()
        let second = try world.start()
        defer { try? second.stop() }
        let again = try Live.lines(second.ask("remind list")).map { $0.split(separator: "\t").map(String.init) }
        #expect(again == rows, "after a restart")
        #expect(try second.ask("remind snooze \(early) start") == "ok\n")
        #expect(try Live.lines(second.ask("remind list")).first.map { Self.instant(String($0.split(separator: "\t")[1])) } == start)
        #expect(try second.ask("remind dismiss \(early)") == "ok\n")
        #expect(try second.ask("remind list") == "\n")
    }

    @Test("alarms missed while the service was stopped fire once, a second after start, if their event has not ended; never again")
    func missedAtStart() throws {
        let world = try LiveWorld(arguments: ["--timezone", "UTC", "--language", "en"])
        let now = Int(Date().timeIntervalSince1970)
        // late: due 60 s ago, after the last alarm sent, its event ahead → fired at start.
        // gone: its event has ended → not fired. early: due before the last alarm sent → not again.
        let state = """
            {"version": 1, "rooms": [
              {"id": "late", "title": "Late", "start": \(now + 300), "alarms": ["S-360"]},
              {"id": "gone", "title": "Gone", "start": \(now - 250), "end": \(now - 100), "alarms": ["S-60"]},
              {"id": "early", "title": "Early", "start": \(now + 300), "alarms": ["S-500"]}],
             "reminders": {"sent_through": \(now - 200)}}
            """
        try FileManager.default.createDirectory(atPath: world.stateDirectory, withIntermediateDirectories: true)
        try state.write(toFile: world.statePath, atomically: true, encoding: .utf8)
        let first = try world.start()
        let client = try RawClient(path: world.socketPath, timeout: 30)
        try client.send("watch events since=-20s\n")
        let fired = Self.alarms(client, count: 2, within: 6)
        #expect(fired.map { $0.line["id"] } == ["late"], "\(fired.map(\.line))")
        if let at = fired.first.flatMap({ Self.instant($0.line["at"]) }) {
            #expect(at - Double(now) >= 0 && at - Double(now) < 15, "fired at start, \(at - Double(now)) s after the state was written")
        }
        // Saved as sent, so the next start does not fire it again.
        let sentAfter = eventually(timeout: 10) {
            ((try? world.stateFile())?["reminders"] as? [String: Any])?["sent_through"] as? Int ?? 0 >= now
        }
        #expect(sentAfter, "sent_through saved: \(String(describing: try? world.stateFile()["reminders"]))")
        client.close()
        try first.stop()

        let second = try world.start()
        defer { try? second.stop() }
        let watcher = try RawClient(path: world.socketPath, timeout: 10)
        try watcher.send("watch events\n")
        #expect(Self.alarms(watcher, count: 1, within: 3).isEmpty, "an alarm sent once is not sent again at the next start")
    }

    @Test("a calendar's default alarms apply to its events without VALARMs; a bad offset costs only itself")
    func defaultAlarms() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let start = (Int(Date().timeIntervalSince1970) / 60 + 180) * 60
        try CalendarFeedTests.replace(calendar + "/a.ics", with: Self.calendar([
            (uid: "plain", title: "Plain", start: start, length: 600, inside: []),
            (uid: "own", title: "Own", start: start, length: 600, inside: Self.alarm(["ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT5M"])),
        ]))
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": [{"path": "\#(calendar)", "alarms": ["-10m", "soon", "-1h"]}]}"#)
        defer { try? service.stop() }
        let answer = try service.ask("remind list", within: 10) { (try? Live.lines($0).count) == 3 }
        let rows = try Live.lines(answer).map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { [$0[2], String(Int(Self.instant($0[1]) ?? 0) - start)] }
            == [["calendar:plain", "-3600"], ["calendar:plain", "-600"], ["calendar:own", "-300"]], "\(rows)")
        #expect(service.stderrText.contains("calendars.0.alarms.1"), "the bad offset is named: \(service.stderrText)")
    }
}
