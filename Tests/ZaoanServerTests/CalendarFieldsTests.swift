import Foundation
import Glibc
import Testing
import ZaoanText

/// An event's own fields through the real service: its LOCATION and DESCRIPTION, and the
/// name of its calendar (a vdir's `displayname` file as vdirsyncer writes it, a file's
/// `X-WR-CALNAME`, the config's `name`, else the folder's or file's name) in `schedule`,
/// `status`, the waybar tooltip and `live show`, each made safe for its target as titles
/// are; and `schedule HOURS calendar=NAME`.
@Suite("calendars: location, description and calendar names")
struct CalendarFieldsTests {
    /// A calendar of one VEVENT starting `minutes` from now, an hour long; `extra` lines go
    /// into the VCALENDAR before it, `fields` into the VEVENT (already iCalendar text).
    static func calendar(uid: String, title: String, minutes: Int, fields: [String] = [], header: [String] = []) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let start = Date().addingTimeInterval(Double(minutes * 60))
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"] + header
            + ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z", "DTSTART:\(formatter.string(from: start))",
               "DTEND:\(formatter.string(from: start.addingTimeInterval(3600)))", "SUMMARY:\(title)"]
            + fields + ["END:VEVENT", "END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    private func start(_ config: String) throws -> TestService {
        try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: config)
    }

    /// `schedule`'s rows as title → source column, each row checked to have four fields.
    static func sources(_ schedule: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in schedule.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 4, "a row of four fields: \(line.debugDescription)")
            if fields.count == 4 { found[fields[3]] = fields[2] }
        }
        return found
    }

    private static func object(_ line: String) throws -> [String: Any] {
        let data = Data(line.trimmingCharacters(in: .newlines).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(line)")
    }

    @Test("schedule names each event's calendar: displayname, X-WR-CALNAME, the folder's name, the config's name; calendar=NAME lists that calendar alone")
    func namesAndFilter() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let work = try base.makeDirectory("work")
        try "Work Team\n".write(toFile: work + "/displayname", atomically: true, encoding: .utf8)
        try Self.calendar(uid: "standup", title: "Standup", minutes: 30).write(toFile: work + "/standup.ics", atomically: true, encoding: .utf8)
        let home = try base.makeDirectory("home")
        try Self.calendar(uid: "dinner", title: "Dinner", minutes: 60).write(toFile: home + "/dinner.ics", atomically: true, encoding: .utf8)
        let holidays = base.file("holidays.ics")
        try Self.calendar(uid: "holiday", title: "Holiday", minutes: 90, header: ["X-WR-CALNAME;VALUE=TEXT:Public\r\n  holidays\\, DE"])
            .write(toFile: holidays, atomically: true, encoding: .utf8)
        let gym = try base.makeDirectory("gym")
        try "Fitness".write(toFile: gym + "/displayname", atomically: true, encoding: .utf8)
        try Self.calendar(uid: "yoga", title: "Yoga", minutes: 120).write(toFile: gym + "/yoga.ics", atomically: true, encoding: .utf8)

        let service = try start(#"{"calendars": ["\#(work)", "\#(home)", "\#(holidays)", {"path": "\#(gym)", "name": "Gym"}]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("live add tea +20m Tea") == "ok\n")
        let all = Self.sources(try service.ask("schedule"))
        #expect(all == ["Tea": "live", "Standup": "Work Team", "Dinner": "home", "Holiday": "Public holidays, DE", "Yoga": "Gym"],
                "displayname, the folder's name, X-WR-CALNAME (folded, escaped), the config's name over the displayname: \(all)")

        #expect(Self.sources(try service.ask(#"schedule 24 calendar="work team""#)) == ["Standup": "Work Team"], "any case, quoted for its space")
        #expect(Self.sources(try service.ask("schedule calendar=Gym")) == ["Yoga": "Gym"], "without HOURS; no rooms")
        #expect(Self.sources(try service.ask("schedule 1 calendar=Gym")).isEmpty, "within HOURS still")
        let unknown = try service.ask("schedule 24 calendar=Nope")
        #expect(unknown.hasPrefix("ERR not-found no calendar 'Nope'; the calendars are: Work Team, home, Public holidays, DE, Gym"), "\(unknown)")
        #expect(try service.ask("schedule 24 calendar=").hasPrefix("ERR bad-argument"))
        let json = try Self.object(try service.ask("--format=json schedule 24 calendar=home"))
        #expect((json["text"] as? String)?.contains("\thome\tDinner") == true, "\(json)")

        // A new displayname shows at the next reading; the single file, unchanged, keeps the
        // name read from it (the reading parses no file: nothing .ics changed since they settled).
        _ = try CalendarFeedTests.settle(service, files: 4, nudging: work)
        try CalendarFeedTests.replace(work + "/displayname", with: "Work Crew")
        let renamed = try service.ask("schedule", within: 10) { $0.contains("\tWork Crew\t") }
        #expect(Self.sources(renamed) == ["Tea": "live", "Standup": "Work Crew", "Dinner": "home", "Holiday": "Public holidays, DE", "Yoga": "Gym"], "\(renamed)")
        #expect(try service.ask("stats").contains("calendar_files: 0 parsed, 4 unchanged"))
        #expect(Self.sources(try service.ask("schedule 24 calendar=work crew")) == ["Standup": "Work Crew"])
        #expect(try service.ask("schedule 24 calendar=Work Team").hasPrefix("ERR not-found no calendar 'Work Team'"))
        try FileManager.default.removeItem(atPath: work + "/displayname")
        let folderName = try service.ask("schedule", within: 10) { $0.contains("\twork\t") }
        #expect(Self.sources(folderName)["Standup"] == "work", "no displayname: the folder's name: \(folderName)")
    }

    /// Markup, controls, bidi overrides, tabs and line breaks in every field, and the
    /// placeholders' values never read as placeholders.
    static let location = #"<b>Room & 1</b>\, {city}"# + "\u{1B}[31m\u{202E}\t#[fg=red]%{F#f00}\\nsecond"
    static let description = #"First <i>line</i> & more\nsecond line\nthird"#
    static let displayname = "Team <b>&</b>\t\u{202E}x\u{1B}[2J\u{7}\nsecond line\n"

    @Test("location, description and the calendar's name reach status, the tooltip, schedule and live show, safe for each target")
    func hostileFieldsInEveryFormat() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let team = try base.makeDirectory("team")
        try Self.displayname.write(toFile: team + "/displayname", atomically: true, encoding: .utf8)
        try Self.calendar(uid: "hostile-1", title: "Planning", minutes: 5,
                          fields: ["LOCATION:" + Self.location, "DESCRIPTION:" + Self.description])
            .write(toFile: team + "/planning.ics", atomically: true, encoding: .utf8)
        let marks = "a" + String(repeating: "\u{0301}", count: 10_000)
        try Self.calendar(uid: "marks", title: "Marks", minutes: 300, fields: ["LOCATION:" + marks, "DESCRIPTION:" + marks])
            .write(toFile: team + "/marks.ics", atomically: true, encoding: .utf8)
        let service = try start(#"{"calendars": ["\#(team)"], "status_template": "{countdown} at {location} in {calendar}"}"#)
        defer { try? service.stop() }

        let shownLocation = "<b>Room & 1</b>, {city}␛[31m\u{FFFD}\t#[fg=red]%{F#f00}␊second"
        let shownCalendar = "Team <b>&</b> \u{FFFD}x␛[2J␇"
        let status = try service.ask("status")
        #expect(status.hasPrefix("Planning · starts in 00:0") && status.hasSuffix(" at \(shownLocation) in \(shownCalendar)\n"),
                "plain: visible stand-ins, {city} as written: \(status.debugDescription)")
        for hostile in ["\u{1B}", "\u{202E}", "\u{7}", "second line"] {
            #expect(!status.contains(hostile), "\(hostile.debugDescription) in \(status.debugDescription)")
        }

        let waybar = try Self.object(try service.ask("--format=json status"))
        let text = try #require(waybar["text"] as? String)
        #expect(text.hasSuffix(" at " + SafeText.pango(shownLocation) + " in " + SafeText.pango(shownCalendar)), "pango-escaped: \(text.debugDescription)")
        #expect(!text.contains("<b>") && !text.contains("\u{1B}"), "\(text)")
        for request in ["--format=json status", "--format=json countdown"] {
            let tooltip = try #require(try Self.object(try service.ask(request))["tooltip"] as? String, "\(request)")
            let lines = tooltip.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "Planning" && lines.count == 4, "\(request): title, time and calendar, location, description: \(lines)")
            #expect(lines.dropFirst().first?.hasSuffix(" · " + SafeText.pango(shownCalendar)) == true, "\(request): \(lines)")
            #expect(lines.contains(SafeText.pango(shownLocation)), "\(request): \(lines)")
            #expect(lines.last == "First &lt;i&gt;line&lt;/i&gt; &amp; more", "\(request): the description's first line: \(lines)")
        }
        let tmux = try service.ask("--format=tmux status")
        #expect(tmux.contains("##[fg=red]") && !tmux.contains("\t#[fg=red]"), "tmux reads no style from it: \(tmux.debugDescription)")
        let polybar = try service.ask("--format=polybar status")
        #expect(polybar.contains("％{F") && !polybar.contains("%{F"), "polybar reads no tag from it: \(polybar.debugDescription)")
        let i3bar = try Self.object(try service.ask("--format=i3bar status"))
        #expect((i3bar["full_text"] as? String)?.hasSuffix(" at \(shownLocation) in \(shownCalendar)") == true, "\(i3bar)")

        let rows = try service.ask("schedule").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 4 }, "the tab in the name does not add a column: \(rows)")
        #expect(rows.first.map { String($0[2]) } == shownCalendar, "\(rows)")

        let show = try service.ask("live show calendar:hostile-1").split(separator: "\n").map(String.init)
        #expect(show.contains("title: Planning") && show.contains("calendar: \(shownCalendar)") && show.contains("location: \(shownLocation)"), "\(show)")
        #expect(show.contains("description: First <i>line</i> & more") && !show.contains { $0.contains("second line") }, "\(show)")
        #expect(try service.ask("live show calendar:nothing-of-that-uid").hasPrefix("ERR not-found"))

        // 10,000 combining marks: cut between scalars to the title's limits, as titles are.
        let bounded = try service.ask("live show calendar:marks").split(separator: "\n").map(String.init)
        let shownMarks = try #require(bounded.first { $0.hasPrefix("location: ") }, "\(bounded.count) lines")
        #expect(shownMarks.utf8.count <= "location: ".utf8.count + 256 && shownMarks.hasSuffix("…"), "\(shownMarks.utf8.count) bytes")
        let description = try #require(bounded.first { $0.hasPrefix("description: ") })
        #expect(description.utf8.count <= "description: ".utf8.count + 256, "\(description.utf8.count) bytes")
    }

    @Test("a displayname that is a FIFO, a link to another account's file, huge, or 1,000 combining marks: the folder's name or a bounded one, the problem named")
    func hostileDisplaynames() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        chmod(base.path, 0o755)
        var folders: [String] = []
        for (index, name) in ["fifo", "shadow", "huge", "marks", "plain"].enumerated() {
            let folder = try base.makeDirectory(name, mode: 0o755)
            folders.append(folder)
            try Self.calendar(uid: name, title: "Event \(name)", minutes: 30 + index).write(toFile: folder + "/event.ics", atomically: true, encoding: .utf8)
        }
        #expect(mkfifo(folders[0] + "/displayname", 0o644) == 0)
        // Another account's private file (as /etc/shadow is root's): the service, root here,
        // could read it, and must not.
        let secret = try base.makeDirectory("secret", mode: 0o755) + "/shadow"
        try "Shadow secret\n".write(toFile: secret, atomically: false, encoding: .utf8)
        #expect(chown(secret, 65534, 65534) == 0 && chmod(secret, 0o600) == 0)
        #expect(symlink(secret, folders[1] + "/displayname") == 0)
        try String(repeating: "Huge name ", count: 100_000).write(toFile: folders[2] + "/displayname", atomically: true, encoding: .utf8)
        try ("M" + String(repeating: "\u{0301}", count: 1000)).write(toFile: folders[3] + "/displayname", atomically: true, encoding: .utf8)
        try "Plain".write(toFile: folders[4] + "/displayname", atomically: true, encoding: .utf8)

        let list = folders.map { "\"\($0)\"" }.joined(separator: ", ")
        let started = Date()
        let service = try start(#"{"calendars": [\#(list)]}"#)
        defer { try? service.stop() }
        #expect(Date().timeIntervalSince(started) < 30, "the FIFO blocked nothing")
        let shown = Self.sources(try service.ask("schedule"))
        #expect(shown["Event fifo"] == "fifo" && shown["Event shadow"] == "shadow" && shown["Event huge"] == "huge" && shown["Event plain"] == "Plain", "\(shown)")
        let cut = try #require(shown["Event marks"])
        #expect(cut.unicodeScalars.starts(with: "M\u{0301}\u{0301}".unicodeScalars) && cut.hasSuffix("…") && cut.utf8.count <= 128,
                "cut between scalars: \(cut.utf8.count) bytes")
        #expect(!(try service.ask("schedule")).contains("Shadow secret"))
        let stats = try service.ask("stats")
        #expect(stats.contains("calendar_problems: 3 ("), "the FIFO, the link and the huge file: \(stats)")
        let log = service.stderrText
        #expect(log.contains(folders[0] + "/displayname: a FIFO"), "\(log)")
        #expect(log.contains(folders[1] + "/displayname: a symbolic link to \(secret)") && log.contains("owned by uid 65534"), "\(log)")
        #expect(log.contains(folders[2] + "/displayname: 1000000 bytes; at most 4096"), "\(log)")
        #expect(!log.contains("Shadow secret"), "\(log)")
    }

    @Test("bash and zsh complete schedule calendar= with the names the running service shows, a hostile one quoted, never run")
    func completedNames() throws {
        let marker = "/tmp/zcp-\(getpid())"  // short: a name is at most 64 characters
        unlink(marker)
        defer { unlink(marker) }
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let work = try base.makeDirectory("work")
        try "Work Team".write(toFile: work + "/displayname", atomically: true, encoding: .utf8)
        let evil = try base.makeDirectory("evil")
        try "$(touch \(marker))`touch \(marker)`".write(toFile: evil + "/displayname", atomically: true, encoding: .utf8)
        for (index, folder) in [work, evil].enumerated() {
            try Self.calendar(uid: "e\(index)", title: "Event \(index)", minutes: 30 + index).write(toFile: folder + "/e.ics", atomically: true, encoding: .utf8)
        }
        let service = try start(#"{"calendars": ["\#(work)", "\#(evil)", {"path": "\#(base.path)/none", "name": "Unseen"}]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("live add tea +20m Tea") == "ok\n")
        let environment = CompletionTests.shellEnvironment(service.environment)
        let bash = try CompletionTests.bash("zaoan ask --socket \(service.socketPath) schedule 24 calendar=", environment: environment, scratch: service.directory)
        #expect(bash.set == ["Work\\ Team", "\\$\\(touch\\ \(marker)\\)\\`touch\\ \(marker)\\`"],
                "the names with an event ahead, quoted; no room's live: \(bash)")
        let prefixed = try CompletionTests.bash("zaoan ask --socket \(service.socketPath) schedule calendar=Wo", environment: environment, scratch: service.directory)
        #expect(prefixed.replies == ["Work\\ Team"], "\(prefixed)")
        let zsh = try CompletionTests.zshCompletions(["zaoan ask --socket \(service.socketPath) schedule calendar="], environment: environment,
                                                     scratch: service.directory)
        #expect(zsh.first?.contains("Work\\ Team") == true && zsh.first?.contains("live") == false, "\(zsh)")
        #expect(access(marker, F_OK) != 0, "a name was run as a command")
    }

    @Test("a calendars entry {\"path\", \"name\"}: a bad entry is left out with its place, a bad name costs only the name, the others kept")
    func namedEntriesInTheConfig() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let long = String(repeating: "x", count: 129)
        let config = """
            {"calendars": [
              {"path": "/srv/a", "name": "Work"},
              {"path": "/srv/b", "name": "two\\nlines"},
              {"path": "/srv/c", "name": "  "},
              {"name": "no path"},
              {"path": "/srv/d", "name": "\(long)"},
              {"path": "/srv/e", "nmae": "typo"},
              {"path": "/srv/f", "name": 5},
              {"path": "/srv/g", "name": "bidi \\u202e"},
              "/srv/h"
            ]}
            """
        try directory.write("c.json", config)
        let file = directory.file("c.json")
        let environment = try TestService.isolatedEnvironment(in: directory)
        let check = try Tool.run(Locations.zaoan, ["check-config", file], environment: environment, timeout: 10, scratch: directory)
        #expect(check.status == 1, "\(check)")
        let expected = [
            "\(file):3:30: config key 'calendars': the name 'two␊lines' must be one line",
            "\(file):4:30: config key 'calendars': the name is blank; leave \"name\" out to use the calendar's own",
            "\(file):5:3: config key 'calendars.3': an entry needs \"path\", as {\"path\": \"/home/me/.local/share/calendars/work\", \"name\": \"Work\"}",
            "\(file):6:30: config key 'calendars': the name is 129 bytes long; at most 128",
            "\(file):7:22: config key 'calendars.5.nmae': unknown key; did you mean 'name'?",
            "\(file):8:30: config key 'calendars.6.name': expected a string",
            "\(file):9:30: config key 'calendars': the name 'bidi \u{FFFD}' holds a control or format character (U+202E)",
        ]
        for line in expected { #expect(check.errorOutput.contains("zaoan: " + line), "missing \(line)\nin \(check.errorOutput)") }

        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: config)
        defer { try? service.stop() }
        let stats = try service.ask("stats")
        #expect(stats.contains("calendars: 0 read, 8 waiting"), "all but the one without a path are kept: \(stats)")
        #expect(stats.contains("config_problems: 7"), "\(stats)")
        #expect(try service.ask("schedule calendar=Work") == "\n", "a named calendar with nothing in it: an empty answer")
        #expect(try service.ask("schedule calendar=e") == "\n", "a folder's name stands without a name")
        #expect(try service.ask("schedule calendar=b") == "\n", "a bad name costs only the name: the folder's stands")
        #expect(try service.ask("schedule calendar=zz").hasPrefix("ERR not-found no calendar 'zz'; the calendars are: Work, b, c, d, e, f, g, h"))
    }
}
