import Foundation
import Glibc
import Testing

/// `bar_clicks` through the real binaries: `zaoan bar` fed i3bar click events on stdin, and
/// `zaoan click` reaching the `zaoan watch` processes of a block through their FIFOs.
@Suite("bar_clicks: click actions in zaoan bar, zaoan watch and zaoan click")
struct ClickActionTests {
    /// Three upcoming rooms and a ticker that stays on one of them for an hour, so each step
    /// is seen as a change of title.
    static let rooms = ["Alpha", "Beta", "Gamma"]

    static func service(clicks: String, extra: String = "") throws -> TestService {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"ticker_period": 3600, "bar_clicks": \#(clicks)\#(extra)}"#)
        let now = Int(exactly: Date().timeIntervalSince1970.rounded(.down)) ?? 0  // a clock past Int (or NaN) fails the adds below, not the process
        for (index, title) in rooms.enumerated() {
            let answer = try service.ask("live add \(title.lowercased()) @\(now + 1000 * (index + 1)) \(title)")
            guard answer == "ok\n" else { throw TestFailure("live add \(title): \(answer)") }
        }
        return service
    }

    /// The room title a ticker text starts with.
    static func title(_ text: String) -> String? {
        rooms.first { text.hasPrefix($0 + " · ") }
    }

    /// The title `ticker SKIP` shows now, asked of the service.
    static func title(skip: Int, _ service: TestService) -> String? {
        (try? service.ask(skip == 0 ? "ticker" : "ticker \(skip)")).flatMap { title($0) }
    }

