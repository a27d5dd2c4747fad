import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// A calendar event's location, description and calendar name in the Responder's answers,
/// `schedule ... calendar=NAME`, and the config's named `calendars` entries.
@Suite struct EventFieldsTests {
    static let now = "2026-06-15T08:00:00Z"

    private func settings(calendars: [CalendarEntry] = ["/cal/work", "/cal/home.ics"],
                          template: String? = nil) throws -> Settings {
        var file = ConfigFile()
        file.language = "en"
        file.timezone = "UTC"
        file.calendars = calendars
        file.statusTemplate = template
        return try Settings.resolve(file, systemZone: try timeZone("UTC"))
    }

    /// An event `minutes` after `now`, an hour long, of calendar `calendar`.
    private func event(_ uid: String, _ title: String, minutes: Double, calendar: String?, location: String? = nil,
                       description: String? = nil) throws -> LiveRoom {
        let start = try instant(Self.now).adding(seconds: minutes * 60)
        var room = LiveRoom(id: "calendar:" + uid, title: title, start: start, end: start.adding(seconds: 3600), description: description)
        room.source = "/cal/work/\(uid).ics"
        room.location = location
        room.calendar = calendar
        return room
    }

    private func responder(template: String? = nil, names: [String]? = ["Work", "Home"]) throws -> Responder {
        let responder = Responder(settings: try settings(template: template))
        responder.replaceCalendarEvents([
            try event("standup", "Standup", minutes: 30, calendar: "Work", location: "Room 4.12", description: "\n  \nAgenda <b>&</b>\nsecond line"),
            try event("dinner", "Dinner", minutes: 90, calendar: "Home"),
        ], calendars: names)
        let tea = LiveRoom(id: "tea", title: "Tea", start: try instant(Self.now).adding(seconds: 60 * 60), description: "Oolong\nand more")
        responder.commit(LiveSchedule(rooms: [tea]))
        return responder
    }

    private func lines(_ responder: Responder, _ line: String) throws -> [String] {
        let request = try #require(try RequestParser.parse(line))
        return try responder.structured(request, now: try instant(Self.now), counters: ServiceFigures(startedAt: .now)).lines
    }

    private func error(_ responder: Responder, _ line: String) throws -> String {
        let request = try #require(try RequestParser.parse(line))
        return responder.answer(request, now: try instant(Self.now), counters: ServiceFigures(startedAt: .now)).text
    }

    @Test("schedule: the calendar's name in the source column; calendar=NAME in any case lists that calendar's events, no rooms")
    func scheduleByCalendar() throws {
        let responder = try responder()
        #expect(try lines(responder, "schedule").map { $0.split(separator: "\t")[2] } == ["Work", "live", "Home"])
        #expect(try lines(responder, "schedule 24 calendar=work").map { $0.split(separator: "\t")[3] } == ["Standup"])
        #expect(try lines(responder, "schedule calendar=HOME") == ["2026-06-15T09:30:00+00:00\t2026-06-15T10:30:00+00:00\tHome\tDinner"])
        #expect(try lines(responder, "schedule 1 calendar=Home").isEmpty, "within HOURS still")
        #expect(try error(responder, "schedule 24 calendar=Gym") == "ERR not-found no calendar 'Gym'; the calendars are: Work, Home")
    }

    @Test("an unknown calendar: nothing listed while the calendars are being read; not-found once they are, and with no calendars at all")
    func unknownCalendar() throws {
        let reading = try responder(names: nil)
        #expect(try lines(reading, "schedule calendar=Gym").isEmpty)
        let read = try responder()
        read.apply(try settings(calendars: ["/cal/work", "/cal/gym"]))
        #expect(try lines(read, "schedule calendar=Gym").isEmpty, "other calendars in the config: read again before a name is refused")
        read.replaceCalendarEvents(read.calendarEvents, calendars: ["Work", "gym"])
        #expect(try lines(read, "schedule calendar=Gym").isEmpty)
        #expect(try error(read, "schedule calendar=Home") == "ERR not-found no calendar 'Home'; the calendars are: Work, gym")
        let none = Responder(settings: try settings(calendars: []))
        #expect(try error(none, "schedule calendar=Work") == #"ERR not-found no calendar 'Work': the config names no calendars (see "calendars" in zaoan.conf(5))"#)
        let many = try responder(names: (1...10).map { "Calendar \($0)" })
        #expect(try error(many, "schedule calendar=x").hasSuffix("Calendar 7, Calendar 8, …"))
    }

