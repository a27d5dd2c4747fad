import Foundation
import Testing

/// Meeting links (issue 31, point 5) through the real service, its reader process and the
/// real client: a calendar file's CONFERENCE, X- properties and texts become `live show`'s
/// `join:`/`provider:`, `watch events`' `"join"`/`"provider"`, `{join}`/`{provider}`, the
/// tooltip's provider; `zaoan join` and a `join` click open the link with `bar_url_opener`.
@Suite("meeting links through the service")
struct MeetingLinkServiceTests {
    static let zoom = "https://us02web.zoom.us/j/8123456789?pwd=abc"
    static let teams = "https://teams.microsoft.com/l/meetup-join/19%3ameeting"

    /// A live event with a phone bridge, a Zoom CONFERENCE (FEATURE=AUDIO,VIDEO) and other
    /// links in its texts; one later whose Teams link hides behind Outlook's SafeLinks.
    static func writeCalendar(to folder: String) throws {
        try CalendarFieldsTests.calendar(uid: "standup", title: "Standup", minutes: -1, fields: [
            "CONFERENCE;VALUE=URI;FEATURE=PHONE;LABEL=Dial in:tel:+1-555-0100",
            "CONFERENCE;VALUE=URI;FEATURE=AUDIO,VIDEO;LABEL=Zoom:\(zoom)",
            "LOCATION:https://maps.example.org/room-4",
            "URL:https://example.org/agenda",
            "DESCRIPTION:Or Meet: https://meet.google.com/aaa-bbbb-ccc",
        ]).write(toFile: folder + "/standup.ics", atomically: true, encoding: .utf8)
        let safe = "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fteams.microsoft.com%2Fl%2Fmeetup-join%2F19%253ameeting&data=05"
        try CalendarFieldsTests.calendar(uid: "review", title: "Review", minutes: 180, fields: ["DESCRIPTION:Join the meeting now<\(safe)>"])
            .write(toFile: folder + "/review.ics", atomically: true, encoding: .utf8)
    }

    static func start(_ calendar: String, opener: String, extra: String = "") throws -> TestService {
        try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                              config: #"{"calendars": ["\#(calendar)"], "status_template": "{countdown} via {provider}: {join}", "bar_url_opener": ["\#(opener)"]\#(extra)}"#)
    }

    @Test("live show, watch events, {join}/{provider}, the tooltip and the join request show the CONFERENCE's Zoom link; SafeLinks unwrapped")
    func shown() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        try Self.writeCalendar(to: calendar)
        let (opener, _) = try ClickActionTests.recorder(in: folder)
        let service = try Self.start(calendar, opener: opener)
        defer { try? service.stop() }
        #expect(eventually(timeout: 20) { (try? service.ask("join")) == Self.zoom + "\n" }, "\(String(describing: try? service.ask("join")))")

        let show = try service.ask("live show calendar:standup").split(separator: "\n").map(String.init)
        #expect(show.contains("join: \(Self.zoom)") && show.contains("provider: Zoom"), "\(show)")
        #expect(show.contains("url: https://example.org/agenda") && show.contains("location: https://maps.example.org/room-4"), "the other fields as they were: \(show)")
        let review = try service.ask("live show calendar:review").split(separator: "\n").map(String.init)
        #expect(review.contains("join: \(Self.teams)") && review.contains("provider: Microsoft Teams"), "SafeLinks unwrapped: \(review)")

        #expect(try service.ask("join status") == Self.zoom + "\n" && service.ask("join countdown") == Self.zoom + "\n")
        #expect(try [Self.zoom + "\n", Self.teams + "\n"].contains(service.ask("join ticker 1")), "the ticker's room, which rotates")
        #expect(try service.ask("url countdown") == "https://example.org/agenda\n", "url is still the event's URL")
        #expect(try service.ask("join time").hasPrefix("ERR bad-argument join takes countdown, ticker or status"))

        let status = try service.ask("status")
        #expect(status.hasSuffix(" via Zoom: \(Self.zoom)\n"), "\(status.debugDescription)")
        let tooltip = try #require((try JSONSerialization.jsonObject(with: Data(service.ask("--format=json countdown").utf8)) as? [String: Any])?["tooltip"] as? String)
        #expect(tooltip.split(separator: "\n").contains("Zoom"), "\(tooltip)")

