import Foundation
import Testing

/// `tooltip_template` and `{agenda}` through the real service (its clock faked) and the real
/// `zaoan ask`: the rest of today's rooms and calendar events in waybar's tooltip, a line
/// each with times, title and calendar, escaped for Pango and bounded.
@Suite("The agenda in waybar's tooltip")
struct AgendaTooltipTests {
    static let day = "2026-12-07"

    /// A calendar folder holding an event 14:00–15:00 in Berlin (13:00 UTC) on `day`, and an
    /// all-day event that day.
    static func calendar(in directory: TemporaryDirectory, name: String = "work") throws -> String {
        let folder = try directory.makeDirectory(name)
        let events = [("review", "DTSTART:20261207T130000Z", "DTEND:20261207T140000Z", "Review"),
                      ("fair", "DTSTART;VALUE=DATE:20261207", "DTEND;VALUE=DATE:20261208", "Fair")]
        for (uid, start, end, title) in events {
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                         "DTSTAMP:20261201T000000Z", start, end, "SUMMARY:\(title)", "END:VEVENT", "END:VCALENDAR", ""]
            try lines.joined(separator: "\r\n").write(toFile: folder + "/\(uid).ics", atomically: true, encoding: .utf8)
        }
        return folder
    }

    static func tooltip(_ service: TestService, _ request: String = "--format=json status") throws -> String {
        let data = Data(try service.ask(request).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["tooltip"] as? String, "no tooltip: \(object)")
    }

    /// Adds rooms, failing the test on any answer but `ok`.
    static func add(_ service: TestService, _ requests: [String]) throws {
        for request in requests {
            let answer = try service.ask(request)
            guard answer == "ok\n" else { throw TestFailure("\(request): \(answer)") }
        }
    }

    @Test("{agenda} lists what is left of today, by start: times in time_format, title escaped, calendar in its colour; a whole day without times; not what ended or starts tomorrow")
    func agendaLines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let work = try Self.calendar(in: directory)
        let config = ##"{"calendars": [{"path": "\##(work)", "name": "Work", "color": "#3366CC"}], "tooltip_template": "{tooltip}\n\n{greeting} <{city}>\n{agenda}"}"##
        // en-GB: the 24-hour clock (en-US's 12-hour one is in `bounded`).
        let service = try TestService.start(at: "\(Self.day) 09:00:00", zone: "Europe/Berlin", language: "en-GB", config: config)
        defer { try? service.stop() }
        try Self.add(service, ["live add done \(Self.day)T07:00 Done end=\(Self.day)T08:00",
                               "live add stand \(Self.day)T08:30 Standup end=\(Self.day)T09:30",
                               "live add lunch \(Self.day)T12:00 <b>Lunch</b> & co",
                               "live add late \(Self.day)T23:30 Late end=2026-12-08T00:30",
                               "live add tomorrow 2026-12-08T00:00 Tomorrow"])
        let tooltip = try service.ask("--format=json status", within: 10) { $0.contains("Review") && $0.contains("Fair") }
        #expect(tooltip.contains("Review"), "the calendar was read: \(tooltip)")

        let shown = try Self.tooltip(service)
        let countdown = try Self.tooltip(service, "--format=json countdown")
        let expected = countdown + "\n\nGood morning · Berlin &lt;Berlin&gt;\n"
            + [##"<span foreground="#3366cc">Fair · Work</span>"##, "08:30–09:30 Standup", "12:00 &lt;b&gt;Lunch&lt;/b&gt; &amp; co",
               ##"<span foreground="#3366cc">14:00–15:00 Review · Work</span>"##, "23:30–00:30 Late"].joined(separator: "\n")
        #expect(shown == expected, "\(shown.debugDescription)\nexpected \(expected.debugDescription)")

        // The real client lets the markup (the calendar's colour) through as the service wrote it.
        let client = try service.zaoan(["ask", "--socket", service.socketPath, "--format", "json", "status"])
        let object = try #require(try JSONSerialization.jsonObject(with: client.stdout) as? [String: Any], "\(client)")
        #expect(object["tooltip"] as? String == expected, "\(client)")

        // Pango itself, as waybar uses it, parses the markup.
        let check = "import sys; from gi.repository import Pango; Pango.parse_markup(sys.stdin.read(), -1, '\\0'); print('ok')"
        let parsed = try Tool.run("/usr/bin/python3", ["-c", check], stdin: Data(shown.utf8), environment: Tool.baseEnvironment(home: directory.path),
                                  timeout: 30, scratch: directory)
        #expect(parsed.output == "ok\n", "\(parsed)")

        // Without the key, the tooltip is the countdown's, as before; plain status unchanged.
        #expect(try service.ask("status").hasPrefix("Good morning · Berlin 09:0"))
    }

    @Test("the agenda is at most 10 lines and says how many more, masked while privacy is on; a tooltip_template past its bounds is refused with the default kept")
    func bounded() throws {
        let config = #"{"tooltip_template": "{agenda}"}"#
        let service = try TestService.start(at: "\(Self.day) 09:00:00", zone: "Europe/Berlin", language: "en", config: config)
        defer { try? service.stop() }
        #expect(try Self.tooltip(service) == "", "nothing left today: an empty tooltip")
        try Self.add(service, (10..<23).map { "live add r\($0) \(Self.day)T\($0):00 Room \($0)" })
        let agenda = try Self.tooltip(service).split(separator: "\n").map(String.init)
        // en-US's hour cycle: times in its 12-hour time_format.
        func clock(_ hour: Int) -> String { "\(hour > 12 ? hour - 12 : hour):00 \(hour < 12 ? "AM" : "PM")" }
        #expect(agenda == (10..<20).map { "\(clock($0)) Room \($0)" } + ["… +3"], "\(agenda)")
        // Sharing a screen: titles are the language's "Busy", as in every other answer.
        #expect(try service.ask("privacy on") == "ok\n")
        let masked = try Self.tooltip(service).split(separator: "\n").map(String.init)
        #expect(masked == (10..<20).map { "\(clock($0)) Busy" } + ["… +3"], "\(masked)")

        let long = service.directory.file("long.json")
        try #"{"tooltip_template": "\#(String(repeating: "x", count: 1_025))"}"#.write(toFile: long, atomically: true, encoding: .utf8)
        let refused = try service.zaoan(["check-config", long])
        #expect(refused.status == 1 && refused.errorOutput.contains("tooltip_template") && refused.errorOutput.contains("1025 bytes; at most 1024"),
                "\(refused)")
        let lines = service.directory.file("lines.json")
        try #"{"tooltip_template": "\#(String(repeating: "{agenda}\\n", count: 17))"}"#.write(toFile: lines, atomically: true, encoding: .utf8)
        let tooMany = try service.zaoan(["check-config", lines])
        #expect(tooMany.status == 1 && tooMany.errorOutput.contains("18 lines; at most 16"), "\(tooMany)")
    }
}
