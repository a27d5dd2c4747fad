import Foundation
import Testing

/// Alarms at odd instants and in hostile numbers through the real service (issue 31, point
/// 10): across both of New York's DST changes under faketime, the first instance's alarm that
/// comes before the series itself begins, 10,000 VALARMs in one event, a TRIGGER of P9999W.
@Suite("alarms at odd instants and in hostile numbers")
struct AlarmEdgeServiceTests {
    static func calendar(_ events: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"] + events + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// A service whose clock starts at `clock` (UTC) in New York, reading `ics`.
    static func service(clock: String, ics: String, in folder: TemporaryDirectory) throws -> TestService {
        let calendar = try folder.makeDirectory("cal")
        try ics.write(toFile: calendar + "/edge.ics", atomically: true, encoding: .utf8)
        var configuration = TestService.Configuration()
        configuration.fakeTime = clock
        configuration.arguments = ["--language", "en", "--timezone", "America/New_York"]
        configuration.config = #"{"calendars": ["\#(calendar)"]}"#
        return try TestService.start(configuration)
    }

    /// The first `phase` line of `watch events` within `seconds`.
    static func firstLine(_ service: TestService, phase: String, within seconds: Double) throws -> [String: String]? {
        let client = try RawClient(path: service.socketPath, timeout: 60)
        defer { client.close() }
        try client.send("watch events\n")
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, let line = try? client.readLine(timeout: deadline.timeIntervalSinceNow) {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], object["phase"] == phase { return object }
        }
        return nil
    }

    @Test("spring forward: a daily series from 03:30 on the day the clocks skip 02:00–03:00; its first alarm, an hour before, comes at 01:30 EST — before the series begins")
    func springForward() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let ics = Self.calendar(["BEGIN:VEVENT", "UID:early", "DTSTAMP:20270101T000000Z", "DTSTART;TZID=America/New_York:20270314T033000",
                                 "DTEND;TZID=America/New_York:20270314T040000", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Early",
                                 "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT1H", "END:VALARM", "END:VEVENT"])
        // 07:30Z is 03:30 EDT; the alarm is due at 06:30Z, 01:30 EST. The clock starts 20 s before.
        let service = try Self.service(clock: "2027-03-14 06:29:40", ics: ics, in: folder)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let pending = try service.ask("remind list")
        #expect(pending.contains("\t2027-03-14T01:30:00-05:00\tcalendar:early\tEarly"), "\(pending)")
        let line = try Self.firstLine(service, phase: "alarm", within: 40)
        #expect(line?["at"] == "2027-03-14T01:30:00-05:00" && line?["start"] == "2027-03-14T03:30:00-04:00", "\(String(describing: line))")
        let next = try service.ask("remind list")
        #expect(next.contains("\t2027-03-15T02:30:00-04:00\tcalendar:early\tEarly"), "the next instance's, an hour before 03:30 EDT: \(next)")
    }

    @Test("fall back: an event at 01:30 on the day 01:00–02:00 comes twice is the first 01:30 (EDT); its alarm an hour before is at 00:30 EDT")
    func fallBack() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let ics = Self.calendar(["BEGIN:VEVENT", "UID:twice", "DTSTAMP:20270101T000000Z", "DTSTART;TZID=America/New_York:20271107T013000",
                                 "DURATION:PT1H", "SUMMARY:Twice",
                                 "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT1H", "END:VALARM", "END:VEVENT"])
        let service = try Self.service(clock: "2027-11-07 04:29:40", ics: ics, in: folder)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let line = try Self.firstLine(service, phase: "alarm", within: 40)
        #expect(line?["at"] == "2027-11-07T00:30:00-04:00" && line?["start"] == "2027-11-07T01:30:00-04:00", "\(String(describing: line))")
    }

    @Test("10,000 VALARMs in one event: read within the calendar's bounds, 8 kept and the rest named; a TRIGGER of P9999W is refused, the event kept")
    func hostileAlarms() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var flood = ["BEGIN:VEVENT", "UID:flood", "DTSTAMP:20270101T000000Z", "DTSTART:20270601T120000Z", "DURATION:PT1H", "SUMMARY:Flood"]
        for minute in 1...10_000 { flood += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT\(minute)M", "END:VALARM"] }
        flood.append("END:VEVENT")
        let far = ["BEGIN:VEVENT", "UID:far", "DTSTAMP:20270101T000000Z", "DTSTART:20270601T130000Z", "DURATION:PT1H", "SUMMARY:Far",
                   "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-P9999W", "END:VALARM", "END:VEVENT"]
        let service = try Self.service(clock: "2027-06-01 10:00:00", ics: Self.calendar(flood + far), in: folder)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let pending = try service.ask("remind list").split(separator: "\n")
        #expect(pending.filter { $0.contains("\tcalendar:flood\t") }.count == 8, "\(pending)")
        #expect(!pending.contains { $0.contains("calendar:far") }, "\(pending)")
        let stats = try service.ask("stats")
        #expect(stats.contains("calendar_events: 2"), "both events kept: \(stats)")
        #expect(try service.ask("live show calendar:far").contains("title: Far"))
        #expect(stats.contains("calendar_problems: 2 ("), "one problem each: \(stats)")
        #expect(eventually(timeout: 10) { service.stderrText.contains("9992 more VALARMs than the 8 kept per event") }, "\(service.stderrText)")
        #expect(eventually(timeout: 10) { service.stderrText.contains("calendar:far") || service.stderrText.contains("far: its alarms") }, "\(service.stderrText)")
    }
}