        let client = try RawClient(path: service.socketPath, timeout: 30)
        defer { client.close() }
        try client.send("watch events since=-5m\n")
        let line = try client.readLine(timeout: 10)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(event["id"] as? String == "calendar:standup" && event["join"] as? String == Self.zoom && event["provider"] as? String == "Zoom", "\(line)")
    }

    @Test("zaoan join runs bar_url_opener with the meeting link; a join click opens it, else the event's URL")
    func opened() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        try Self.writeCalendar(to: calendar)
        let (opener, log) = try ClickActionTests.recorder(in: folder)
        let service = try Self.start(calendar, opener: opener, extra: #", "bar_clicks": {"countdown": {"left": "join"}, "ticker": {"middle": "join"}}"#)
        defer { try? service.stop() }
        #expect(eventually(timeout: 20) { (try? service.ask("join")) == Self.zoom + "\n" })

        let joined = try service.zaoan(["join", "--socket", service.socketPath])
        #expect(joined.status == 0, "\(joined)")
        #expect(eventually(timeout: 10, interval: 0.1) { ClickActionTests.runs(log()) == [[Self.zoom]] }, "\(log())")
        #expect(log().components(separatedBy: "---\n").first.map(ClickActionTests.ranDetached) == true, "as a click's opener runs: \(log())")
        let next = try service.zaoan(["join", "--socket", service.socketPath, "ticker", "1"])
        #expect(next.status == 0 && eventually(timeout: 10, interval: 0.1) { ClickActionTests.runs(log()).count == 2 }, "\(next) \(log())")
        #expect(ClickActionTests.runs(log()).last.map { [[Self.zoom], [Self.teams]].contains($0) } == true, "the ticker's room: \(log())")

        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "--format", "json", "countdown"], environment: service.environment, scratch: service.directory)
        defer { _ = watch.terminate() }
        #expect(watch.line(within: 10) { $0.contains("Standup") } != nil, "\(watch.errorText)")
        #expect(eventually(timeout: 10) { ClickActionTests.fifos(service).count == 1 })
        let clicked = try ClickActionTests.click(["countdown", "left"], service)
        #expect(clicked.status == 0, "\(clicked)")
        #expect(eventually(timeout: 10, interval: 0.1) { ClickActionTests.runs(log()).count == 3 }, "\(log()) \(watch.errorText)")
        #expect(ClickActionTests.runs(log()).last == [Self.zoom], "\(log())")

        // Without a meeting link the click opens what open-link does: the event's URL.
        try CalendarFeedTests.replace(calendar + "/standup.ics", with: CalendarFieldsTests.calendar(
            uid: "standup", title: "Standup", minutes: -1, fields: ["URL:https://example.org/agenda"]))
        #expect(eventually(timeout: 20) { (try? service.ask("join")) == "\n" })
        _ = try ClickActionTests.click(["countdown", "left"], service)
        #expect(eventually(timeout: 10, interval: 0.1) { ClickActionTests.runs(log()).count == 4 }, "\(log()) \(watch.errorText)")
        #expect(ClickActionTests.runs(log()).last == ["https://example.org/agenda"], "\(log())")
    }

    @Test("a CONFERENCE of javascript: is refused and said, changes nothing else, and zaoan join opens nothing")
    func javascriptRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        try CalendarFieldsTests.calendar(uid: "trap", title: "Trap", minutes: -1, fields: [
            "CONFERENCE;VALUE=URI;FEATURE=VIDEO:javascript:alert(document.cookie)",
            "CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://zoom.us/j/1\u{202E}gpj.exe",
            "URL:https://example.org/page", "LOCATION:Room 4",
        ]).write(toFile: calendar + "/trap.ics", atomically: true, encoding: .utf8)
        let (opener, log) = try ClickActionTests.recorder(in: folder)
        let service = try Self.start(calendar, opener: opener)
        defer { try? service.stop() }
        #expect(eventually(timeout: 20) { (try? service.ask("live show calendar:trap"))?.hasPrefix("id: calendar:trap") == true })

        let show = try service.ask("live show calendar:trap").split(separator: "\n").map(String.init)
        #expect(!show.contains { $0.hasPrefix("join:") || $0.hasPrefix("provider:") }, "\(show)")
        #expect(show.contains("title: Trap") && show.contains("url: https://example.org/page") && show.contains("location: Room 4"), "the event is kept as it was: \(show)")
        #expect(try service.ask("join") == "\n")
        #expect(try service.ask("status").hasSuffix(" via :\n"), "nothing for {provider} and {join}")
        #expect(eventually(timeout: 10) { service.stderrText.contains("its CONFERENCE 'javascript:alert(document.cookie)' is not taken: only http and https links are join links (and 1 more)") },
                "said in the log: \(service.stderrText)")
        #expect(!service.stderrText.contains("\u{202E}"), "the override is not written to the log")

        let joined = try service.zaoan(["join", "--socket", service.socketPath])
        #expect(joined.status == 1 && joined.errorOutput.contains("nothing live or next has a meeting link"), "\(joined)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(log().isEmpty, "nothing opened: \(log())")
    }

    @Test("privacy on leaves out the meeting link and its provider everywhere: live show, join, {join}/{provider}, the tooltip, watch events")
    func privacyHides() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        try Self.writeCalendar(to: calendar)
        let (opener, log) = try ClickActionTests.recorder(in: folder)
        let service = try Self.start(calendar, opener: opener)
        defer { try? service.stop() }
        #expect(eventually(timeout: 20) { (try? service.ask("join")) == Self.zoom + "\n" })
        #expect(try service.ask("privacy on") == "ok\n")

        let show = try service.ask("live show calendar:standup")
        #expect(show.contains("title: Busy") && !show.contains("join:") && !show.contains("provider:") && !show.contains("zoom"), "\(show)")
        #expect(try service.ask("join") == "\n" && service.ask("join ticker 1") == "\n")
        #expect(try service.ask("status").hasSuffix(" via :\n"))
        let tooltip = try service.ask("--format=json countdown")
        #expect(!tooltip.contains("Zoom") && !tooltip.contains("zoom"), "\(tooltip)")
        let client = try RawClient(path: service.socketPath, timeout: 30)
        defer { client.close() }
        try client.send("watch events since=-5m\n")
        let line = try client.readLine(timeout: 10)
        #expect(line.contains("calendar:standup") && !line.contains("\"join\"") && !line.contains("\"provider\""), "\(line)")
        let joined = try service.zaoan(["join", "--socket", service.socketPath])
        #expect(joined.status == 1, "\(joined)")
        #expect(log().isEmpty, "nothing opened: \(log())")
    }
}
