import Foundation
import Testing

/// `privacy on` through the real service: every answer and stream that shows a room or a
/// calendar event shows "Busy" for its title and leaves out its place, description and
/// link; times stay; the state is saved, survives a restart and shows in `stats`.
@Suite("privacy on and off through the service")
struct PrivacyServiceTests {
    /// Words of the room and the event that no answer may show while privacy is on.
    static let secrets = ["Acme", "Merger", "Ann", "Boardroom", "plans", "example.org"]

    /// Everything a bar, a prompt or a script reads about rooms and events.
    static let readers = ["countdown", "countdown tea", "ticker", "ticker 1", "status", "live list", "live show tea",
                          "live show calendar:merger", "schedule 48", "remind list", "url countdown",
                          "--format=json countdown", "--format=json ticker", "--format=i3bar ticker 1"]

    private static func answers(_ service: TestService) throws -> [String: String] {
        var answers: [String: String] = [:]
        for request in readers { answers[request] = try service.ask(request) }
        return answers
    }

    @Test("titles, places, descriptions and links hidden in every answer and in watch events; times kept; saved across a restart; privacy off shows them again")
    func hidesAndShows() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let world = try LiveWorld(config: #"{"calendars": ["\#(calendar)"]}"#, arguments: ["--timezone", "UTC", "--language", "en"])
        let first = try world.start()
        let start = Int(Date().timeIntervalSince1970) + 1800
        let text = AlarmServiceTests.calendar([(uid: "merger", title: "Acme Merger", start: start, length: 3600, inside: [
            "LOCATION:Boardroom 4", "DESCRIPTION:secret plans", "URL:https://example.org/acme"])])
        try CalendarFeedTests.replace(calendar + "/merger.ics", with: text)
        #expect(try first.ask("live add tea +1h Tea with Ann desc=plans alarm=-3590s") == "ok\n")
        #expect(eventually(timeout: 30) { (try? first.ask("live show calendar:merger"))?.contains("Acme Merger") == true },
                "the calendar event was read")
        let open = try Self.answers(first)
        #expect(open["countdown"]?.contains("Acme Merger") == true && open["live list"]?.contains("Tea with Ann") == true, "\(open)")

        // Bad words change nothing.
        for (request, answer) in [("privacy", "ERR bad-argument usage: privacy on|off"), ("privacy maybe", "ERR bad-argument usage: privacy on|off"),
                                  ("privacy on now", "ERR bad-argument usage: privacy on|off")] {
            let got = try first.ask(request)
            #expect(got.hasPrefix(answer), "\(request) → \(got)")
        }
        #expect(try world.stateFile()["privacy"] == nil)

        let watcher = try RawClient(path: world.socketPath, timeout: 30)
        try watcher.send("watch events\n")
        #expect(try first.ask("privacy ON") == "ok\n")
        #expect(try Live.lines(first.ask("stats")).contains("privacy: on"))
        #expect(try world.stateFile()["privacy"] as? Bool == true, "saved before it was answered")
        let hidden = try Self.answers(first)
        for (request, answer) in hidden {
            for secret in Self.secrets {
                #expect(!answer.contains(secret), "\(request) shows '\(secret)' while privacy is on: \(answer)")
            }
        }
        #expect(hidden["countdown"]?.hasPrefix("Busy") == true, "\(hidden["countdown"] ?? "")")
        #expect(hidden["url countdown"] == "\n", "no link: \(hidden["url countdown"] ?? "")")
        // Times stay: the list keeps each start and end, the show its start.
        let rows = try Live.lines(first.ask("live list")).map { $0.split(separator: "\t").map(String.init) }
        let openRows = try #require(open["live list"]).split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { Array($0.prefix(3)) } == openRows.map { Array($0.prefix(3)) } && rows.allSatisfy { $0.last == "Busy" }, "\(rows)")
        #expect(hidden["live show calendar:merger"]?.contains("start: ") == true)
        // The alarm 3,590 s before tea fires 10 s after it was added: its line is masked too.
        var alarm: String?
        let deadline = Date().addingTimeInterval(40)
        while alarm == nil, Date() < deadline, let line = try? watcher.readLine(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
            if line.contains(#""phase":"alarm""#) { alarm = line }
        }
        let line = try #require(alarm, "the alarm fired")
        #expect(line.contains(#""title":"Busy""#) && !Self.secrets.contains { line.contains($0) }, "\(line)")

        try first.stop()
        let second = try world.start()
        defer { try? second.stop() }
        #expect(eventually(timeout: 30) { (try? second.ask("live show calendar:merger"))?.hasPrefix("ERR") == false })
        let restarted = try Self.answers(second)
        for (request, answer) in restarted {
            #expect(!Self.secrets.contains { answer.contains($0) }, "after a restart, \(request): \(answer)")
        }
        #expect(try second.ask("privacy off") == "ok\n")
        #expect(try Live.lines(second.ask("stats")).contains("privacy: off"))
        #expect(try second.ask("countdown").contains("Acme Merger"))
        #expect(try second.ask("live show tea").contains("description: plans"))
        #expect(try world.stateFile()["privacy"] == nil, "off is the default: left out of the file")
    }
}
