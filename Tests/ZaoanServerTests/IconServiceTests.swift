import Foundation
import Testing

/// `icons` and `{icon}` through the real service (its clock faked): the meeting service's
/// glyph first, else the state's (a countdown's, or with nothing next the greeting's), in
/// `status_template` and `countdown_formats`; nothing without `icons`; a bad entry left out.
@Suite("Icons per state and meeting service")
struct IconServiceTests {
    static let icons = #""icons": {"upcoming": "\uf017", "live": "\uf03d", "zoom": "Z!", "morning": "☀", "teams": "T""#
    static let templates = #""status_template": "{icon} {countdown}", "countdown_formats": {"glyph": {"upcoming": "[{icon}] {title}", "live": "[{icon}] {title}", "ended": "[{icon}] {title}"}}"#

    static func start(_ config: String) throws -> TestService {
        try TestService.start(at: "2026-12-07 09:00:00", zone: "Europe/Berlin", language: "en", config: config)
    }

    @Test("{icon}: the meeting service's glyph, else the state's; the greeting's with nothing next")
    func glyphs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try directory.makeDirectory("work")
        let event = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN", "BEGIN:VEVENT", "UID:zoomy", "DTSTAMP:20261201T000000Z",
                     "DTSTART:20261207T090000Z", "DURATION:PT1H", "SUMMARY:Zoomy", "CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://zoom.us/j/123",
                     "END:VEVENT", "END:VCALENDAR", ""]
        try event.joined(separator: "\r\n").write(toFile: folder + "/zoomy.ics", atomically: true, encoding: .utf8)
        let quiet = try Self.start("{\(Self.icons)}, \(Self.templates)}")
        defer { try? quiet.stop() }
        #expect(try quiet.ask("status") == "☀\n", "nothing next: the greeting's glyph")
        let service = try Self.start("{\(Self.icons)}, \(Self.templates), \"calendars\": [\"\(folder)\"]}")
        defer { try? service.stop() }
        for add in ["live add a 2026-12-07T11:00 A", "live add on 2026-12-07T08:30 On end=2026-12-07T09:30"] {
            #expect(try service.ask(add) == "ok\n", "\(add)")
        }
        #expect(try service.ask("countdown a format=glyph") == "[\u{f017}] A\n")
        #expect(try service.ask("countdown on format=glyph") == "[\u{f03d}] On\n")
        let zoomy = try service.ask("countdown calendar:zoomy format=glyph", within: 10) { $0.hasPrefix("[") }
        #expect(zoomy == "[Z!] Zoomy\n", "the service's glyph over the state's: \(zoomy)")
        let status = try service.ask("status")
        #expect(status.hasPrefix("\u{f03d} On · live "), "the featured room's state: \(status)")
        let i3bar = try service.ask("--format=i3bar status")
        #expect(i3bar.contains(#""full_text":"\#u{f03d} On · live "#), "\(i3bar)")
    }

    @Test("without icons {icon} says nothing and the text is as before")
    func noIcons() throws {
        let service = try Self.start("{\(Self.templates)}")
        defer { try? service.stop() }
        #expect(try service.ask("status") == "\n")
        #expect(try service.ask("live add a 2026-12-07T11:00 A") == "ok\n")
        #expect(try service.ask("countdown a format=glyph") == "[] A\n")
        #expect(try service.ask("status").hasPrefix("A · starts in "))
    }

    @Test("an unknown key (did you mean) or a bad glyph is left out with its place, the others kept")
    func badEntries() throws {
        let config = "{\"icons\": {\"livee\": \"x\",\n \"soon\": \"\(String(repeating: "★", count: 6))\", \"upcoming\": \"\\u001b[31m\", \"ended\": \"E\"},\n \(Self.templates)}"
        let service = try Self.start(config)
        defer { try? service.stop() }
        #expect(try service.ask("live add done 2026-12-07T07:00 Done end=2026-12-07T08:00") == "ok\n")
        #expect(try service.ask("countdown done format=glyph") == "[E] Done\n", "the good entry kept")
        #expect(try service.ask("live add a 2026-12-07T11:00 A") == "ok\n")
        #expect(try service.ask("countdown a format=glyph") == "[] A\n", "the bad upcoming glyph left out")
        let file = service.directory.file("icons.json")
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try service.zaoan(["check-config", file])
        let errors = check.errorOutput
        #expect(check.status == 1 && errors.contains("icons.json:1:12: config key 'icons.livee': unknown key; did you mean 'live'?"), "\(check)")
        #expect(errors.contains("'icons.soon': is 18 bytes; an icon is at most 16"), "\(check)")
        #expect(errors.contains("'icons.upcoming': holds a control or format character"), "\(check)")
        #expect(!errors.contains("icons.ended"), "\(check)")
    }
}
