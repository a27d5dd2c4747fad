import Foundation
import Glibc
import Testing

/// The status-bar snippets in packaging/integrations: each test reads the command out of the
/// shipped file, runs it as the bar would (/bin/sh -c, or through tmux itself) against a real
/// service, and checks what the bar gets — also with a hostile room title as the next room.
@Suite("Integrations: status bars")
struct IntegrationBarTests {
    static let greetingClasses: Set<String> = ["morning", "noon", "afternoon", "evening", "night"]
    static let countdownClasses: Set<String> = ["upcoming", "soon", "live", "ended"]

    /// Undoes Pango's five entities; nil if the text holds markup (a `<` or `>`) or a bare `&`,
    /// which waybar would read as markup or reject.
    static func pangoDecoded(_ text: String) -> String? {
        guard !text.contains("<"), !text.contains(">") else { return nil }
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&#39;": "'", "&quot;": "\""]
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let entity = entities.keys.first(where: { rest.hasPrefix($0) }) else { return nil }
            out += entities[entity]!
            rest = rest.dropFirst(entity.count)
        }
        return out + rest
    }

    @Test("waybar: custom/zaoan streams one JSON object per change, classes styled, text escaped for Pango")
    func waybar() throws {
        let config = try Snippet.jsonc("waybar/config.jsonc") as? [String: Any]
        let module = try #require(config?["custom/zaoan"] as? [String: Any], "waybar/config.jsonc has no custom/zaoan")
        #expect((config?["modules-right"] as? [String])?.contains("custom/zaoan") == true)
        #expect(module["return-type"] as? String == "json")
        #expect(module["interval"] == nil, "a continuous script has no interval")
        #expect(module["escape"] as? Bool == false, "zaoan escapes for Pango itself; waybar must not escape again")
        let exec = try #require(module["exec"] as? String)
        #expect(exec == "zaoan watch --format json status")

        // Clicks: both modules pass each button to `zaoan click BLOCK BUTTON` (bar_clicks decides
        // what it does); the watch re-watches by itself, so waybar runs nothing again.
        let ticker = try #require(config?["custom/zaoan-ticker"] as? [String: Any], "waybar/config.jsonc has no custom/zaoan-ticker")
        #expect((config?["modules-right"] as? [String]) == ["custom/zaoan-ticker", "custom/zaoan-month", "custom/zaoan"])
        let month = try #require(config?["custom/zaoan-month"] as? [String: Any], "waybar/config.jsonc has no custom/zaoan-month")
        #expect(month["exec"] as? String == "zaoan watch --format json month" && month["return-type"] as? String == "json"
                && month["escape"] as? Bool == false && month["interval"] == nil)
        for (event, button) in ["on-click-middle": "middle", "on-click-right": "right", "on-scroll-up": "wheel-up", "on-scroll-down": "wheel-down"] {
            #expect(month[event] as? String == "zaoan click month \(button)", "\(event)")
        }
        #expect(ticker["exec"] as? String == "zaoan watch --format json ticker" && ticker["return-type"] as? String == "json"
                && ticker["escape"] as? Bool == false && ticker["interval"] == nil)
        let events = ["on-click": "left", "on-click-middle": "middle", "on-click-right": "right",
                      "on-scroll-up": "wheel-up", "on-scroll-down": "wheel-down"]
        for (block, settings) in [("status", module), ("ticker", ticker)] {
            for (event, button) in events {
                #expect(settings[event] as? String == "zaoan click \(block) \(button)", "\(block) \(event): \(String(describing: settings[event]))")
            }
            #expect(settings["exec-on-event"] as? Bool == false, "\(block): the watch changes itself; waybar must not run exec again")
        }

        let css = try Snippet.text("waybar/style.css")
        for name in ["soon", "live", "error"] {
            #expect(css.contains("#custom-zaoan-ticker.\(name)"), "style.css should style the ticker's class \(name)")
        }
        for name in Self.greetingClasses.union(Self.countdownClasses).sorted() {
            #expect(css.contains("#custom-zaoan.\(name)"), "style.css should style the class \(name)")
        }

        let world = try IntegrationWorld()
        let bar = try world.stream(exec)
        defer { bar.stop() }
        // No room yet: the greeting's class.
        let first = try #require(try bar.readLine(timeout: 5), "waybar's exec printed nothing; stderr: \(bar.errorText)")
        let greeting = IntegrationCheck.object(first, "first line")
        #expect(Self.greetingClasses.contains(greeting?["class"] as? String ?? ""), "\(first)")

        // A hostile room three minutes ahead: `soon`, the countdown ticking every second.
        let title = try world.addHostileRoom()
        var lines: [String] = []
        let started = Date()
        while Date().timeIntervalSince(started) < 3.5, let line = try? bar.readLine(timeout: 2) {
            if line.contains("soon") || !lines.isEmpty { lines.append(line) }
            if lines.count >= 3 { break }
        }
        #expect(lines.count >= 3, "expected a line per second after the room was added; got \(lines); stderr: \(bar.errorText)")
        let shownTitle = Hostile.visible(title)
        var texts: Set<String> = []
        for line in lines {
            IntegrationCheck.noControlBytes(line, "waybar line")
            guard let object = IntegrationCheck.object(line, "waybar line") else { continue }
            for key in ["text", "tooltip", "class", "alt"] {
                #expect(object[key] is String, "waybar line lacks a string \(key): \(line)")
            }
            #expect(object["class"] as? String == "soon", "\(line)")
            #expect(object["alt"] as? String == object["class"] as? String, "\(line)")
            let text = object["text"] as? String ?? ""
            texts.insert(text)
            guard let decoded = Self.pangoDecoded(text) else {
                Issue.record("text is not plain Pango text (markup or a bare &): \(text.debugDescription)")
                continue
            }
            #expect(decoded.contains(shownTitle), "the title should read as typed once Pango decodes it: \(decoded.debugDescription)")
            #expect(text.contains("&lt;b&gt;&amp;amp;"), "<b>&amp; escaped for Pango: \(text.debugDescription)")
            #expect(decoded.contains("距开播 00:0"), "\(decoded)")
            if let tooltip = object["tooltip"] as? String {
                #expect(Self.pangoDecoded(tooltip)?.contains(shownTitle) == true, "tooltip: \(tooltip.debugDescription)")
            }
        }
        #expect(texts.count >= 2, "the countdown should move: \(texts)")
        IntegrationCheck.nothingRan(world, "waybar")
        bar.stop()
        try world.service.stop()
    }

    @Test("i3bar and swaybar: status_command zaoan bar prints the header, then a growing array")
    func i3bar() throws {
        let i3 = try Snippet.value(of: "status_command", in: "i3/config", separator: " ")
        let sway = try Snippet.value(of: "status_command", in: "i3/sway.config", separator: " ")
        #expect(i3 == "zaoan bar")
        #expect(sway == i3)

        let world = try IntegrationWorld()
        let title = try world.addHostileRoom()
        let bar = try world.stream(i3)  // stdin stays open: i3bar's click events would come there
        defer { bar.stop() }
        let header = try #require(try bar.readLine(timeout: 5), "zaoan bar printed nothing; stderr: \(bar.errorText)")
        let object = IntegrationCheck.object(header, "i3bar header")
        #expect(object?["version"] as? Int == 1, "\(header)")
        #expect(object?["click_events"] as? Bool == true, "\(header)")
        #expect(try bar.readLine(timeout: 3) == "[", "the endless array opens on its own line")

        var statusLines: [String] = []
        let started = Date()
        while statusLines.count < 3, Date().timeIntervalSince(started) < 4, let line = try? bar.readLine(timeout: 2) {
            statusLines.append(line)
        }
        #expect(statusLines.count >= 3, "a status line per second while the countdown runs: \(statusLines); stderr: \(bar.errorText)")
        var sawTitle = false
        for (index, line) in statusLines.enumerated() {
            IntegrationCheck.noControlBytes(line, "i3bar line")
            #expect(line.hasPrefix("[") && line.hasSuffix("],"), "element \(index) of the array, then its comma: \(line)")
            let element = String(line.dropLast())
            guard let blocks = (try? JSONSerialization.jsonObject(with: Data(element.utf8))) as? [[String: Any]] else {
                Issue.record("not an array of blocks: \(line.debugDescription)")
                continue
            }
            #expect(!blocks.isEmpty)
            for block in blocks {
                #expect(block["full_text"] is String, "\(block)")
                #expect(block["markup"] as? String == "none", "titles must not be read as markup: \(block)")
                if (block["full_text"] as? String)?.contains(Hostile.visible(title)) == true { sawTitle = true }
            }
        }
        #expect(sawTitle, "some block shows the hostile title as typed: \(statusLines)")
        IntegrationCheck.nothingRan(world, "i3bar")
        bar.stop()
        try world.service.stop()
    }

    @Test("i3blocks: command=zaoan watch countdown, interval=persist: one plain line per change")
    func i3blocks() throws {
        let command = try Snippet.value(of: "command", in: "i3blocks/config")
        #expect(command == "zaoan watch countdown")
        #expect(try Snippet.value(of: "interval", in: "i3blocks/config") == "persist")
        #expect(try Snippet.value(of: "markup", in: "i3blocks/config") == "none")
        try checkPlainStream(command, expectTitle: { Hostile.visible($0) }, what: "i3blocks")
    }

    @Test("polybar: custom/script with tail = true: plain lines, no %{...} tag, and ASCII stand-ins polybar's fonts have")
    func polybar() throws {
        #expect(try Snippet.value(of: "type", in: "polybar/config.ini") == "custom/script")
        #expect(try Snippet.value(of: "tail", in: "polybar/config.ini") == "true")
        let exec = try Snippet.value(of: "exec", in: "polybar/config.ini")
        #expect(exec.hasPrefix("zaoan watch --timeout 100ms --format polybar status"), "\(exec)")
        // polybar runs exec with sh -c and reads stdout and stderr as one stream.
        try checkPlainStream("(\(exec)) 2>&1", expectTitle: { Hostile.caretNotation($0).replacingOccurrences(of: "%{", with: "％{") },
                             what: "polybar") { line in
            #expect(!line.contains("%{"), "polybar would read %{ as a formatting or action tag: \(line)")
            #expect(!line.unicodeScalars.contains { (0x2400...0x2426).contains($0.value) }, "no Control Pictures, which polybar's fonts lack: \(line)")
        }
    }

    /// Runs a bar's line-per-change command with a hostile room ahead: every line is plain
    /// text (no JSON), shows the title as `expectTitle` says, carries no control byte, and
    /// the countdown moves.
    private func checkPlainStream(_ command: String, expectTitle: (String) -> String, what: String,
                                  extra: (String) -> Void = { _ in }) throws {
        let world = try IntegrationWorld()
        let title = try world.addHostileRoom()
        let bar = try world.stream(command)
        defer { bar.stop() }
        var lines: [String] = []
        let started = Date()
        while lines.count < 3, Date().timeIntervalSince(started) < 4, let line = try? bar.readLine(timeout: 2) {
            lines.append(line)
        }
        #expect(lines.count >= 3, "\(what): a line per second while the countdown runs: \(lines); stderr: \(bar.errorText)")
        for line in lines {
            IntegrationCheck.noControlBytes(line, "\(what) line")
            #expect(!line.hasPrefix("{") && !line.hasPrefix("["), "\(what) wants plain text: \(line)")
            #expect(line.contains(expectTitle(title)), "\(what) line should show the title as typed: \(line.debugDescription)")
            #expect(line.contains("距开播 00:0"), "\(line)")
            extra(line)
        }
        #expect(Set(lines).count == lines.count, "each line is a change: \(lines)")
        IntegrationCheck.nothingRan(world, what)

        // An outage: the bar gets one plain line saying so, nothing else.
        try world.service.stop()
        var outage: [String] = []
        while outage.count < 3, let line = try? bar.readLine(timeout: 2.5) { outage.append(line) }
        #expect(outage.contains { $0.contains("not running") }, "\(what) during an outage: \(outage)")
        #expect(outage.allSatisfy { !$0.hasPrefix("{") && !$0.contains("ERR") }, "\(what) during an outage: \(outage)")
        bar.stop()
    }

    @Test("tmux: status-right shows zaoan's status every second; #[...], #{...} and #(...) in a title stay text")
    func tmux() throws {
        let world = try IntegrationWorld()
        let greeting = try world.service.ask("greeting").trimmingCharacters(in: .newlines)
        let title = try world.addHostileRoom()

        let inner = try Tmux("ti", world: world)
        defer { inner.kill() }
        try inner.start("sleep 600", width: 400, height: 5)
        try inner.run(["source-file", Snippet.path("tmux/zaoan.tmux.conf")])
        #expect(try inner.run(["show", "-gv", "status-interval"]).output == "1\n")
        let right = try inner.run(["show", "-gv", "status-right"]).output
        #expect(right == "#(zaoan ask --timeout 100ms --format tmux status)\n", "\(right)")
        // Room for the whole hostile title; users keep the snippet's 120.
        try inner.run(["set", "-g", "status-right-length", "400"])

        // tmux draws status lines only for an attached client: attach one inside another tmux
        // and read what it drew, colours included.
        let outer = try Tmux("to", world: world)
        defer { outer.kill() }
        try outer.start("tmux -S \(inner.socket) attach", width: 400, height: 6)
        let screen = outer.waitForScreen(timeout: 8, escapes: true) { $0.contains("距开播 00:0") }
        let statusLine = screen.split(separator: "\n").last(where: { $0.contains("距开播") }).map(String.init) ?? ""
        #expect(statusLine.contains(greeting), "the status line shows the greeting: \(screen.debugDescription)")
        let plainScreen = try outer.screen()
        IntegrationCheck.noControlBytes(plainScreen, "the drawn tmux status line")
        let expected = Hostile.visible(title)
        #expect(plainScreen.contains(expected),
                "the title should read as typed, #[fg=red], #{host} and #(...) included: \(plainScreen.debugDescription)")
        #expect(!statusLine.contains("\u{1B}[31m"), "#[fg=red] in a title must not colour the bar: \(statusLine.debugDescription)")
        IntegrationCheck.nothingRan(world, "tmux")
        outer.kill()
        inner.kill()
        try world.service.stop()
    }

    @Test("starship: [custom.zaoan] runs zaoan ask countdown through sh, as starship does; empty when no room")
    func starship() throws {
        let file = "starship/starship.toml"
        let settings = try Snippet.settings(file)
        #expect(settings.contains("[custom.zaoan]"))
        let command = try Snippet.value(of: "command", in: file)
        #expect(command == "\"zaoan ask --timeout 80ms countdown\"")
        #expect(try Snippet.value(of: "when", in: file) == "true")
        #expect(try Snippet.value(of: "shell", in: file) == "[\"sh\"]")
        #expect(try Snippet.value(of: "unsafe_no_escape", in: file) == "false")
        let script = String(command.dropFirst().dropLast())

        let world = try IntegrationWorld()
        // starship hands the command to the shell on stdin.
        let none = try world.run("/bin/sh", [], stdin: script)
        #expect(none.status == 0 && none.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "no room: starship shows nothing: \(none)")

        let title = try world.addHostileRoom()
        let shown = try world.run("/bin/sh", [], stdin: script)
        #expect(shown.status == 0, "\(shown)")
        IntegrationCheck.noControlBytes(shown.output, "starship's output")
        #expect(shown.output.hasPrefix(Hostile.visible(title) + " · 距开播 00:0"), "\(shown)")
        IntegrationCheck.nothingRan(world, "starship")

        // What starship users hit: the service stopped (SIGSTOP: it accepts, never answers)
        // and not running at all. Each prompt's module is empty, well inside starship's
        // command_timeout (500 ms); the times are printed, the bound is starship's.
        func prompts(_ state: String) throws {
            var times: [Double] = []
            for _ in 0..<20 {
                let result = try world.run("/bin/sh", [], stdin: script)
                #expect(result.output.isEmpty, "\(state): starship would show \(result.output)")
                times.append(result.elapsed * 1000)
            }
            times.sort()
            print("starship module, service \(state): median \(Int(times[10])) ms, worst \(wholeNumber(times[19])) ms of 20")
            #expect(times[19] < 500, "\(state): the slowest of 20 took \(wholeNumber(times[19])) ms, past starship's command_timeout")
        }
        kill(world.service.pid, SIGSTOP)
        try prompts("stopped (SIGSTOP)")
        kill(world.service.pid, SIGCONT)
        try world.service.stop()
        try prompts("not running")
    }
}