    /// A recording command: one argument a line, then the process's session, whether stdin
    /// and stdout are /dev/null, its blocked and ignored signals, then `---`.
    static func recorder(in folder: TemporaryDirectory) throws -> (path: String, log: () -> String) {
        let log = folder.file("ran.log")
        try folder.write("record.sh", """
            #!/bin/sh
            # The masks first, with builtins only: a shell blocks every signal around each fork
            # it makes, and a grep could read them in that moment.
            sig=
            while IFS= read -r line; do
                case $line in SigBlk:* | SigIgn:*) sig="$sig$line
            " ;; esac
            done < /proc/$$/status
            out=$(readlink /proc/$$/fd/1)
            { for a in "$@"; do printf 'arg:%s\\n' "$a"; done
              printf 'pid:%s sid:%s\\n' "$$" "$(cut -d' ' -f6 /proc/$$/stat)"
              printf 'stdin:%s stdout:%s\\n' "$(readlink /proc/$$/fd/0)" "$out"
              printf '%s' "$sig"
              echo ---; } >> '\(log)'

            """)
        chmod(folder.file("record.sh"), 0o755)
        return (folder.file("record.sh"), { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" })
    }

    /// What a recorded run must say besides its arguments: a session of its own, /dev/null
    /// in and out, no signal blocked, none of the standard signals (1–31) ignored. (glibc's
    /// own 32 and 33 are not the caller's to reset: posix_spawn leaves them as the test
    /// runner has them.)
    static func ranDetached(_ entry: String) -> Bool {
        let lines = entry.split(separator: "\n").map(String.init)
        func mask(_ name: String) -> UInt64? {
            lines.first { $0.hasPrefix(name + ":\t") }.flatMap { UInt64($0.dropFirst(name.count + 2), radix: 16) }
        }
        guard let ids = lines.first(where: { $0.hasPrefix("pid:") }), let blocked = mask("SigBlk"), let ignored = mask("SigIgn") else { return false }
        let parts = ids.split(separator: " ")
        return parts.count == 2 && parts[0].dropFirst(4) == parts[1].dropFirst(4)
            && lines.contains("stdin:/dev/null stdout:/dev/null") && blocked == 0 && ignored & 0x7FFF_FFFF == 0
    }

    /// The `arg:` lines of each recorded run.
    static func runs(_ log: String) -> [[String]] {
        log.components(separatedBy: "---\n").dropLast().map { entry in
            entry.split(separator: "\n").filter { $0.hasPrefix("arg:") }.map { String($0.dropFirst(4)) }
        }
    }

    // MARK: - zaoan bar

    /// A status line's block of `instance`, as its full_text.
    static func fullText(_ line: String, instance: String) -> String? {
        guard line.hasSuffix("],"), line.hasPrefix("["),
              let blocks = (try? JSONSerialization.jsonObject(with: Data(line.dropLast().utf8))) as? [[String: Any]] else { return nil }
        return blocks.first { $0["instance"] as? String == instance }?["full_text"] as? String
    }

    @Test("zaoan bar: bar_clicks swaps the ticker's buttons, silences a clock's left button, runs a command with its argv exact, no shell")
    func barFollowsClicks() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (recorder, log) = try Self.recorder(in: folder)
        let trap = folder.file("PWNED")
        let argv = [recorder, "a b", "$HOME", "; touch \(trap)", "*", "", "`id`", "\\n"]
        let argvJSON = String(decoding: try JSONSerialization.data(withJSONObject: argv), as: UTF8.self)
        let service = try Self.service(clicks: #"""
            {"ticker": {"left": "previous", "right": "next", "middle": {"command": \#(argvJSON)}},
             "time": {"left": "none"},
             "*": {"wheel-up": {"command": ["\#(recorder)", "wheel-up"]}}}
            """#, extra: #", "bar_blocks": ["ticker", "time HH:mm"]"#)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        func ticker(skip: Int) -> Bool {
            bar.line(within: 10) { line in
                guard let text = Self.fullText(line, instance: "0-ticker"), let shown = Self.title(text) else { return false }
                return shown == Self.title(skip: skip, service)
            } != nil
        }
        func click(_ instance: String, _ button: Int) {
            bar.write(#",{"name":"zaoan","instance":"\#(instance)","button":\#(button)}"# + "\n")
        }
        #expect(ticker(skip: 0), "\(bar.lines.suffix(2)) \(bar.errorText)")
        bar.write("[\n")
        click("0-ticker", 3)  // right: next here (zaoan's default would go back, which from 0 does nothing)
        #expect(ticker(skip: 1), "right is next: \(bar.lines.suffix(2)) \(bar.errorText)")
        click("0-ticker", 5)  // wheel down: still zaoan's next
        #expect(ticker(skip: 2), "wheel down keeps its default: \(bar.lines.suffix(2))")
        click("0-ticker", 1)  // left: previous
        #expect(ticker(skip: 1), "left is previous: \(bar.lines.suffix(2))")

        // The clock: left does nothing now, wheel down still cycles. Had left acted, the
        // pattern would be two steps on (yyyy-MM-dd...), not HH:mm:ss.
        click("1-time", 1)
        click("1-time", 5)
        let seconds = bar.line(within: 10) { line in
            Self.fullText(line, instance: "1-time").map { $0.wholeMatch(of: /\d\d:\d\d:\d\d/) != nil } ?? false
        }
        #expect(seconds != nil, "HH:mm then one step: HH:mm:ss; \(bar.lines.suffix(2)) \(bar.errorText)")

        // The command, from the middle button, and * for wheel up on the clock (its default
        // would step the format back).
        click("0-ticker", 2)
        #expect(eventually(timeout: 10, interval: 0.1) { Self.runs(log()).count == 1 }, "log: \(log()); stderr: \(bar.errorText)")
        click("1-time", 4)
        #expect(eventually(timeout: 10, interval: 0.1) { Self.runs(log()).count == 2 }, "log: \(log()); stderr: \(bar.errorText)")
        let runs = Self.runs(log())
        #expect(runs.first == Array(argv.dropFirst()), "every argument as written, none split, expanded or globbed: \(runs)")
        #expect(runs.last == ["wheel-up"], "\(runs)")
        #expect(!FileManager.default.fileExists(atPath: trap), "no shell read the arguments")
        for entry in log().components(separatedBy: "---\n").dropLast() {
            #expect(Self.ranDetached(entry), "a session of its own, /dev/null in and out, no signal blocked or ignored: \(entry)")
        }
        #expect(bar.process.isRunning, "the bar goes on; it waited for nothing")
    }

    // MARK: - zaoan watch and zaoan click

    /// A ticker watch and the title it shows, read until it shows `skip`'s title.
    static func shows(_ watch: RunningZaoan, skip: Int, _ service: TestService, within timeout: Double = 10) -> Bool {
        watch.line(within: timeout) { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let text = object["text"] as? String, let shown = title(text) else { return false }
            return shown == title(skip: skip, service)
        } != nil
    }

    static func click(_ words: [String], _ service: TestService) throws -> ToolResult {
        try service.zaoan(["click"] + words)
    }

    /// The click FIFOs in the service's runtime folder.
    static func fifos(_ service: TestService) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: service.runtimeDirectory + "/zaoan-clicks")) ?? []).sorted()
    }

    @Test("zaoan click steps every zaoan watch of the block at once; a clock watch cycles bar_clock_formats; a command runs from the click")
    func clickStepsWatches() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (recorder, log) = try Self.recorder(in: folder)
        let service = try Self.service(clicks: #"{"status": {"right": {"command": ["\#(recorder)", "x y", "$PATH"]}}}"#,
                                       extra: #", "bar_clock_formats": ["HH:mm", "HH:mm:ss"]"#)
        defer { try? service.stop() }
        let watch = ["watch", "--socket", service.socketPath, "--format", "json", "ticker"]
        let first = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
        let second = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
        defer { _ = first.terminate(); _ = second.terminate() }
        let pids = [first, second].map { "ticker.\($0.process.processIdentifier)" }.sorted()
        #expect(Self.shows(first, skip: 0, service) && Self.shows(second, skip: 0, service), "\(first.errorText) \(second.errorText)")
        #expect(eventually(timeout: 10) { Self.fifos(service) == pids }, "one FIFO per watch: \(Self.fifos(service))")
        var info = stat()
        #expect(lstat(service.runtimeDirectory + "/zaoan-clicks", &info) == 0 && info.st_mode & 0o777 == 0o700)

        for (button, skip) in [("left", 1), ("wheel-down", 2), ("right", 1), ("wheel-up", 0), ("1", 1)] {
            let clicked = try Self.click(["ticker", button], service)
            #expect(clicked.status == 0 && clicked.errorOutput.isEmpty, "\(button): \(clicked)")
            #expect(Self.shows(first, skip: skip, service) && Self.shows(second, skip: skip, service),
                    "\(button): both show ticker \(skip); \(first.lines.suffix(1)) \(second.lines.suffix(1)) \(first.errorText)")
        }

        // A clock: `time` without a pattern counts as the first format; left is the next.
        // (Until the first click it is the service's own `time`, in the language's hour
        // cycle: en-US's 12-hour clock.)
        let clock = try RunningZaoan(["watch", "--socket", service.socketPath, "time"], environment: service.environment, scratch: service.directory)
        defer { _ = clock.terminate() }
        #expect(clock.line(within: 10) { $0.wholeMatch(of: /\d{1,2}:\d\d [AP]M/) != nil } != nil, "\(clock.lines) \(clock.errorText)")
        #expect(try Self.click(["time", "left"], service).status == 0)
        #expect(clock.line(within: 10) { $0.wholeMatch(of: /\d\d:\d\d:\d\d/) != nil } != nil, "HH:mm:ss next: \(clock.lines) \(clock.errorText)")

        // A command for a button runs from zaoan click itself, with no watch of the block at all.
        let ran = try Self.click(["status", "right"], service)
        #expect(ran.status == 0, "\(ran)")
        #expect(eventually(timeout: 10, interval: 0.1) { Self.runs(log()) == [["x y", "$PATH"]] }, "\(log())")
        #expect(log().components(separatedBy: "---\n").first.map(Self.ranDetached) == true, "\(log())")
        // `none` (the default for status middle) does nothing, and says nothing.
        let none = try Self.click(["status", "middle"], service)
        #expect(none.status == 0 && none.errorOutput.isEmpty, "\(none)")
    }

    @Test("open-link from zaoan click: the countdown's event link opened once however many watches show it, by bar_url_opener")
    func openLinkOnce() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (recorder, log) = try Self.recorder(in: folder)
        let calendar = try folder.makeDirectory("cal")
        try CalendarFeedTests.event(uid: "meet", title: "Meeting", start: Date().addingTimeInterval(600), length: 1800,
                                    url: "https://meet.example.org/r/42?x=1&y=2").write(toFile: calendar + "/meet.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendars": ["\#(calendar)"], "bar_url_opener": ["\#(recorder)", "--new-tab"]}"#)
        defer { try? service.stop() }
        let watch = ["watch", "--socket", service.socketPath, "--format", "json", "countdown"]
        let watches = try (0..<3).map { _ in try RunningZaoan(watch, environment: service.environment, scratch: service.directory) }
        defer { for each in watches { _ = each.terminate() } }
        for each in watches { #expect(each.line(within: 10) { $0.contains("Meeting") } != nil, "\(each.lines.suffix(1)) \(each.errorText)") }
        #expect(eventually(timeout: 10) { Self.fifos(service).count == 3 }, "\(Self.fifos(service))")
        let clicked = try Self.click(["countdown", "left"], service)
        #expect(clicked.status == 0, "\(clicked)")
        #expect(eventually(timeout: 10, interval: 0.1) { !Self.runs(log()).isEmpty }, "\(log()) \(watches.map(\.errorText))")
        // Long enough for a second or third opener to have run, were it started.
        _ = eventually(timeout: 2, interval: 0.1) { Self.runs(log()).count > 1 }
        #expect(Self.runs(log()) == [["--new-tab", "https://meet.example.org/r/42?x=1&y=2"]], "one tab: \(log())")
        #expect(log().components(separatedBy: "---\n").first.map(Self.ranDetached) == true, "\(log())")
    }

    @Test("check-config and the service read bar_clicks by the same rule as the bar: the problem at its place, the default for that button used")
    func serviceChecksClicks() throws {
        let service = try Self.service(clicks: #"{"ticker": {"left": "next"}}"#)
        defer { try? service.stop() }
        try service.directory.write("bad.json", """
            {
              "ticker_period": 5,
              "bar_clicks": {"ticker": {"left": {"command": ["notify-send"], "shel": 1}}}
            }
            """)
        let checked = try service.zaoan(["check-config", service.directory.file("bad.json")])
        #expect(checked.status == 1 && checked.errorOutput.contains("1 problem; zaoan serve would start all the same"), "\(checked)")
        let said = checked.output + checked.errorOutput
        #expect(said.contains("bad.json:3:66: config key 'bar_clicks.ticker.left.shel': unknown key; a command action is {\"command\": [\"notify-send\", \"hi\"]}"),
                "\(checked)")
        // The bar: the same problem, as a warning; the bad button alone is set aside and the bar runs.
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath, "--config", service.directory.file("bad.json")],
                                   environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 10) { $0.contains("full_text") } != nil, "stderr: \(bar.errorText)")
        #expect(eventually(timeout: 10) { bar.errorText.contains("warning: ") && bar.errorText.contains("bad.json:3:66: config key 'bar_clicks.ticker.left.shel'")
                    && bar.errorText.contains("(zaoan's default for that button stands)") }, "\(bar.errorText)")
        let good = try service.zaoan(["check-config", service.configPath])
        #expect(good.status == 0, "\(good)")
    }

    @Test("a watch killed outright leaves its FIFO; the next click removes it, and with none left says so (exit 1)")
    func staleFIFOs() throws {
        let service = try Self.service(clicks: "{}")
        defer { try? service.stop() }
        let watch = ["watch", "--socket", service.socketPath, "--format", "json", "ticker"]
        let living = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
        let killed = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
        defer { _ = living.terminate() }
        #expect(Self.shows(living, skip: 0, service) && Self.shows(killed, skip: 0, service))
        #expect(eventually(timeout: 10) { Self.fifos(service).count == 2 }, "\(Self.fifos(service))")
        killed.signal(SIGKILL)
        #expect(eventually(timeout: 10) { !killed.process.isRunning })
        #expect(Self.fifos(service).count == 2, "SIGKILL leaves the FIFO: \(Self.fifos(service))")
        let clicked = try Self.click(["ticker", "left"], service)
        #expect(clicked.status == 0, "the living watch is reached: \(clicked)")
        #expect(Self.fifos(service) == ["ticker.\(living.process.processIdentifier)"], "the stale FIFO is gone: \(Self.fifos(service))")
        #expect(Self.shows(living, skip: 1, service))

        // SIGTERM: the watch removes its own FIFO as it exits.
        #expect(living.terminate())
        #expect(Self.fifos(service).isEmpty, "\(Self.fifos(service))")
        let nobody = try Self.click(["ticker", "left"], service)
        #expect(nobody.status == 1 && nobody.errorOutput.contains("no zaoan watch of ticker is running for you"), "\(nobody)")
        let bad = try Self.click(["tickr", "left"], service)
        #expect(bad.status == 64 && bad.errorOutput.contains("did you mean 'ticker'?"), "\(bad)")
        let button = try Self.click(["ticker", "7"], service)
        #expect(button.status == 64 && button.errorOutput.contains("not a button"), "\(button)")
        try service.directory.write("config/zaoan/config.json", #"{"bar_clicks": {"ticker": {"left": "next-zone"}}}"#)
        // A bad button costs only itself: the click warns and does the default (next), which finds no watch.
        let config = try Self.click(["ticker", "left"], service)
        #expect(config.status == 1 && config.errorOutput.contains("warning: ") && config.errorOutput.contains("no zaoan watch of ticker is running for you")
                && config.errorOutput.contains("config key 'bar_clicks.ticker.left': 'next-zone' does nothing on a ticker block"), "\(config)")
    }

    @Test("only watches a built-in action can change take clicks; without a runtime folder none does, and nothing is made in /tmp",
          .enabled(if: !FileManager.default.fileExists(atPath: "/run/user/\(getuid())"), "this user has /run/user/UID, which zaoan would use"))
    func whichWatchesTakeClicks() throws {
        let service = try Self.service(clicks: "{}")
        defer { try? service.stop() }
        let greeting = try RunningZaoan(["watch", "--socket", service.socketPath, "greeting"], environment: service.environment, scratch: service.directory)
        let ticker = try RunningZaoan(["watch", "--socket", service.socketPath, "--format", "json", "ticker"], environment: service.environment, scratch: service.directory)
        defer { _ = greeting.terminate(); _ = ticker.terminate() }
        #expect(greeting.nextLine(timeout: 10) != nil && Self.shows(ticker, skip: 0, service))
        #expect(eventually(timeout: 10) { Self.fifos(service) == ["ticker.\(ticker.process.processIdentifier)"] }, "\(Self.fifos(service))")

        var bare = service.environment
        bare["XDG_RUNTIME_DIR"] = nil
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("zaoan-clicks") }
        let homeless = try RunningZaoan(["watch", "--socket", service.socketPath, "--format", "json", "ticker"], environment: bare, scratch: service.directory)
        defer { _ = homeless.terminate() }
        #expect(Self.shows(homeless, skip: 0, service), "\(homeless.errorText)")
        let clicked = try Tool.run(Locations.zaoan, ["click", "ticker", "left"], environment: bare, scratch: service.directory)
        #expect(clicked.status == 1 && clicked.errorOutput.contains("neither XDG_RUNTIME_DIR nor /run/user/UID is there"), "\(clicked)")
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("zaoan-clicks") }
        #expect(after == before && homeless.errorText.isEmpty, "nothing made in /tmp, nothing said: \(after) \(homeless.errorText)")
    }

    @Test("a click folder another account could reach, or a link, is refused by watch and click; only the user's FIFOs are written to")
    func hostileFolders() throws {
        let service = try Self.service(clicks: "{}")
        defer { try? service.stop() }
        let clicks = service.runtimeDirectory + "/zaoan-clicks"
        let other = try service.directory.makeDirectory("elsewhere")
        let watch = ["watch", "--socket", service.socketPath, "--format", "json", "ticker"]

        for (what, prepare) in [
            ("mode 0755", { _ = mkdir(clicks, 0o755); _ = chmod(clicks, 0o755) }),
            ("another account's", { _ = mkdir(clicks, 0o700); _ = chown(clicks, 65534, 65534) }),
            ("a symbolic link", { _ = symlink(other, clicks) }),
        ] as [(String, () -> Void)] {
            prepare()
            let refused = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
            #expect(Self.shows(refused, skip: 0, service), "\(what): the watch still watches: \(refused.errorText)")
            #expect(eventually(timeout: 10) { refused.errorText.contains("clicks will not reach this watch") }, "\(what): \(refused.errorText)")
            let clicked = try Self.click(["ticker", "left"], service)
            #expect(clicked.status == 1 && (clicked.errorOutput.contains("must be owned by you") || clicked.errorOutput.contains("symbolic link")),
                    "\(what): \(clicked)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: other)) ?? []).isEmpty, "\(what): nothing made through the link")
            #expect(refused.terminate())
            _ = unlink(clicks)
            _ = rmdir(clicks)
        }

        // In the user's own folder: a regular file and a link named as FIFOs are never written
        // to; hostile lines written into a watch's FIFO are ignored and said.
        let living = try RunningZaoan(watch, environment: service.environment, scratch: service.directory)
        defer { _ = living.terminate() }
        #expect(Self.shows(living, skip: 0, service))
        #expect(eventually(timeout: 10) { Self.fifos(service).count == 1 })
        try service.directory.write("planted", "")
        try "".write(toFile: clicks + "/ticker.1", atomically: false, encoding: .utf8)
        #expect(symlink(service.directory.file("planted"), clicks + "/ticker.2") == 0)
        let fifo = clicks + "/ticker.\(living.process.processIdentifier)"
        let handle = try #require(FileHandle(forWritingAtPath: fifo))
        handle.write(Data((String(repeating: "x", count: 200) + "\n").utf8))
        #expect(eventually(timeout: 10) { living.errorText.contains("ignoring a line longer than 64 bytes") }, "\(living.errorText)")
        handle.write(Data("\u{1B}[2J\nnext-zone\n".utf8))
        try handle.close()
        #expect(eventually(timeout: 10) { living.errorText.contains("ignoring '?[2J' from the click channel: not an action") },
                "\(living.errorText)")
        let clicked = try Self.click(["ticker", "left"], service)
        #expect(clicked.status == 0 && clicked.errorOutput.contains("ticker.1: not a FIFO of yours")
                && clicked.errorOutput.contains("ticker.2: not a FIFO of yours"), "\(clicked)")
        #expect(Self.shows(living, skip: 1, service), "one step, nothing else: \(living.lines.suffix(2)) \(living.errorText)")
        #expect((try? String(contentsOfFile: service.directory.file("planted"), encoding: .utf8)) == "", "nothing written through the link")
    }
}
