import Foundation
import Testing
import ZaoanClient
import ZaoanText

/// `countdown_formats` and `countdown_levels` through the real service and `zaoan watch`:
/// templates asked for by `format=NAME` on `countdown` and `status`, and each level's class
/// or colour in every bar format. Rooms are placed minutes away from the service's own
/// clock, so each stays in its level for minutes however slow the machine is.
@Suite("Countdown formats and levels against the real service")
struct CountdownFormatServiceTests {
    static let config = #"""
        {"countdown_formats": {
            "compact": {"upcoming": "{title} {start:%H:%M} {start:HH:mm} {start:yyyy-MM-dd} {end:%H:%M}",
                        "live": "● {title} {since}", "none": "nothing next"},
            "tail": {"upcoming": "{in} {title}", "live": "{in} {title}"}},
         "countdown_levels": {"warning": {"minutes": 30, "color": "#ffb000"}, "critical": {"minutes": 5, "color": "#ff3030"},
                              "live": {"color": "#30c030"}, "ended": {"color": "#808080"}}}
        """#

    private func start() throws -> TestService {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "Asia/Shanghai"], config: Self.config)
        for add in ["live add warn +20m Warn#", "live add crit +3m Crit", "live add on -1m On end=+3h", "live add done -3h Done end=+1h",
                    "live add fixed 2030-06-01T20:30 Fixed"] {
            let answer = try service.ask(add)
            guard answer == "ok\n" else { throw TestFailure("\(add): \(answer)") }
        }
        return service
    }

    @Test("countdown and status with format=NAME, patterns in strftime and LDML, unknown names refused")
    func templates() throws {
        let service = try start()
        defer { try? service.stop() }
        #expect(try service.ask("countdown fixed format=compact") == "Fixed 20:30 20:30 2030-06-01 22:30\n")
        #expect(try service.ask("countdown format=compact fixed") == "Fixed 20:30 20:30 2030-06-01 22:30\n")
        let live = try service.ask("countdown on format=compact")
        #expect(live.wholeMatch(of: /● On 00:0\d:\d\d\n/) != nil, "\(live)")
        // Without format=: today's text.
        #expect(try service.ask("countdown fixed").hasPrefix("starts in "))
        // status's {countdown} is the featured room's (the live one), in the set named.
        let status = try service.ask("status format=compact")
        #expect(status.contains(" ● On 00:0") && !status.contains("live 00:"), "\(status)")
        let zoned = try service.ask("status @Asia/Tokyo format=compact")
        #expect(zoned.contains("● On 00:0"), "\(zoned)")
        #expect(try service.ask("status format=compact @Asia/Tokyo").contains("● On 00:0"))
        let ticker = try service.ask("ticker 0 format=compact")
        #expect(["● On 00:0", "Fixed 20:30", "Warn# ", "Crit "].contains { ticker.hasPrefix($0) }, "\(ticker)")
        #expect(try service.ask("ticker format=nope").hasPrefix("ERR not-found no countdown format 'nope'"))
        #expect(try service.ask("countdown format=nope").hasPrefix("ERR not-found no countdown format 'nope'; countdown_formats has compact, tail"))
        #expect(try service.ask("countdown format=a/b").hasPrefix("ERR bad-argument format=a/b: a name of countdown_formats is 1 to 32"))
        #expect(try service.ask("countdown format=compact format=tail").hasPrefix("ERR bad-argument give format=NAME once"))
        // A bar block `countdown format=compact` asks `url countdown format=compact` on a click: the same link.
        #expect(try service.ask("url countdown format=compact") == (try service.ask("url countdown")))
        #expect(try service.ask("url countdown format=nope") == "\n")
        // Nothing next: the set's `none`.
        for id in ["warn", "crit", "on", "done", "fixed"] { _ = try service.ask("live rm \(id)") }
        #expect(try service.ask("countdown format=compact") == "nothing next\n")
        // status's {countdown} says it too, and status, with no room, has the greeting's class.
        #expect(try service.ask("status format=compact").hasSuffix(" nothing next\n"))
        #expect(!(try service.ask("--format=json status format=compact")).contains(#""class":"upcoming""#))
        #expect(try service.ask("countdown") == "\n")
    }

    /// Each room's class (waybar), colour (i3bar, tmux, polybar) and urgency, as `zaoan watch` prints them.
    static let levels: [(id: String, state: String, level: String?, color: String, urgent: Bool)] = [
        ("warn", "upcoming", "warning", "#ffb000", false),
        ("crit", "soon", "critical", "#ff3030", false),  // coloured: the colour wins over i3bar's urgent red
        ("on", "live", nil, "#30c030", false),
        ("done", "ended", nil, "#808080", false),
    ]

    private func watched(_ service: TestService, _ format: String, _ request: [String]) throws -> String {
        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "--format=" + format] + request,
                                     environment: service.environment, scratch: service.directory)
        defer { _ = watch.terminate() }
        return try #require(watch.nextLine(timeout: 10), "no line from zaoan watch --format=\(format) \(request); stderr: \(watch.errorText)")
    }

    @Test("zaoan watch shows each level's class and colour in every bar format")
    func levelsInEveryFormat() throws {
        let service = try start()
        defer { try? service.stop() }
        for expected in Self.levels {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try watched(service, "json", ["countdown", expected.id]).utf8)) as? [String: Any])
            if let level = expected.level {
                #expect(json["class"] as? [String] == [expected.state, level], "\(expected.id): \(json)")
            } else {
                #expect(json["class"] as? String == expected.state, "\(expected.id): \(json)")
            }
            #expect(json["alt"] as? String == expected.state, "\(expected.id): \(json)")

            let block = try #require(try JSONSerialization.jsonObject(with: Data(try watched(service, "i3bar", ["countdown", expected.id]).utf8)) as? [String: Any])
            #expect(block["color"] as? String == expected.color && block["urgent"] as? Bool == expected.urgent, "\(expected.id): \(block)")

            let tmux = try watched(service, "tmux", ["countdown", expected.id])
            #expect(tmux.hasPrefix("#[fg=\(expected.color)]") && tmux.hasSuffix("#[default]"), "\(expected.id): \(tmux)")
            let polybar = try watched(service, "polybar", ["countdown", expected.id])
            #expect(polybar.hasPrefix("%{F\(expected.color)}") && polybar.hasSuffix("%{F-}"), "\(expected.id): \(polybar)")
            #expect(try watched(service, "plain", ["countdown", expected.id]).contains("#") == false)
        }
        // A title's # at the end, just before the closing code, stays one # for tmux.
        let tail = try watched(service, "tmux", ["countdown", "warn", "format=tail"])
        #expect(tail.wholeMatch(of: /#\[fg=#ffb000\]starts in 00:[12]\d:\d\d Warn###\[default\]/) != nil, "\(tail)")
        // A bar's blocks, each with its level.
        let line = try service.ask("--format=i3bar blocks countdown crit format=compact ; countdown warn ; time HH:mm")
        let blocks = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]], "\(line)")
        #expect(blocks.map { $0["color"] as? String } == ["#ff3030", "#ffb000", nil], "\(line)")
        #expect((blocks[0]["full_text"] as? String)?.hasPrefix("Crit ") == true, "\(line)")
    }

    @Test("check-config names a bad colour, template or level and refuses the file", arguments: [
        (##"{"countdown_levels": {"critical": {"minutes": 2, "color": "red; background: url(x)"}}}"##, "countdown_levels.critical.color", "is not a colour: write #rrggbb (six hex digits, e.g. #ff3030) or a CSS colour name"),
        (##"{"countdown_formats": {"c": {"live": "{title} {sinse}"}}}"##, "countdown_formats.c.live", "{sinse} is not a field"),
        (##"{"countdown_formats": {"c": {"live": "{start:%Ed}"}}}"##, "countdown_formats.c.live", "the pattern '%Ed'"),
        (##"{"countdown_levels": {"warning": {"minutes": 100000}}}"##, "countdown_levels.warning.minutes", "must be between 1 and 10080"),
    ])
    func checkConfig(json: String, key: String, message: String) throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let path = service.directory.path + "/bad.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try service.zaoan(["check-config", path])
        #expect(refused.status == 1 && refused.errorOutput.contains(key) && refused.errorOutput.contains(message), "\(refused)")
    }

    /// Issue 33's user: `"color": "orange"` dropped the whole warning level. A bad value costs
    /// only itself, and each problem says what stands instead; CSS names are colours.
    @Test("a bad colour costs only the colour: the level keeps its minutes; orange is a colour; urgent only where asked")
    func badColourCostsItself() throws {
        let config = ##"{"countdown_levels": {"warning": {"minutes": 30, "color": "orangey"}, "critical": {"minutes": 5, "color": "Orange", "urgent": true}}}"##
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "Asia/Shanghai"], config: config)
        defer { try? service.stop() }
        for add in ["live add warn +20m Warn", "live add crit +3m Crit"] { #expect(try service.ask(add) == "ok\n") }
        let warn = try #require(try JSONSerialization.jsonObject(with: Data(try watched(service, "json", ["countdown", "warn"]).utf8)) as? [String: Any])
        #expect(warn["class"] as? [String] == ["upcoming", "warning"], "the warning level stands without its colour: \(warn)")
        let warnBlock = try #require(try JSONSerialization.jsonObject(with: Data(try watched(service, "i3bar", ["countdown", "warn"]).utf8)) as? [String: Any])
        #expect(warnBlock["color"] == nil && warnBlock["urgent"] as? Bool == false, "\(warnBlock)")
        let critBlock = try #require(try JSONSerialization.jsonObject(with: Data(try watched(service, "i3bar", ["countdown", "crit"]).utf8)) as? [String: Any])
        #expect(critBlock["color"] as? String == "#ffa500" && critBlock["urgent"] as? Bool == true, "\(critBlock)")
        // What the service says, and check-config on the same file.
        let stats = try service.ask("stats")
        #expect(stats.contains("config_problems: 1"), "\(stats)")
        let path = service.directory.path + "/levels.json"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try service.zaoan(["check-config", path])
        #expect(check.status == 1 && check.errorOutput.contains("levels.json:1:59: config key 'countdown_levels.warning.color': 'orangey' is not a colour")
                && check.errorOutput.contains("(warning keeps its 30 minutes, without a colour)"), "\(check)")
    }

    @Test("check-config takes the service's own test config")
    func checkGoodConfig() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let path = service.directory.path + "/good.json"
        try Self.config.write(toFile: path, atomically: true, encoding: .utf8)
        let accepted = try service.zaoan(["check-config", path])
        #expect(accepted.status == 0, "\(accepted)")
    }

    @Test("tmux draws a level's colour around zaoan's status; a title's #[fg=red] still stays text")
    func tmuxDrawsTheColour() throws {
        let world = try IntegrationWorld(config: ##"{"greetings": {"00:00": "早安"}, "countdown_levels": {"critical": {"minutes": 10, "color": "#ffb000"}}}"##)
        let title = try world.addHostileRoom()  // 3 minutes ahead: critical
        let inner = try Tmux("ci", world: world)
        defer { inner.kill() }
        try inner.start("sleep 600", width: 400, height: 5)
        try inner.run(["source-file", Snippet.path("tmux/zaoan.tmux.conf")])
        try inner.run(["set", "-g", "status-right-length", "400"])
        // What the inner tmux drew, colours included, read through an outer tmux attached to it.
        let outer = try Tmux("co", world: world)
        defer { outer.kill() }
        try outer.start("tmux -S \(inner.socket) attach", width: 400, height: 6)
        let screen = outer.waitForScreen(timeout: 8, escapes: true) { $0.contains("距开播 00:0") }
        let statusLine = screen.split(separator: "\n").last(where: { $0.contains("距开播") }).map(String.init) ?? ""
        // #ffb000 as the terminal gets it: true colour, or the 256-colour palette's nearest (214, #ffaf00).
        #expect(statusLine.contains("38;2;255;176;0") || statusLine.contains("38;5;214"),
                "the status should be drawn in #ffb000: \(statusLine.debugDescription)")
        #expect(!statusLine.contains("\u{1B}[31m"), "#[fg=red] in a title must not colour the bar: \(statusLine.debugDescription)")
        #expect(try outer.screen().contains(Hostile.visible(title)), "the title reads as typed")
        IntegrationCheck.nothingRan(world, "tmux")
        try world.service.stop()
    }

    // MARK: - What zaoan watch lets through

    @Test("zaoan watch keeps the service's colour codes and defuses any others", arguments: [
        (OutputFormat.tmux, "#[fg=#ff0000]a###[default]", "#[fg=#ff0000]a###[default]"),
        (.tmux, "#[fg=#ff0000]a#[bg=red]b#[default]", "#[fg=#ff0000]a##[bg=red]b#[default]"),
        (.tmux, "#[fg=red]a#[default]", "##[fg=red]a##[default]"),
        (.tmux, "#[fg=#ff0000;bg=red]a#[default]", "##[fg=####ff0000;bg=red]a##[default]"),
        (.polybar, "%{F#ff0000}a%{F-}", "%{F#ff0000}a%{F-}"),
        (.polybar, "%{F#ff0000}a%{A1:x:}b%{F-}", "%{F#ff0000}a\u{FF05}{A1:x:}b%{F-}"),
        (.polybar, "%{F#ff00zz}a%{F-}", "\u{FF05}{F#ff00zz}a\u{FF05}{F-}"),
    ])
    func clientFilter(format: OutputFormat, line: String, printed: String) {
        #expect(ClientOutput.line(line, format: format) == printed)
    }

    @Test("zaoan watch keeps a block's colour and a waybar object's classes only when well formed")
    func clientFilterJSON() {
        #expect(ClientOutput.line(##"{"full_text":"a","color":"#FF3030","urgent":true}"##, format: .i3bar)?.contains(##""color":"#ff3030""##) == true)
        #expect(ClientOutput.line(##"{"full_text":"a","color":"red\"}"}"##, format: .i3bar)?.contains("color") == false)
        #expect(ClientOutput.line(##"{"text":"a","class":["soon","warning"],"alt":"soon"}"##, format: .json)
                    == ##"{"text":"a","class":["soon","warning"],"alt":"soon"}"##)
        #expect(ClientOutput.line(##"{"text":"a","class":["soon","<x>"]}"##, format: .json) == ##"{"text":"a","class":["soon","x"],"alt":"soon"}"##)
        #expect(ClientOutput.line(##"{"text":"a","class":"soon"}"##, format: .json) == ##"{"text":"a","class":"soon","alt":"soon"}"##)
    }
}