    @Test("the tooltip: the time with the calendar, the location, the description's first non-blank line; a room's as before")
    func tooltip() throws {
        let responder = try responder()
        let now = try instant(Self.now)
        let answer = try responder.structured(.countdown(id: nil), now: now, counters: ServiceFigures(startedAt: now))
        #expect(answer.tooltip == "Standup\n2026-06-15 08:30–2026-06-15 09:30 · Work\nRoom 4.12\nAgenda <b>&</b>")
        let waybar = OutputFormat.json.encode(answer, name: "countdown", pangoMarkup: false).text
        #expect(waybar.contains(#""tooltip":"Standup\n2026-06-15 08:30–2026-06-15 09:30 · Work\nRoom 4.12\nAgenda &lt;b&gt;&amp;&lt;\/b&gt;""#)
                || waybar.contains(#""tooltip":"Standup\n2026-06-15 08:30–2026-06-15 09:30 · Work\nRoom 4.12\nAgenda &lt;b&gt;&amp;&lt;/b&gt;""#), "\(waybar)")
        let room = try responder.structured(.countdown(id: "tea"), now: now, counters: ServiceFigures(startedAt: now))
        #expect(room.tooltip == "Tea\n2026-06-15 09:00\nOolong\nand more")
    }

    @Test("status: {location} and {calendar} of the featured event, nothing for a room; a value is never read as a placeholder")
    func statusPlaceholders() throws {
        let template = "{greeting} {location} [{calendar}] {countdown}"
        let responder = Responder(settings: try settings(template: template))
        let now = try instant(Self.now)
        responder.replaceCalendarEvents([try event("x", "Standup", minutes: 30, calendar: "Work %{A1:x:} #[fg=red]", location: "{time} <b>&")],
                                        calendars: ["Work"])
        let status = try responder.structured(.status, now: now, counters: ServiceFigures(startedAt: now))
        #expect(status.text == "Good morning · UTC {time} <b>& [Work %{A1:x:} #[fg=red]] Standup · starts in 00:30:00")
        #expect(OutputFormat.polybar.encode(status, name: "status", pangoMarkup: false).text.contains("[Work ％{A1:x:} #[fg=red]]"))
        #expect(OutputFormat.tmux.encode(status, name: "status", pangoMarkup: false).text.contains("[Work %{A1:x:} ##[fg=red]]"))
        #expect(OutputFormat.json.encode(status, name: "status", pangoMarkup: false).text.contains("{time} &lt;b&gt;&amp; [Work"))

        let rooms = Responder(settings: try settings(template: template))
        rooms.commit(LiveSchedule(rooms: [LiveRoom(id: "tea", title: "Tea", start: now.adding(seconds: 600))]))
        let plain = try rooms.structured(.status, now: now, counters: ServiceFigures(startedAt: now))
        #expect(plain.text == "Good morning · UTC [] Tea · starts in 00:10:00", "a room has neither: \(plain.text)")
    }

    @Test("live show calendar:UID: the event live or next, with its calendar, source, location and description's first line")
    func liveShowEvent() throws {
        let responder = try responder()
        #expect(try lines(responder, "live show calendar:standup") == [
            "id: calendar:standup", "title: Standup", "start: 2026-06-15T08:30:00+00:00", "end: 2026-06-15T09:30:00+00:00",
            "state: starts in 00:30:00", "calendar: Work", "source: /cal/work/standup.ics", "location: Room 4.12",
            "description: Agenda <b>&</b>",
        ])
        #expect(try error(responder, "live show calendar:nothing") == "ERR not-found no calendar event 'calendar:nothing' in the window; watch events gives the events' IDs")
        #expect(try lines(responder, "live show tea").first == "id: tea", "rooms as before")
        #expect(try error(responder, "live show nope").hasPrefix("ERR not-found no live room 'nope'"))
    }

    @Test("watch events lines carry the calendar and the location, made safe")
    func eventLines() throws {
        let responder = try responder()
        let from = Int(clampingSeconds: try instant(Self.now).secondsSince1970)
        let line = try #require(responder.transitions(after: from, through: from + 1800).first { $0.room.id == "calendar:standup" && $0.phase == .live })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(responder.eventLine(line).utf8)) as? [String: String])
        #expect(object["calendar"] == "Work" && object["location"] == "Room 4.12" && object["description"] == "\n  \nAgenda <b>&</b>\nsecond line", "\(object)")
        let room = try #require(responder.transitions(after: from, through: from + 3600).first { $0.room.id == "tea" })
        let tea = try #require(try JSONSerialization.jsonObject(with: Data(responder.eventLine(room).utf8)) as? [String: String])
        #expect(tea["calendar"] == nil && tea["location"] == nil)
    }

    @Test("schedule's words: HOURS, then calendar=NAME (the rest, joined; quoted for spacing)", arguments: [
        ("schedule", Request.schedule(hours: 24, calendar: nil)),
        ("schedule 48", .schedule(hours: 48, calendar: nil)),
        ("schedule calendar=Work", .schedule(hours: 24, calendar: "Work")),
        ("schedule 12 calendar=Work Team", .schedule(hours: 12, calendar: "Work Team")),
        (#"schedule 12 "calendar=Work  Team""#, .schedule(hours: 12, calendar: "Work  Team")),
        (#"schedule 12 calendar="Work  Team""#, .schedule(hours: 12, calendar: "Work  Team")),
        ("schedule 12 CALENDAR=work", .schedule(hours: 12, calendar: "work")),
        ("live show calendar:040000008200E00074C5B7101A82E008@google.com", .liveShow(id: "calendar:040000008200E00074C5B7101A82E008@google.com")),
    ])
    func parsed(line: String, expected: Request) throws {
        #expect(try RequestParser.parse(line) == expected)
    }

    @Test("schedule's refusals", arguments: [
        ("schedule 0", "schedule HOURS must be a whole number from 1 to 744"),
        ("schedule 24 25", "schedule takes HOURS and calendar=NAME, e.g. schedule 24 calendar=Work"),
        ("schedule calendar=Work 24 x", nil),
        ("schedule calendar=", "calendar= needs a calendar's name"),
        ("schedule 24 calendar=" + String(repeating: "x", count: 129), "a calendar's name is at most 128 bytes"),
        ("live show calendar:" + String(repeating: "u", count: 513), "a calendar event's ID is calendar: and its UID, at most 521 bytes"),
        ("live show calendar:", "a calendar event's ID is calendar: and its UID"),
    ] as [(String, String?)])
    func refused(line: String, message: String?) {
        do {
            let request = try RequestParser.parse(line)
            #expect(message == nil, "parsed as \(String(describing: request))")
        } catch {
            #expect(message.map { error.message.hasPrefix($0) } == true, "\(error.message)")
        }
    }

    @Test("calendars entries: a path, or {path, name}; a bad path leaves out its entry, a bad name only itself, an unknown key ignored")
    func configEntries() throws {
        let text = """
            {"calendars": ["/cal/a", {"path": "/cal/b", "name": " Work "}, {"path": "/cal/c", "name": null},
              {"path": "/cal/d", "name": "x\\ty"}, {"path": 5}, {"path": "/cal/e", "path": "/cal/f"},
              {"path": "/cal/g", "colour": "red"}, {"path": "relative", "name": "R"}, {"path": "/cal/h", "name": "\\u200d"}]}
            """
        let reading = ConfigFile.read(Array(text.utf8))
        let resolved = Settings.resolving(reading.file, positions: reading.positions, systemZone: try timeZone("UTC"))
        #expect(resolved.settings.calendars == ["/cal/a", CalendarEntry(path: "/cal/b", name: "Work"), "/cal/c", "/cal/d", "/cal/g", "/cal/h"])
        let problems = ConfigError.inFileOrder(reading.problems + resolved.problems)
        let summary = problems.map { "\($0.position?.description ?? "-") \($0.key ?? "-") \($0.fallback.map { "\($0)" } ?? "-"): \($0.problem)" }
        #expect(summary == [
            "2:30 calendars instead(\"the calendar is kept, named by its file or folder\"): the name 'x␉y' holds a control or format character (U+0009)",
            "2:48 calendars.4.path entryLeftOut: expected a string",
            "2:71 calendars.5.path entryLeftOut: appears twice in one object (first at 2:53); keep one",
            "3:22 calendars.6.colour ignored: unknown key; did you mean 'color'?",
            "3:40 calendars entryLeftOut: 'relative' must be an absolute path to an .ics file or a folder of them, one line, without '..', at most 4096 bytes",
            "3:102 calendars instead(\"the calendar is kept, named by its file or folder\"): the name '' holds a control or format character (U+200D)",
        ], "\(summary.joined(separator: "\n"))")
    }

    @Test("a calendar's name in the config: one line, no controls, bounded", arguments: [
        ("Work", nil), ("工作 📅", nil), ("👨‍💻 Dev", nil), ("\u{F073} Nerd font icon", nil),
        ("", "is blank"), ("a\nb", "'a␊b' must be one line"), ("a\u{2028}b", "must be one line"),
        ("a\u{202E}b", "holds a control or format character (U+202E)"), ("a\u{AD}b", "holds a control or format character (U+00AD)"),
        (String(repeating: "é", count: 65), "is 130 bytes long; at most 128"), (String(repeating: "x", count: 65), "is 65 characters long; at most 64"),
    ] as [(String, String?)])
    func nameRule(name: String, problem: String?) {
        let found = CalendarNameRule.problem(name)
        #expect(problem == nil ? found == nil : found?.contains(problem!) == true, "\(found ?? "nil")")
    }
}
