import Foundation
import Testing
@testable import ZaoanCore

/// `countdown_formats` and `countdown_levels`: templates parsed at load with errors in the
/// user's terms, filled in per phase, escaped for each target like the rest of an answer;
/// levels giving classes, colours and urgency; colours only ever written from their bytes.
@Suite struct CountdownFormatTests {
    // MARK: - Templates

    @Test("a template's pieces: text, fields, patterns with colons")
    func parsesPieces() throws {
        let template = try CountdownTemplate.parse("● {title} {start:%H:%M}–{end:HH:mm} {in}")
        #expect(template.pieces == [.text("● "), .field(.title, pattern: nil), .text(" "), .field(.start, pattern: "%H:%M"),
                                    .text("–"), .field(.end, pattern: "HH:mm"), .text(" "), .field(.in, pattern: nil)])
        #expect(template.patterns == ["%H:%M", "HH:mm"])
        #expect(try CountdownTemplate.parse("").pieces.isEmpty)
        #expect(try CountdownTemplate.parse("a } b").pieces == [.text("a } b")])
    }

    @Test("what a template may not hold, each said plainly", arguments: [
        ("{titel} {in}", "{titel} is not a field; use {title}"),
        ("{title", "has a { without its }"),
        ("{title:%H}", "{title} takes no pattern"),
        ("{start:}", "has an empty pattern"),
        ("a\nb", "holds a control character or line break"),
        (String(repeating: "x", count: 257), "is 257 bytes long; at most 256"),
        (String(repeating: "{in}", count: 17), "has more than 16 fields"),
    ])
    func refusesBadTemplates(text: String, message: String) {
        do {
            _ = try CountdownTemplate.parse(text)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.text.contains(message), "\(error.text)")
        }
    }

    @Test("nothing next has no fields")
    func noneTakesNoField() {
        #expect(throws: TemplateProblem.self) { try CountdownTemplate.parse("{title}", fields: []) }
        #expect((try? CountdownTemplate.parse("nothing ahead", fields: [])) != nil)
    }

    @Test("format=NAME on countdown, status and ticker, around the request without it")
    func parsesFormatWord() throws {
        #expect(try RequestParser.parse("countdown tea format=compact") == .countdownFormat("compact", .countdown(id: "tea")))
        #expect(try RequestParser.parse("countdown FORMAT=c") == .countdownFormat("c", .countdown(id: nil)))
        #expect(try RequestParser.parse("status format=c @Asia/Tokyo") == .countdownFormat("c", .zoned("Asia/Tokyo", .status)))
        #expect(try RequestParser.parse("ticker format=c 2") == .countdownFormat("c", .ticker(skip: 2)))
        #expect(try RequestParser.parse("watch --format=json countdown format=c") == .watch(.formatted(.json, .countdownFormat("c", .countdown(id: nil)))))
        for bad in ["countdown format=", "countdown format=é", "countdown format=" + String(repeating: "a", count: 33), "countdown format=a;b",
                    "countdown a b format=c", "status format=c extra"] {
            #expect(protocolError { () throws(ProtocolError) in try RequestParser.parse(bad) } != nil, "\(bad)")
        }
    }

    // MARK: - Colours

    @Test("colours: #rrggbb alone, written back from the bytes", arguments: [
        ("#ff3030", "#ff3030"), ("#FFB000", "#ffb000"), ("#000000", "#000000"), ("#aBcDeF", "#abcdef"),
    ])
    func colours(text: String, written: String) {
        #expect(BarColor(hex: text)?.hex == written)
    }

    @Test("anything else is no hex colour (a config also takes CSS names: colourNames)", arguments: [
        "red", "#fff", "#ff303", "#ff30300", " #ff3030", "#ff3030 ", "#gg0000", "ff3030", "#ff3030;", "#ff30\u{0}0", "＃ff3030", "",
        "#ff30]0", "#ff%{F}",
    ])
    func notColours(text: String) {
        #expect(BarColor(hex: text) == nil, "\(text)")
    }

    // MARK: - Config

    private func resolved(_ json: String) -> (settings: Settings, problems: [ConfigError]) {
        let reading = ConfigFile.read(Array(json.utf8))
        let resolved = Settings.resolving(reading.file, positions: reading.positions, systemZone: Zone.named("Asia/Shanghai")!)
        return (resolved.settings, reading.problems + resolved.problems)
    }

    @Test("sets and levels read from the config")
    func readsConfig() throws {
        let (settings, problems) = resolved(#"""
            {"language": "en", "timezone": "UTC",
             "countdown_formats": {"compact": {"upcoming": "{title} {in}", "live": "● {title} {since}", "none": "free"}},
             "countdown_levels": {"warning": {"minutes": 15, "color": "#FFB000"}, "critical": {"minutes": 2, "color": "#ff3030"},
                                  "live": {"color": "#30c030"}, "ended": {}}}
            """#)
        #expect(problems.isEmpty, "\(problems)")
        let compact = try #require(settings.countdownFormats["compact"])
        #expect(compact.upcoming == (try CountdownTemplate.parse("{title} {in}")) && compact.ended == nil)
        #expect(settings.countdownLevels == CountdownLevels(warning: .init(minutes: 15, color: BarColor(red: 0xff, green: 0xb0, blue: 0)),
                                                            critical: .init(minutes: 2, color: BarColor(red: 0xff, green: 0x30, blue: 0x30)),
                                                            live: .init(color: BarColor(red: 0x30, green: 0xc0, blue: 0x30))))
    }

    @Test("bad entries are refused with their place, the others kept", arguments: [
        (##"{"countdown_levels": {"warning": {"minutes": 15, "color": "orangey"}}}"##, "countdown_levels.warning.color", "'orangey' is not a colour: write #rrggbb"),
        (##"{"countdown_levels": {"warning": {"minutes": 15, "urgent": "yes"}}}"##, "countdown_levels.warning.urgent", "expected true or false"),
        (##"{"countdown_levels": {"warning": {"minutes": 15, "color": "#ff3030\"}"}}}"##, "countdown_levels.warning.color", "is not a colour"),
        (##"{"countdown_levels": {"warning": {"minutes": 0}}}"##, "countdown_levels.warning.minutes", "must be between 1 and 10080, got 0"),
        (##"{"countdown_levels": {"warning": {"color": "#ff3030"}}}"##, "countdown_levels.warning", "needs \"minutes\""),
        (##"{"countdown_levels": {"warnig": {"minutes": 5}}}"##, "countdown_levels.warnig", "did you mean 'warning'?"),
        (##"{"countdown_levels": {"live": {"minutes": 5}}}"##, "countdown_levels.live.minutes", "unknown key"),
        (##"{"countdown_levels": {"warning": {"minutes": 5}, "critical": {"minutes": 9}}}"##, "countdown_levels.critical", "critical must be the nearer"),
        (##"{"countdown_formats": {"c": {"upcoming": "{titel}"}}}"##, "countdown_formats.c.upcoming", "{titel} is not a field"),
        (##"{"countdown_formats": {"c": {"upcomming": "{title}"}}}"##, "countdown_formats.c.upcomming", "did you mean 'upcoming'?"),
        (##"{"countdown_formats": {"c": {"none": "{in}"}}}"##, "countdown_formats.c.none", "{in} has nothing to show here"),
        (##"{"countdown_formats": {"c": {"live": "{start:%Q}"}}}"##, "countdown_formats.c.live", "the pattern '%Q'"),
        (##"{"countdown_formats": {"c": {"live": "{start:%100Y}"}}}"##, "countdown_formats.c.live", "formats to 100 bytes; a time in a template is at most 64"),
        (##"{"countdown_formats": {"a b": {"live": "{title}"}}}"##, "countdown_formats.a b", "a set's name is 1 to 32"),
        (##"{"countdown_formats": {"c": "{title}"}}"##, "countdown_formats.c", "expected an object of templates"),
        (##"{"countdown_formats": ["x"]}"##, "countdown_formats", "expected an object"),
        (##"{"countdown_formats": {"c": {"live": 3}}}"##, "countdown_formats.c.live", "expected a string"),
    ])
    func refusesBadEntries(json: String, key: String, message: String) {
        let (_, problems) = resolved(json)
        #expect(problems.contains { $0.key == key && $0.problem.contains(message) }, "\(problems.map { "\($0.key ?? "-"): \($0.problem)" })")
    }

    @Test("a bad template costs only itself: its set keeps the rest, the other sets stand")
    func keepsGoodSets() throws {
        let (settings, problems) = resolved(##"{"countdown_formats": {"bad": {"live": "{x}", "upcoming": "{title} {in}", "upcomng": "x"}, "good": {"live": "{title}"}}}"##)
        #expect(problems.count == 2 && settings.countdownFormats.keys.sorted() == ["bad", "good"], "\(problems)")
        let bad = try #require(settings.countdownFormats["bad"])
        let upcoming = try CountdownTemplate.parse("{title} {in}")
        #expect(bad.live == nil && bad.upcoming == upcoming)
        #expect(problems.first { $0.key == "countdown_formats.bad.live" }?.fallback == .instead("the set bad keeps the rest; live countdowns say zaoan's own text"))
        #expect(problems.first { $0.key == "countdown_formats.bad.upcomng" }?.fallback == .ignored)
    }

    @Test("more than 16 sets: the first 16 in the file are kept")
    func boundsSets() {
        let sets = (0...16).map { "\"s\($0)\": {\"live\": \"{title}\"}" }.joined(separator: ",")
        let (settings, problems) = resolved("{\"countdown_formats\": {\(sets)}}")
        #expect(settings.countdownFormats.keys.sorted() == (0...15).map { "s\($0)" }.sorted(), "\(settings.countdownFormats.keys)")
        #expect(problems.count == 1 && problems[0].problem.contains("17 sets; at most 16")
                && problems[0].fallback == .instead("the first 16 in the file are kept"), "\(problems)")
    }

    @Test("a bad colour, urgency or key costs only itself: the level keeps its minutes")
    func levelKeepsItsMinutes() {
        let (settings, problems) = resolved(##"""
            {"countdown_levels": {"warning": {"minutes": 30, "color": "orangey", "colour": "#ffffff"},
                                  "critical": {"minutes": 5, "urgent": 1, "color": "Red"}, "live": {"color": "nope"}}}
            """##)
        #expect(settings.countdownLevels == CountdownLevels(warning: .init(minutes: 30), critical: .init(minutes: 5, color: BarColor(red: 255, green: 0, blue: 0))),
                "\(settings.countdownLevels)")
        let said = Dictionary(problems.map { ($0.key ?? "", $0.fallback) }, uniquingKeysWith: { first, _ in first })
        #expect(said == ["countdown_levels.warning.color": .instead("warning keeps its 30 minutes, without a colour"),
                         "countdown_levels.warning.colour": .ignored,
                         "countdown_levels.critical.urgent": .instead("critical keeps its 5 minutes, with the default urgency"),
                         "countdown_levels.live.color": .instead("live keeps the rest, without a colour")], "\(problems)")
        #expect(problems.first { $0.key == "countdown_levels.warning.colour" }?.problem.contains("did you mean 'color'?") == true)
    }

    @Test("CSS colour names, any case, as waybar takes them; sent as #rrggbb", arguments: [
        ("orange", "#ffa500"), ("Red", "#ff0000"), ("STEELBLUE", "#4682b4"), ("lightgoldenrodyellow", "#fafad2"), ("#A0b0C0", "#a0b0c0"),
    ])
    func colourNames(name: String, hex: String) {
        #expect(BarColor(configured: name)?.hex == hex)
    }

    @Test("not colours: unknown names, non-ASCII look-alikes, #rgb, names with spaces", arguments: [
        "orangey", "ｒｅｄ", "#fff", "dark blue", "", "re\u{0}d", String(repeating: "a", count: 4096), "transparent",
    ])
    func notColourNames(text: String) {
        #expect(BarColor(configured: text) == nil)
    }

    // MARK: - Rendering

    private func responder(_ json: String, rooms: [LiveRoom]) throws -> Responder {
        let (settings, problems) = resolved(json)
        #expect(problems.isEmpty, "\(problems)")
        var schedule = LiveSchedule()
        for room in rooms { try schedule.upsert(room, limit: 100) }
        return Responder(settings: settings, schedule: schedule)
    }

    static let now = Instant(secondsSince1970: 1_796_000_000)  // 2026-11-30T00:53:20Z
    static let formats = #"""
        "countdown_formats": {"compact": {"upcoming": "{title} @ {start:%H:%M} / {start:HH:mm}-{end:HH:mm} {in} ({until})",
                                          "live": "● {title} {since} {location} {calendar}", "ended": "done: {title}", "none": "free"},
                              "default": {"live": "LIVE {title}"}}
        """#

    @Test("each phase through its template, with the start in strftime and LDML")
    func rendersPhases() throws {
        let next = LiveRoom(id: "next", title: "Tea", start: Self.now.adding(seconds: 3723))
        var event = LiveRoom(id: "ev", title: "Talk", start: Self.now.adding(seconds: -723), end: Self.now.adding(seconds: 3600))
        event.location = "Room 5"
        event.calendar = "work"
        let old = LiveRoom(id: "old", title: "Old", start: Self.now.adding(seconds: -9000), end: Self.now.adding(seconds: -3600))
        let responder = try responder(##"{"language": "en", "timezone": "UTC", \##(Self.formats)}"##, rooms: [next, old])
        #expect(responder.answer(.countdownFormat("compact", .countdown(id: "next")), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "Tea @ 01:55 / 01:55-03:55 starts in 01:02:03 (01:02:03)")
        #expect(responder.answer(.countdownFormat("compact", .countdown(id: "old")), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "done: Old")
        // The default set: live has a template, upcoming keeps today's text.
        #expect(responder.answer(.countdown(id: "next"), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text == "starts in 01:02:03")
        let live = try self.responder(##"{"language": "en", "timezone": "UTC", \##(Self.formats)}"##, rooms: [])
        live.calendarEvents = [event]
        #expect(live.answer(.countdownFormat("compact", .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "● Talk 00:12:03 Room 5 work")
        #expect(live.answer(.countdown(id: nil), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text == "LIVE Talk")
        let empty = try self.responder(##"{"language": "en", "timezone": "UTC", \##(Self.formats)}"##, rooms: [])
        #expect(empty.answer(.countdownFormat("compact", .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text == "free")
        #expect(empty.answer(.countdown(id: nil), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text == "")
        #expect(empty.answer(.countdownFormat("nope", .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "ERR not-found no countdown format 'nope'; countdown_formats has compact, default")
    }

    @Test("during a meeting: {ends_in} says what is left of the live one, {next} what follows it (MeetingBar's view); both empty when there is nothing to say")
    func meetingFields() throws {
        let live = LiveRoom(id: "standup", title: "Standup", start: Self.now.adding(seconds: -723), end: Self.now.adding(seconds: 1077))
        let later = LiveRoom(id: "later", title: "Later", start: Self.now.adding(seconds: 7200))
        let review = LiveRoom(id: "review", title: "Review", start: Self.now.adding(seconds: 1500))
        let earlier = LiveRoom(id: "old", title: "Old", start: Self.now.adding(seconds: -3000), end: Self.now.adding(seconds: -100))
        let formats = ##""countdown_formats": {"m": {"live": "{title} ends in {ends_in} · next: {next}", "upcoming": "{title} {in} [{ends_in}] {next}"}}"##
        let responder = try responder(##"{"language": "en", "timezone": "UTC", \##(formats)}"##, rooms: [later, live, review, earlier])
        func text(_ request: Request) -> String { responder.answer(request, now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text }
        #expect(text(.countdownFormat("m", .countdown(id: nil))) == "Standup ends in 00:17:57 · next: Review · starts in 00:25:00")
        // Upcoming: nothing ends yet; what follows Review is Later (not the live one, which began before).
        #expect(text(.countdownFormat("m", .countdown(id: "review"))) == "Review starts in 00:25:00 [] Later · starts in 02:00:00")
        let alone = try self.responder(##"{"language": "zh", "timezone": "UTC", \##(formats)}"##, rooms: [live])
        #expect(alone.answer(.countdownFormat("m", .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "Standup ends in 00:17:57 · next:", "nothing follows: {next} is empty")
        // A room without an end: live_default_duration after its start.
        let open = try self.responder(##"{"language": "en", "timezone": "UTC", "live_default_duration": 3600, \##(formats)}"##,
                                      rooms: [LiveRoom(id: "o", title: "Open", start: Self.now.adding(seconds: -600))])
        #expect(open.answer(.countdownFormat("m", .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == "Open ends in 00:50:00 · next:")
    }

    @Test("an empty field leaves no doubled or dangling space, as in status_template")
    func squeezesSpaces() throws {
        let room = LiveRoom(id: "r", title: "", start: Self.now.adding(seconds: -723))
        let responder = try responder(##"{"language": "zh", "timezone": "UTC", "countdown_formats": {"c": {"live": "{title} {location}  {since} {calendar}"}}}"##, rooms: [room])
        #expect(responder.answer(.countdownFormat("c", .countdown(id: "r")), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text == "00:12:03")
    }

    @Test("without the keys, every format's answer is today's, byte for byte")
    func defaultsAreToday() throws {
        let rooms = [LiveRoom(id: "next", title: "Tea <b>#1</b> %{F#f00}", start: Self.now.adding(seconds: 300))]
        let plain = try responder(##"{"language": "en", "timezone": "UTC"}"##, rooms: rooms)
        let withEmptyKeys = try responder(##"{"language": "en", "timezone": "UTC", "countdown_formats": {}, "countdown_levels": {}}"##, rooms: rooms)
        for format in OutputFormat.allCases {
            for request in [Request.countdown(id: nil), .countdown(id: "next"), .status, .ticker(skip: 0)] {
                let formatted = format == .plain ? request : .formatted(format, request)
                let answer = plain.answer(formatted, now: Self.now, counters: ServiceFigures(startedAt: Self.now))
                #expect(answer == withEmptyKeys.answer(formatted, now: Self.now, counters: ServiceFigures(startedAt: Self.now)))
                #expect(!answer.text.contains("color") && !answer.text.contains("#[fg") && !answer.text.contains("%{F-}"), "\(answer.text)")
            }
        }
        #expect(plain.answer(.formatted(.json, .countdown(id: nil)), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
                    == ##"{"text":"Tea &lt;b&gt;#1&lt;/b&gt; %{F#f00} · starts in 00:05:00","tooltip":"Tea &lt;b&gt;#1&lt;/b&gt; %{F#f00}\n2026-11-30 00:58","class":"soon","alt":"soon"}"##)
    }

    @Test("a template's text and fields are escaped for each target as titles are")
    func escapesFields() throws {
        let title = "<b>#x</b> %{A1:rm -rf ~:}"
        let rooms = [LiveRoom(id: "next", title: title, start: Self.now.adding(seconds: 3723))]
        let responder = try responder(##"{"language": "en", "timezone": "UTC", "countdown_formats": {"c": {"upcoming": "# {title} & 100%"}}}"##, rooms: rooms)
        func text(_ format: OutputFormat) -> String {
            responder.answer(.formatted(format, .countdownFormat("c", .countdown(id: nil))), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
        }
        #expect(text(.json).hasPrefix(##"{"text":"# &lt;b&gt;#x&lt;/b&gt; %{A1:rm -rf ~:} &amp; 100%""##), "\(text(.json))")
        #expect(text(.tmux) == "#### <b>####x</b> %{A1:rm -rf ~:} & 100%")
        #expect(text(.polybar) == "# <b>#x</b> \u{FF05}{A1:rm -rf ~:} & 100%")
        #expect(text(.i3bar).contains(##""full_text":"# <b>#x</b> %{A1:rm -rf ~:} & 100%""##), "\(text(.i3bar))")
    }

    // MARK: - Levels

    static let levels = #"""
        "countdown_levels": {"warning": {"minutes": 15, "color": "#ffb000"}, "critical": {"minutes": 2, "color": "#ff3030"},
                             "live": {"color": "#30c030"}, "ended": {"color": "#808080"}}
        """#

    @Test("each level's class, colour and urgency in every bar format", arguments: [
        (600, "upcoming", "warning", "#ffb000", false),   // 10 min: warning, beside upcoming (soon_threshold 5 min)
        (240, "soon", "warning", "#ffb000", false),       // 4 min: soon and warning; the user's colour wins over urgency
        (90, "soon", "critical", "#ff3030", false),       // 90 s: critical, coloured: not urgent unless asked
        (-30, "live", nil, "#30c030", false),             // live for 30 s, coloured
        (-9000, "ended", nil, "#808080", false),
        (3600, "upcoming", nil, nil, false),              // an hour ahead: no level
    ])
    func levels(offset: Int, state: String, level: String?, color: String?, urgent: Bool) throws {
        let room = LiveRoom(id: "r", title: "T#", start: Self.now.adding(seconds: TimeInterval(offset)),
                            end: Self.now.adding(seconds: TimeInterval(offset + 3600)))
        let responder = try responder(##"{"language": "en", "timezone": "UTC", "soon_threshold": 300, \##(Self.levels)}"##, rooms: [room])
        func text(_ format: OutputFormat) -> String {
            responder.answer(.formatted(format, .countdown(id: "r")), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text(.json).utf8)) as? [String: Any])
        if let level {
            #expect(json["class"] as? [String] == [state, level], "\(json)")
        } else {
            #expect(json["class"] as? String == state, "\(json)")
        }
        #expect(json["alt"] as? String == state)
        let block = try #require(try JSONSerialization.jsonObject(with: Data(text(.i3bar).utf8)) as? [String: Any])
        #expect(block["color"] as? String == color, "\(block)")
        #expect(block["urgent"] as? Bool == urgent, "\(block)")
        let shown = responder.answer(.countdown(id: "r"), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
        if let color {
            #expect(text(.tmux) == "#[fg=\(color)]" + shown.replacingOccurrences(of: "#", with: "####") + "#[default]")
            #expect(text(.polybar) == "%{F\(color)}" + shown + "%{F-}")
        } else {
            #expect(text(.tmux) == shown.replacingOccurrences(of: "#", with: "####") && text(.polybar) == shown)
        }
        #expect(text(.plain) == shown && !shown.contains("[fg"))
    }

    @Test("status carries the level of its countdown")
    func statusLevel() throws {
        let room = LiveRoom(id: "r", title: "T", start: Self.now.adding(seconds: 60))
        let responder = try responder(##"{"language": "en", "timezone": "UTC", \##(Self.levels)}"##, rooms: [room])
        let block = responder.answer(.formatted(.i3bar, .status), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
        #expect(block.contains(##""color":"#ff3030","urgent":false"##), "\(block)")
    }

    /// i3bar paints an urgent block in its own colour over the block's: urgency is given
    /// where the user asks for it, or by default only where no colour is set.
    @Test("urgency: a level's \"urgent\" decides; uncoloured levels keep zaoan's default", arguments: [
        // (levels, seconds to the start, urgent)
        (#"{}"#, 240, true),                                                         // soon, no levels: urgent, as always
        (#"{}"#, 600, false),
        (#"{}"#, -30, true),                                                         // the first minute live
        (#"{}"#, -90, false),
        (#"{"critical": {"minutes": 2}}"#, 90, true),                               // critical without a colour: urgent
        (#"{"critical": {"minutes": 2, "color": "red"}}"#, 90, false),              // with a colour: the colour wins
        (#"{"critical": {"minutes": 2, "color": "red", "urgent": true}}"#, 90, true),
        (#"{"critical": {"minutes": 2, "urgent": false}}"#, 90, false),
        (#"{"warning": {"minutes": 10, "color": "orange"}}"#, 240, false),          // soon inside a coloured warning
        (#"{"warning": {"minutes": 10, "urgent": true}}"#, 500, true),              // urgent where the user asks
        (#"{"live": {"color": "green"}}"#, -30, false),
        (#"{"live": {"urgent": true}}"#, -900, true),
        (#"{"ended": {"urgent": true}}"#, -9000, true),
    ])
    func urgency(levels: String, offset: Int, urgent: Bool) throws {
        let room = LiveRoom(id: "r", title: "T", start: Self.now.adding(seconds: TimeInterval(offset)),
                            end: Self.now.adding(seconds: TimeInterval(offset + 3600)))
        let responder = try responder(##"{"language": "en", "timezone": "UTC", "soon_threshold": 300, "countdown_levels": \##(levels)}"##, rooms: [room])
        let text = responder.answer(.formatted(.i3bar, .countdown(id: "r")), now: Self.now, counters: ServiceFigures(startedAt: Self.now)).text
        let block = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(block["urgent"] as? Bool == urgent, "\(levels) at \(offset): \(block)")
    }

    // MARK: - Coloured lines and the client's filter

    @Test("tmux: a # at the end of the text stays one # before the closing code")
    func tmuxTrailingHash() throws {
        let red = try #require(BarColor(hex: "#ff0000"))
        #expect(ColoredLine.tmux("a#", color: red) == "#[fg=#ff0000]a###[default]")
        #expect(ColoredLine.tmux("#[x]", color: red) == "#[fg=#ff0000]##[x]#[default]")
        #expect(ColoredLine.polybar("50%{", color: red) == "%{F#ff0000}50\u{FF05}{%{F-}")
    }
}
