import Foundation
import Testing

/// A calendar's `color` through the real service (its clock faked), `zaoan cal` and
/// `check-config`: its events' countdown in i3bar, polybar and tmux (a level's colour wins),
/// and the `*` of their days in the month's tooltip and in a terminal.
@Suite("A colour per calendar")
struct CalendarColourTests {
    /// Folders `team` (Sync, 10:00–11:00 in Berlin on 2026-12-07) and `home` (Dinner, 19:00
    /// on 2026-12-08).
    static func calendars(in directory: TemporaryDirectory) throws -> (team: String, home: String) {
        func write(_ folder: String, uid: String, start: String, title: String) throws {
            let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                         "DTSTAMP:20261201T000000Z", "DTSTART:\(start)", "DURATION:PT1H", "SUMMARY:\(title)", "END:VEVENT", "END:VCALENDAR", ""]
            try lines.joined(separator: "\r\n").write(toFile: folder + "/\(uid).ics", atomically: true, encoding: .utf8)
        }
        let team = try directory.makeDirectory("team")
        try write(team, uid: "sync", start: "20261207T090000Z", title: "Sync")
        let home = try directory.makeDirectory("home")
        try write(home, uid: "dinner", start: "20261208T180000Z", title: "Dinner")
        return (team, home)
    }

    static func start(_ config: String) throws -> TestService {
        let service = try TestService.start(at: "2026-12-07 09:00:00", zone: "Europe/Berlin", language: "en", config: config)
        let schedule = try service.ask("schedule 72", within: 10) { $0.contains("Sync") && $0.contains("Dinner") }
        guard schedule.contains("Sync"), schedule.contains("Dinner") else {
            try? service.stop()
            throw TestFailure("the calendars were not read: \(schedule)")
        }
        return service
    }

    @Test("an event's countdown takes its calendar's colour in i3bar, polybar and tmux; the month colours its day's * (tooltip and zaoan cal on a tty)")
    func colourShown() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (team, home) = try Self.calendars(in: directory)
        let service = try Self.start(##"{"calendars": [{"path": "\##(team)", "color": "#3366CC"}, "\##(home)"]}"##)
        defer { try? service.stop() }
        for request in ["countdown", "ticker", "status"] {
            let i3bar = try service.ask("--format=i3bar \(request)")
            #expect(i3bar.contains(##""color":"#3366cc""##), "\(request): \(i3bar)")
        }
        #expect(try service.ask("--format=polybar countdown").hasPrefix("%{F#3366cc}Sync · starts in "))
        #expect(try service.ask("--format=tmux countdown").hasPrefix("#[fg=#3366cc]Sync · starts in "))
        // Dinner's calendar has no colour: its countdown has none.
        let dinner = try service.ask("--format=i3bar countdown calendar:dinner")
        #expect(!dinner.contains("\"color\""), "\(dinner)")

        let month = try service.ask("--format=json month")
        let tooltip = try #require((try JSONSerialization.jsonObject(with: Data(month.utf8)) as? [String: Any])?["tooltip"] as? String)
        #expect(tooltip.components(separatedBy: ##"<span foreground="#3366cc">*</span>"##).count == 2, "the 7th's * alone: \(tooltip)")
        #expect(tooltip.contains(#"<u> 8</u> *"#), "the 8th's * in the text's colour: \(tooltip)")
        let tty = try service.run("/usr/bin/script", ["-qec", "\(Locations.zaoan) cal --socket \(service.socketPath)", "/dev/null"])
        #expect(tty.status == 0 && tty.output.contains("\u{1B}[38;2;51;102;204m*"), "\(tty)")
        let piped = try service.zaoan(["cal", "--socket", service.socketPath])
        #expect(piped.status == 0 && !piped.output.contains("\u{1B}") && piped.output.contains("[ 7]*") && piped.output.contains(" 8 *"), "\(piped)")
    }

    @Test("a countdown level's colour wins over the calendar's")
    func levelWins() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (team, home) = try Self.calendars(in: directory)
        let service = try Self.start(##"{"calendars": [{"path": "\##(team)", "color": "#3366cc"}, "\##(home)"], "countdown_levels": {"warning": {"minutes": 120, "color": "#ffb000"}}}"##)
        defer { try? service.stop() }
        let i3bar = try service.ask("--format=i3bar countdown")
        #expect(i3bar.contains(##""color":"#ffb000""##) && !i3bar.contains("3366cc"), "\(i3bar)")
    }

    @Test("a bad colour costs that colour alone: named at its line and column, the calendar read, its events uncoloured")
    func badColour() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (team, home) = try Self.calendars(in: directory)
        let config = "{\"calendars\": [{\"path\": \"\(team)\",\n  \"color\": \"orangey\"}, \"\(home)\"]}"
        let service = try Self.start(config)
        defer { try? service.stop() }
        let i3bar = try service.ask("--format=i3bar countdown")
        #expect(i3bar.contains("Sync") && !i3bar.contains("\"color\""), "\(i3bar)")
        let file = directory.file("config.json")
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try service.zaoan(["check-config", file])
        #expect(check.status == 1 && check.errorOutput.contains("config.json:2:12: config key 'calendars.0.color': 'orangey' is not a colour: write #rrggbb")
                && check.errorOutput.contains("(the calendar is kept, its events in the bar's own colour)"), "\(check)")
    }

    @Test("a CSS colour name is a colour; a calendar's colour, like a level's, is not painted over by i3bar's urgent red")
    func colourNameNotUrgent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (team, home) = try Self.calendars(in: directory)
        let service = try Self.start(##"{"calendars": [{"path": "\##(team)", "color": "SteelBlue"}, "\##(home)"], "soon_threshold": 604800}"##)
        defer { try? service.stop() }
        let i3bar = try service.ask("--format=i3bar countdown")
        #expect(i3bar.contains(##""color":"#4682b4","urgent":false"##), "soon, coloured by its calendar: \(i3bar)")
    }
}
