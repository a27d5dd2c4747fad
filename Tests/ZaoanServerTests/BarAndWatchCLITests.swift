import Foundation
import Glibc
import Testing
import ZaoanCommandLine
import ZaoanText
@testable import zaoan

private func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// A status line of the bar, `[...],` (an element of the endless array and its comma), as
/// blocks; nil if it is not that.
private func barBlocks(_ line: String) -> [[String: Any]]? {
    guard line.hasSuffix("],") else { return nil }
    let text = String(line.dropLast())
    guard text.hasPrefix("["), text != "[" else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
}

private func fullText(_ blocks: [[String: Any]]?, instance: String) -> String? {
    blocks?.first(where: { $0["instance"] as? String == instance })?["full_text"] as? String
}

private func isClock(_ text: String) -> Bool { text.wholeMatch(of: /\d\d:\d\d:\d\d/) != nil }

@Suite("zaoan ask, watch and bar against the real service")
struct BarAndWatchCLITests {
    // MARK: - ask

    @Test("ask --format json and --format=i3bar print one JSON object with the format's keys")
    func askFormats() throws {
        let service = try TestService.start(arguments: ["--language", "en"])
        let json = try service.zaoan(["ask", "--socket", service.socketPath, "--format", "json", "greeting"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(jsonObject(json.output.trimmingCharacters(in: .newlines)), "\(json)")
        #expect(object["text"] is String && object["class"] is String, "\(object)")

        let block = try service.zaoan(["ask", "--format=i3bar", "--socket=" + service.socketPath, "time", "HH:mm:ss"])
        #expect(block.status == 0, "\(block)")
        let fields = try #require(jsonObject(block.output.trimmingCharacters(in: .newlines)), "\(block)")
        #expect(fields["full_text"].flatMap { $0 as? String }.map(isClock) == true, "\(fields)")
        #expect(fields["name"] as? String == "zaoan", "\(fields)")

        let plain = try service.zaoan(["ask", "--socket", service.socketPath, "--format", "plain", "duration", "125"])
        #expect(plain.status == 0 && plain.output == "02:05\n", "\(plain)")

        let unknown = try service.zaoan(["ask", "--socket", service.socketPath, "--format", "xml", "greeting"])
        #expect(unknown.status == 64 && unknown.errorOutput.contains("--format"), "\(unknown)")
        let missing = try service.zaoan(["ask", "--socket", service.socketPath, "--format"])
        #expect(missing.status == 64, "\(missing)")
        try service.stop()
    }

    @Test("ask prints an ERR answer on stderr and exits 1")
    func askError() throws {
        let service = try TestService.start()
        let bogus = try service.zaoan(["ask", "--socket", service.socketPath, "bogus"])
        #expect(bogus.status == 1, "\(bogus)")
        #expect(bogus.errorOutput.hasPrefix("ERR unknown-command "), "\(bogus)")
        #expect(bogus.output.isEmpty, "\(bogus)")
        let badFormat = try service.zaoan(["ask", "--socket", service.socketPath, "--format", "json", "session"])
        #expect(badFormat.status == 1 && badFormat.errorOutput.hasPrefix("ERR bad-argument "), "\(badFormat)")
        try service.stop()
    }

    @Test("ask with no service exits 2, naming the socket and how to start the service")
    func askUnreachable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let missing = directory.file("nobody")
        let result = try Tool.run(Locations.zaoan, ["ask", "--socket", missing, "--format", "json", "greeting"],
                                  environment: environment, timeout: 10, scratch: directory)
        #expect(!result.timedOut && result.status == 2, "\(result)")
        #expect(result.errorOutput.contains(missing) && result.errorOutput.contains("zaoan serve"), "\(result)")
        #expect(result.output.isEmpty, "\(result)")
    }

    // MARK: - watch

    @Test("watch time HH:mm:ss prints a new line every second, and SIGTERM ends it quietly")
    func watchTime() throws {
        let service = try TestService.start()
        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "time", "HH:mm:ss"],
                                     environment: service.environment, scratch: service.directory)
        let started = Date()
        var seen: [String] = []
        while Date().timeIntervalSince(started) < 2.5, let line = watch.nextLine(timeout: 2.5 - Date().timeIntervalSince(started)) {
            seen.append(line)
        }
        #expect(Set(seen).count >= 2, "expected at least 2 distinct lines in 2.5 s, got \(seen); stderr: \(watch.errorText)")
        #expect(seen.allSatisfy(isClock), "\(seen)")
        #expect(watch.terminate(), "zaoan watch should exit on SIGTERM")
        #expect(watch.process.terminationStatus == 0 && watch.errorText.isEmpty, "status \(watch.process.terminationStatus), stderr \(watch.errorText)")
        try service.stop()
    }

    @Test("watch --format=json prints waybar objects")
    func watchJSON() throws {
        let service = try TestService.start(arguments: ["--language", "en"])
        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "--format=json", "greeting"],
                                     environment: service.environment, scratch: service.directory)
        let line = try #require(watch.nextLine(timeout: 5), "no line; stderr: \(watch.errorText)")
        let object = try #require(jsonObject(line), "\(line)")
        #expect(object["text"] is String && object["class"] is String, "\(object)")
        #expect(watch.terminate())
        try service.stop()
    }

    @Test("watch of a request the service refuses exits 1 with the error on stderr")
    func watchBadRequest() throws {
        let service = try TestService.start()
        let bogus = try service.zaoan(["watch", "--socket", service.socketPath, "bogus"], timeout: 5)
        #expect(!bogus.timedOut && bogus.status == 1, "\(bogus)")
        #expect(bogus.errorOutput.contains("ERR unknown-command"), "\(bogus)")
        let notWatchable = try service.zaoan(["watch", "--socket", service.socketPath, "quit"], timeout: 5)
        #expect(!notWatchable.timedOut && notWatchable.status == 1 && notWatchable.errorOutput.contains("ERR "), "\(notWatchable)")
        let usage = try service.zaoan(["watch", "--socket", service.socketPath], timeout: 5)
        #expect(usage.status == 64, "\(usage)")
        try service.stop()
    }

    @Test("watch survives a service restart: one line says the service is down, then the stream resumes")
    func watchSurvivesRestart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("s")
        var configuration = TestService.Configuration()
        configuration.socket = .path(path)
        let first = try TestService.start(configuration)
        let watch = try RunningZaoan(["watch", "--socket", path, "--retry-after", "200ms", "time", "HH:mm:ss"],
                                     environment: first.environment, scratch: directory)
        #expect(watch.line(within: 5, where: isClock) != nil, "no clock line; stderr: \(watch.errorText)")

        try first.stop()
        let down = watch.line(within: 5) { !isClock($0) }
        #expect(down == "zaoan: service not running", "got \(down.debugDescription); stderr: \(watch.errorText)")
        // Once per outage: nothing more while the service stays away (it retries every 200 ms,
        // so a second of silence spans more attempts than 3 s did at the default 2 s).
        let extra = watch.nextLine(timeout: 1)
        #expect(extra == nil, "expected silence while the service is down, got \(extra.debugDescription)")
        #expect(watch.process.isRunning, "zaoan watch must keep running while the service is down")
        #expect(watch.errorText.contains(path), "stderr should name the socket: \(watch.errorText)")

        let second = try TestService.start(configuration)
        let resumed = watch.line(within: 5, where: isClock)
        #expect(resumed != nil, "the stream should resume after the restart; got \(watch.lines); stderr: \(watch.errorText)")
        #expect(watch.nextLine(timeout: 2.5).map(isClock) == true, "the stream should keep ticking")
        #expect(watch.terminate())
        try second.stop()
    }

    @Test("watch --format json with no service prints one waybar error object naming the socket, and keeps trying")
    func watchJSONServiceDown() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let path = directory.file("s")
        let watch = try RunningZaoan(["watch", "--socket", path, "--retry-after=200ms", "--format", "json", "countdown"],
                                     environment: environment, scratch: directory)
        let line = try #require(watch.nextLine(timeout: 5), "no line; stderr: \(watch.errorText)")
        let object = try #require(jsonObject(line), "\(line)")
        #expect(object["class"] as? String == "error" && object["alt"] as? String == "error", "\(object)")
        #expect((object["text"] as? String)?.contains("zaoan") == true, "\(object)")
        let tooltip = object["tooltip"] as? String ?? ""
        #expect(tooltip.contains(path) && tooltip.contains("zaoan serve"), "\(object)")
        #expect(watch.nextLine(timeout: 1) == nil, "one line per outage (five attempts at --retry-after=200ms)")
        #expect(watch.process.isRunning)

        var configuration = TestService.Configuration()
        configuration.socket = .path(path)
        let service = try TestService.start(configuration)
        let back = watch.line(within: 5) { jsonObject($0)?["class"] as? String != "error" }
        #expect(back.flatMap(jsonObject)?["text"] is String, "got \(watch.lines)")
        #expect(watch.terminate())
        try service.stop()
    }

    @Test("watch exits quietly when its reader goes away")
    func watchReaderGone() throws {
        let service = try TestService.start()
        let result = try service.run("/bin/sh", ["-c", "'\(Locations.zaoan)' watch --socket '\(service.socketPath)' time HH:mm:ss | head -n 2"],
                                     timeout: 10)
        #expect(!result.timedOut && result.status == 0, "\(result)")
        #expect(result.output.split(separator: "\n").count == 2, "\(result)")
        #expect(!result.errorOutput.contains("zaoan"), "\(result)")
        try service.stop()
    }

    // MARK: - bar

    @Test("bar speaks the i3bar protocol: header, [, then a growing array of blocks; a click cycles the clock")
    func barProtocolAndClockClick() throws {
        let service = try TestService.start(
            arguments: ["--language", "en"],
            config: #"{"bar_blocks": ["time HH:mm:ss", "greeting"], "bar_clock_formats": ["HH:mm:ss", "yyyy-MM-dd"]}"#)
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)

        let headerLine = try #require(bar.nextLine(timeout: 5), "no header; stderr: \(bar.errorText)")
        let header = try #require(jsonObject(headerLine), "\(headerLine)")
        #expect(header["version"] as? Int == 1, "\(header)")
        #expect(header["click_events"] as? Bool == true, "\(header)")
        #expect(header["stop_signal"] as? Int == Int(SIGURG) && header["cont_signal"] as? Int == Int(SIGCONT), "\(header)")
        #expect(bar.nextLine(timeout: 5) == "[")

        let started = Date()
        var arrays: [[[String: Any]]] = []
        while Date().timeIntervalSince(started) < 2.5, let line = bar.nextLine(timeout: 2.5 - Date().timeIntervalSince(started)) {
            let blocks = try #require(barBlocks(line), "not an array of blocks: \(line)")
            #expect(line.hasPrefix("[") && line.hasSuffix("],"), "every array is followed by the endless array's comma: \(line)")
            #expect(blocks.allSatisfy { $0["full_text"] is String && $0["name"] as? String == "zaoan" }, "\(line)")
            arrays.append(blocks)
        }
        #expect(arrays.count > 1, "expected more than one status line in 2.5 s, got \(bar.lines)")
        let last = try #require(arrays.last)
        #expect(fullText(last, instance: "0-time").map(isClock) == true, "\(last)")
        #expect(fullText(last, instance: "1-greeting")?.hasPrefix("Good") == true, "\(last)")

        bar.write("[\n" + #"{"name":"zaoan","instance":"0-time","button":1,"x":10,"y":5}"# + "\n")
        let date = bar.line(within: 3) { fullText(barBlocks($0), instance: "0-time")?.wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil }
        #expect(date != nil, "a click on the clock should switch it to yyyy-MM-dd; got \(bar.lines.suffix(3))")
        bar.write("," + #"{"name":"zaoan","instance":"0-time","button":1}"# + "\n")
        let clock = bar.line(within: 3) { fullText(barBlocks($0), instance: "0-time").map(isClock) == true }
        #expect(clock != nil, "a second click cycles back to HH:mm:ss; got \(bar.lines.suffix(3))")

        #expect(bar.terminate())
        try service.stop()
    }

    /// Issue 33's user saw the same room in the ticker and the countdown of the default bar.
    @Test("the default bar never shows one room twice: the ticker rotates through the rooms the countdown does not show")
    func defaultBarShowsEachRoomOnce() throws {
        let service = try TestService.start(arguments: ["--language", "en"], config: #"{"ticker_period": 1}"#)
        defer { try? service.stop() }
        let base = Int(Date().timeIntervalSince1970)
        for (id, minutes) in [("alpha", 60), ("beta", 90), ("gamma", 120)] {
            #expect(try service.ask("live add \(id) @\(base + minutes * 60) \(id.capitalized)") == "ok\n")
        }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        // Over four ticker periods (more than a whole round of three rooms) both other rooms
        // come round, and the countdown's never does.
        var seen: Set<String> = []
        var periods: [Int] = []
        let started = Date()
        while Date().timeIntervalSince(started) < 20, seen.count < 2 || Set(periods).count < 4 {
            guard let line = bar.nextLine(timeout: 5), let blocks = barBlocks(line) else { continue }
            periods.append(Int(Date().timeIntervalSince1970))
            let countdown = fullText(blocks, instance: "1-countdown") ?? ""
            let ticker = fullText(blocks, instance: "0-ticker") ?? ""
            #expect(countdown.hasPrefix("Alpha · starts in"), "\(line)")
            #expect(!ticker.contains("Alpha"), "the ticker shows the countdown's room too: \(line)")
            if let title = ["Beta", "Gamma"].first(where: { ticker.hasPrefix($0) }) { seen.insert(title) }
        }
        #expect(seen == ["Beta", "Gamma"], "the ticker should rotate through the other rooms; saw \(seen); last: \(bar.lines.suffix(2))")
        // With one room left, the ticker has nothing of its own to show: it is empty, the countdown shows the room.
        for id in ["beta", "gamma"] { #expect(try service.ask("live rm \(id)") == "ok\n") }
        let alone = bar.line(within: 10) { line in
            guard let blocks = barBlocks(line) else { return false }
            return (fullText(blocks, instance: "0-ticker") ?? "").isEmpty && fullText(blocks, instance: "1-countdown")?.hasPrefix("Alpha") == true
        }
        #expect(alone != nil, "\(bar.lines.suffix(2)); stderr: \(bar.errorText)")
        // The ticker's link is the room it shows, never the countdown's.
        #expect(try service.ask("url ticker others") == "\n")
        #expect(try service.ask("ticker others") == "\n" && (try service.ask("ticker")).hasPrefix("Alpha"))
    }

    @Test("bar: a click on the ticker advances it to the next room")
    func barTickerClick() throws {
        let service = try TestService.start(arguments: ["--language", "en"],
                                            config: #"{"ticker_period": 3600, "bar_blocks": ["ticker"]}"#)
        let base = Int(Date().timeIntervalSince1970)
        #expect(try service.ask("live add alpha @\(base + 3600) Alpha Room") == "ok\n")
        #expect(try service.ask("live add bravo @\(base + 7200) Bravo Room") == "ok\n")
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        let firstLine = try #require(bar.line(within: 5) { barBlocks($0) != nil }, "no status line; stderr: \(bar.errorText)")
        let before = try #require(fullText(barBlocks(firstLine), instance: "0-ticker"), "\(firstLine)")
        #expect(before.contains("Alpha Room") || before.contains("Bravo Room"), "\(before)")

        bar.write("[\n" + #"{"name":"zaoan","instance":"0-ticker","button":1}"# + "\n")
        let other = before.contains("Alpha Room") ? "Bravo Room" : "Alpha Room"
        let after = bar.line(within: 3) { fullText(barBlocks($0), instance: "0-ticker")?.contains(other) == true }
        #expect(after != nil, "the ticker should show \(other) after a click; got \(bar.lines)")
        #expect(bar.terminate())
        try service.stop()
    }

    @Test("bar with the service down says so once (not in every block), keeps running, and recovers")
    func barServiceDown() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let path = directory.file("s")
        let bar = try RunningZaoan(["bar", "--socket", path, "--retry-after", "200ms"], environment: environment, scratch: directory)
        #expect(bar.nextLine(timeout: 5).flatMap(jsonObject)?["version"] as? Int == 1)
        #expect(bar.nextLine(timeout: 5) == "[")
        let line = try #require(bar.nextLine(timeout: 5), "no status line; stderr: \(bar.errorText)")
        let blocks = try #require(barBlocks(line), "\(line)")
        #expect(blocks.count == 1, "one block says the service is down; the other three are left out: \(line)")
        #expect(blocks.allSatisfy { ($0["full_text"] as? String)?.contains("service down") == true && $0["urgent"] as? Bool == false }, "\(line)")
        usleep(1_000_000)  // at --retry-after 200ms, more attempts than 3 s at the default 2 s
        #expect(bar.process.isRunning, "zaoan bar must keep running while the service is down; stderr: \(bar.errorText)")

        var configuration = TestService.Configuration()
        configuration.socket = .path(path)
        let service = try TestService.start(configuration)
        let recovered = bar.line(within: 5) { line in
            guard let blocks = barBlocks(line) else { return false }
            return blocks.count == 4 && !blocks.contains { ($0["full_text"] as? String)?.contains("service down") == true }
        }
        #expect(recovered != nil, "the bar should reconnect; got \(bar.lines.suffix(3))")

        try service.stop()
        let downAgain = bar.line(within: 5) { line in
            guard let blocks = barBlocks(line) else { return false }
            return blocks.count == 1 && (blocks[0]["full_text"] as? String)?.contains("service down") == true
        }
        #expect(downAgain != nil, "a stopped service shows in the bar, once; got \(bar.lines.suffix(3))")
        #expect(bar.process.isRunning)
        #expect(bar.terminate())
    }

    @Test("bar: SIGURG pauses the output and closes the watch, SIGCONT resumes it with the current line")
    func barStopAndContinue() throws {
        let service = try TestService.start(config: #"{"bar_blocks": ["time HH:mm:ss"]}"#)
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        #expect(bar.line(within: 5) { barBlocks($0) != nil } != nil, "stderr: \(bar.errorText)")
        bar.signal(SIGURG)
        // Hidden, nothing wakes for the bar: its watch is closed (the service has none) and
        // the bar itself sleeps.
        #expect(eventually(timeout: 10) { (try? service.ask("stats"))?.contains("\nwatches: 0\n") == true },
                "the paused bar's watch is closed")
        while bar.nextLine(timeout: 0.05) != nil {}  // a line already on its way
        #expect(bar.nextLine(timeout: 2.2) == nil, "no output while paused")
        #expect(bar.process.isRunning)
        let before = WakeupTests.voluntarySwitches(bar.process.processIdentifier)
        #expect(bar.nextLine(timeout: 3) == nil)
        let wakeups = WakeupTests.voluntarySwitches(bar.process.processIdentifier) - before
        #expect(wakeups <= 1, "a paused bar woke \(wakeups) times in 3 s")
        bar.signal(SIGCONT)
        let resumed = bar.nextLine(timeout: 2)
        #expect(resumed.flatMap { fullText(barBlocks($0), instance: "0-time") }.map(isClock) == true,
                "SIGCONT writes the current line at once; got \(resumed.debugDescription)")
        #expect(bar.terminate())
        try service.stop()
    }

    @Test("bar refuses a config it cannot read with exit status 78, naming the file")
    func barBadConfig() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        try directory.write("bad.json", #"{"bar_blocks": ["time"] "bar_clock_formats": []}"#)
        let result = try Tool.run(Locations.zaoan, ["bar", "--config", directory.file("bad.json"), "--socket", directory.file("s")],
                                  environment: environment, timeout: 5, scratch: directory)
        #expect(!result.timedOut && result.status == 78 && result.errorOutput.contains("bad.json:1:"), "\(result)")
        let missing = try Tool.run(Locations.zaoan, ["bar", "--config", directory.file("none.json")],
                                   environment: environment, timeout: 5, scratch: directory)
        #expect(!missing.timedOut && missing.status == 78, "\(missing)")
    }

    /// The bar reads its keys without Foundation, by the rule the service checks them with
    /// (`BarConfig`): both name the same key. A bad value costs only itself: the bar runs
    /// with the rest and warns on stderr (i3 and sway log it), where check-config refuses
    /// the file; only a file that is not one JSON object (a key twice) stops the bar.
    @Test("bar and check-config name the same bad bar keys; the bar runs with the rest",
          arguments: [
            (#"{"bar_blocks": ["time"], "bar_blocks": ["greeting"]}"#, "bar_blocks", "appears twice", true),
            (#"{"bar_blocks": "time"}"#, "bar_blocks", "expected an array of strings", false),
            (#"{"bar_clock_formats": []}"#, "bar_clock_formats", "at least one entry", false),
            (#"{"bar_clock_formats": ["HH:mm", " "]}"#, "bar_clock_formats", "an entry is empty", false),
            (#"{"bar_clock_zones": ["Asia/Tokyo"]}"#, "bar_clock_zones", "control character", false),
            (#"{"bar_blocks": ["live add x +1h y"]}"#, "bar_blocks", "cannot be shown in a bar", false),
            (#"{"bar_blocks": ["frobnicate"]}"#, "bar_blocks", "'frobnicate'", false),
            (#"{"i3bar_markup": "html"}"#, "i3bar_markup", "is not \"none\" or \"pango\"", false),
          ])
    func barConfigRule(json: String, key: String, problem: String, stopsTheBar: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        try directory.write("c.json", json)
        if stopsTheBar {
            let bar = try Tool.run(Locations.zaoan, ["bar", "--config", directory.file("c.json"), "--socket", directory.file("s")],
                                   environment: environment, timeout: 5, scratch: directory)
            #expect(!bar.timedOut && bar.status == 78, "\(bar)")
            #expect(bar.errorOutput.contains("config key '\(key)'") && bar.errorOutput.contains(problem), "\(bar)")
        } else {
            let bar = try RunningZaoan(["bar", "--config", directory.file("c.json"), "--socket", directory.file("s"), "--retry-after", "200ms"],
                                       environment: environment, scratch: directory)
            // It draws (the service is down here: each block says so) and warns.
            #expect(bar.line(within: 10) { $0.contains("full_text") } != nil, "the bar draws; stderr: \(bar.errorText)")
            #expect(eventually(timeout: 10) { bar.errorText.contains("warning: ") && bar.errorText.contains("config key '\(key)") && bar.errorText.contains(problem) },
                    "stderr: \(bar.errorText)")
            #expect(bar.process.isRunning)
            #expect(bar.terminate())
        }
        let check = try Tool.run(Locations.zaoan, ["check-config", directory.file("c.json")], environment: environment,
                                 timeout: 10, scratch: directory)
        #expect(check.status == 1 && check.errorOutput.contains("config key '\(key)") && check.errorOutput.contains(problem), "\(check)")
    }

    @Test("a bad block costs only itself: the bar shows the others, and its line says which was left out")
    func barBadBlockCostsItself() throws {
        let service = try TestService.start(config: #"{"bar_blocks": ["time HH:mm:ss", "tiker", "greeting"]}"#)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        let line = bar.line(within: 10) { barBlocks($0) != nil }
        let blocks = try #require(line.flatMap { barBlocks($0) }, "stderr: \(bar.errorText)")
        #expect(blocks.map { $0["instance"] as? String } == ["0-time", "1-greeting"], "\(blocks)")
        #expect(blocks.first.flatMap { $0["full_text"] as? String }.map(isClock) == true, "\(blocks)")
        #expect(eventually(timeout: 10) { bar.errorText.contains(":1:34: config key 'bar_blocks': 'tiker': ") && bar.errorText.contains("(left out; the other entries stand)") },
                "stderr: \(bar.errorText)")
    }

    /// Only the service has the tz database: the bar starts with a zone it cannot check,
    /// and the service refuses it (check-config names it; the block shows the error).
    @Test("an unknown zone in bar_clock_zones is the service's to refuse")
    func barUnknownZone() throws {
        let service = try TestService.start(config: #"{"bar_blocks": ["time HH:mm:ss"]}"#)
        try service.directory.write("zones.json", #"{"bar_blocks": ["time HH:mm:ss"], "bar_clock_zones": ["Mars/Olympus"]}"#)
        let check = try service.zaoan(["check-config", service.directory.file("zones.json")])
        #expect(check.status == 1 && check.errorOutput.contains("'Mars/Olympus' is neither an IANA time zone"), "\(check)")
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath, "--config", service.directory.file("zones.json")],
                                   environment: service.environment, scratch: service.directory)
        #expect(bar.line(within: 5) { barBlocks($0) != nil } != nil, "stderr: \(bar.errorText)")
        bar.write("[\n" + #"{"name":"zaoan","instance":"0-time","button":2}"# + "\n")
        let shown = bar.line(within: 5) { fullText(barBlocks($0), instance: "0-time")?.contains("Mars/Olympus") == true }
        #expect(shown != nil, "the block shows the service's error; lines: \(bar.lines.suffix(3)), stderr: \(bar.errorText)")
        #expect(bar.terminate())
        try service.stop()
    }
}

@Suite("Parsing ask, watch and bar arguments")
struct BarAndWatchOptionTests {
    @Test("ask and watch take --socket and --format in either order, with = or a separate value")
    func clientOptions() throws {
        #expect(try Options.parse(["ask", "--format", "json", "--socket", "/s", "greeting"])
                == .ask(ClientOptions(socket: "/s", format: .json, words: ["greeting"])))
        #expect(try Options.parse(["watch", "--socket=/s", "--format=I3BAR", "time", "HH:mm:ss"])
                == .watch(ClientOptions(socket: "/s", format: .i3bar, words: ["time", "HH:mm:ss"])))
        #expect(try Options.parse(["ask", "--", "--format=json", "greeting"])
                == .ask(ClientOptions(socket: nil, format: nil, words: ["--format=json", "greeting"])))
        #expect(try Options.parse(["bar", "--config", "/c.json", "--socket=/s"]) == .bar(BarOptions(socket: "/s", config: "/c.json")))
        for bad in [["ask"], ["watch", "--format", "xml", "greeting"], ["ask", "--format"], ["watch", "--frobnicate", "x"], ["bar", "extra"]] {
            #expect(throws: UsageError.self, "\(bad)") { try Options.parse(bad) }
        }
    }

    @Test("join and click read their options before the words (= or a separate value, -- ends them); any other option is named")
    func leadingOptions() throws {
        let read = try Arguments.leadingOptions(["--socket", "/s", "--config=/c", "countdown", "-x"], of: "join", valued: ["--socket", "--config"])
        #expect(read.values == ["--socket": "/s", "--config": "/c"] && read.words == ["countdown", "-x"])
        #expect(try Arguments.leadingOptions(["--", "--socket", "x"], of: "join", valued: ["--socket"]).words == ["--socket", "x"])
        #expect(throws: UsageError("unknown option '--socket' for click; run zaoan --help")) {
            try Arguments.leadingOptions(["--socket", "/s", "ticker", "left"], of: "click", valued: ["--config"])
        }
        #expect(throws: UsageError.self) { try Arguments.leadingOptions(["--config"], of: "click", valued: ["--config"]) }
    }

    @Test("watch and bar take --retry-after DURATION (50ms to 1h, default 2s); ask does not")
    func retryAfterOption() throws {
        #expect(try Options.parse(["watch", "--retry-after", "200ms", "ping"])
                == .watch(ClientOptions(socket: nil, format: nil, words: ["ping"], retryAfter: 0.2)))
        #expect(try Options.parse(["watch", "ping"]) == .watch(ClientOptions(socket: nil, format: nil, words: ["ping"], retryAfter: 2)))
        #expect(try Options.parse(["bar", "--retry-after=10"]) == .bar(BarOptions(socket: nil, config: nil, retryAfter: 10)))
        #expect(try Options.parse(["bar"]) == .bar(BarOptions(socket: nil, config: nil, retryAfter: 2)))
        for bad in [["watch", "--retry-after", "10ms", "ping"], ["watch", "--retry-after=2h", "ping"], ["watch", "--retry-after", "soon", "ping"],
                    ["bar", "--retry-after", "0"], ["ask", "--retry-after", "1s", "ping"]] {
            #expect(throws: UsageError.self, "\(bad)") { try Options.parse(bad) }
        }
        // Half a second first, doubling, up to the limit; a limit below half a second from the start.
        var standard = Backoff()
        #expect((0..<5).map { _ in standard.delay() } == [0.5, 1, 2, 2, 2])
        var quick = Backoff(limit: 0.2)
        #expect((0..<3).map { _ in quick.delay() } == [0.2, 0.2, 0.2])
        standard.reset()
        #expect(standard.delay() == 0.5)
    }

    @Test("watch says how often it retries, as --retry-after sets it")
    func retryAfterSaid() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        for (arguments, said) in [([String](), "Retrying every 2 s."), (["--retry-after", "300ms"], "Retrying every 300 ms.")] {
            let watch = try RunningZaoan(["watch", "--socket", directory.file("none")] + arguments + ["ping"],
                                         environment: environment, scratch: directory)
            #expect(watch.nextLine(timeout: 5) == "zaoan: service not running", "stderr: \(watch.errorText)")
            #expect(eventually(timeout: 10, interval: 0.05) { watch.errorText.contains(said) }, "stderr: \(watch.errorText)")
            #expect(watch.terminate())
        }
    }

    @Test("the request line carries the format in front, and quotes words holding blanks")
    func requestLine() {
        #expect(ClientOptions(format: .json, words: ["greeting"]).requestLine == "--format=json greeting")
        #expect(ClientOptions(format: .plain, words: ["greeting"]).requestLine == "greeting")
        #expect(ClientOptions(format: nil, words: ["greeting", "New York"]).requestLine == #"greeting "New York""#)
        #expect(ClientOptions(format: .i3bar, words: ["time HH:mm"]).requestLine == "--format=i3bar time HH:mm")
    }

    /// py3status's clock cycles zones on a click; zaoan's bar does on the middle button,
    /// through `bar_clock_zones`, labelling the block with the zone it shows.
    @Test("a middle click moves a bar clock through bar_clock_zones and back to the configured zone")
    func barClockZonesCycle() throws {
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"bar_blocks": ["time %H %z"], "bar_clock_zones": ["Asia/Kathmandu", "东京"]}"#)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        func shows(_ suffix: String, _ prefix: String) -> String? {
            bar.line(within: 5) { line in
                guard let text = fullText(barBlocks(line), instance: "0-time") else { return false }
                return text.hasPrefix(prefix) && text.hasSuffix(suffix)
            }
        }
        #expect(shows("+0000", "") != nil, "the configured zone first; got \(bar.lines.suffix(3))")
        bar.write("[\n" + #"{"name":"zaoan","instance":"0-time","button":2}"# + "\n")
        #expect(shows("+0545", "Kathmandu ") != nil, "got \(bar.lines.suffix(3))")
        bar.write("," + #"{"name":"zaoan","instance":"0-time","button":2}"# + "\n")
        #expect(shows("+0900", "Tokyo ") != nil, "东京 is the built-in Tokyo: its English name (issue 33); got \(bar.lines.suffix(3))")
        bar.write("," + #"{"name":"zaoan","instance":"0-time","button":2}"# + "\n")
        let back = bar.line(within: 5) { fullText(barBlocks($0), instance: "0-time")?.wholeMatch(of: /\d\d \+0000/) != nil }
        #expect(back != nil, "after the last zone, back to the configured one; got \(bar.lines.suffix(3))")
    }

    @Test("a zone's label is its city's name in the configured language: 柏林 in Chinese, 纽约 however typed")
    func barClockZoneLabelsInChinese() throws {
        let service = try TestService.start(
            arguments: ["--language", "zh", "--timezone", "UTC"],
            config: #"{"bar_blocks": ["time %H %z"], "bar_clock_zones": ["Europe/Berlin", "America/Port_of_Spain", "New York"]}"#)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        func shows(_ prefix: String) -> String? {
            bar.line(within: 5) { fullText(barBlocks($0), instance: "0-time")?.hasPrefix(prefix) == true }
        }
        #expect(shows("") != nil, "got \(bar.lines.suffix(3))")
        let click = #"{"name":"zaoan","instance":"0-time","button":2}"# + "\n"
        bar.write("[\n" + click)
        #expect(shows("柏林 ") != nil, "Europe/Berlin is a built-in city: 柏林 in Chinese; got \(bar.lines.suffix(3))")
        bar.write("," + click)
        #expect(shows("Port of Spain ") != nil, "no built-in name: the zone's last part; got \(bar.lines.suffix(3))")
        bar.write("," + click)
        #expect(shows("纽约 ") != nil, "a built-in city in the configured language, however typed (issue 33); got \(bar.lines.suffix(3))")
    }

    @Test("bar blocks: kinds, clock cycling, ticker steps, and clicks read from the i3bar stream")
    func barBlockKinds() {
        let formats = ["HH:mm", "HH:mm:ss", "yyyy-MM-dd"]
        let clock = BarBlock(index: 3, entry: "time HH:mm:ss", clockFormats: formats)
        #expect(clock.instance == "3-time" && clock.requestLine == "time HH:mm:ss")
        #expect(clock.click(button: 1, clockFormats: formats) && clock.requestLine == "time yyyy-MM-dd")
        #expect(clock.click(button: 1, clockFormats: formats) && clock.requestLine == "time HH:mm")
        #expect(clock.click(button: 3, clockFormats: formats) && clock.requestLine == "time yyyy-MM-dd")
        #expect(!clock.click(button: 2, clockFormats: formats))
        #expect(clock.click(button: 2, clockFormats: formats, zones: ["Asia/Tokyo", "纽约"]) && clock.requestLine == "time yyyy-MM-dd @Asia/Tokyo")
        #expect(clock.click(button: 1, clockFormats: formats) && clock.requestLine == "time HH:mm @Asia/Tokyo")
        #expect(clock.click(button: 2, clockFormats: formats, zones: ["Asia/Tokyo", "纽约"]) && clock.requestLine == "time HH:mm @纽约")
        #expect(clock.click(button: 2, clockFormats: formats, zones: ["Asia/Tokyo", "纽约"]) && clock.requestLine == "time HH:mm")
        let zoned = BarBlock(index: 2, entry: "time HH:mm @America/New_York", clockFormats: formats)
        #expect(zoned.requestLine == "time HH:mm @America/New_York")
        let spaced = BarBlock(index: 0, entry: "time", clockFormats: ["yyyy-MM-dd EEEE HH:mm"])
        #expect(spaced.requestLine == #"time "yyyy-MM-dd EEEE HH:mm""#)

        let ticker = BarBlock(index: 0, entry: "ticker", clockFormats: formats)
        #expect(!ticker.click(button: 3, clockFormats: formats) && ticker.requestLine == "ticker")
        #expect(ticker.click(button: 1, clockFormats: formats) && ticker.requestLine == "ticker 1")
        let formatted = BarBlock(index: 1, entry: "--format=json greeting Tokyo", clockFormats: formats)
        #expect(formatted.instance == "1-greeting" && formatted.requestLine == "greeting Tokyo")

        #expect(BarProtocol.click(fromLine: "[") == nil)
        #expect(BarProtocol.click(fromLine: #",{"name":"zaoan","instance":"0-ticker","button":1}"#)
                == BarProtocol.Click(name: "zaoan", instance: "0-ticker", button: 1))
        #expect(BarProtocol.click(fromLine: #"[{"instance":"2-time","button":3},"#)?.button == 3)
        #expect(BarProtocol.statusLine(["{}", "{}"]) == "[{},{}],")
    }
}

extension BarAndWatchCLITests {
    /// `zaoan bar` with three blocks, two of them ticking every second: one wake-up a second
    /// for the whole bar (the blocks come in one line on one connection), not one per block.
    @Test("a bar with several per-second blocks wakes once a second")
    func barWakesOnceASecond() throws {
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"bar_blocks": ["time HH:mm:ss", "time %S @Asia/Tokyo", "greeting"]}"#)
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 5) { $0.contains("Good") && $0.contains("0-time") } != nil, "\(bar.lines.suffix(3))")
        Thread.sleep(forTimeInterval: 1.5)
        let before = WakeupTests.voluntarySwitches(bar.process.processIdentifier), start = Date()
        Thread.sleep(forTimeInterval: 8)
        let count = WakeupTests.voluntarySwitches(bar.process.processIdentifier) - before, elapsed = Date().timeIntervalSince(start)
        print("zaoan bar, 3 blocks: \(count) wake-ups in \(String(format: "%.1f", elapsed)) s")
        #expect(Double(count) <= elapsed * 1.25 + 2, "\(count) wake-ups in \(elapsed) s")
    }
}

extension BarAndWatchOptionTests {
    /// What a bar makes of the blocks a service sends: the real `zaoan bar` against a server
    /// that sends these blocks as they are, so the test reads the bar's own parsing and
    /// renaming, not a copy of it.
    @Test("bar: a service's blocks keep only the fields zaoan writes, renamed to the bar's instances; markup is the config's, text made safe for it",
          arguments: [false, true])
    func barRelaysBlocks(pango: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A line that is not blocks is passed over; the next line is shown.
        try directory.write("fake.sock.answer", "not json\n[" + [
            #"{"name":"x","instance":"time","full_text":"a\"b","urgent":false}"#,
            ##"{"full_text":"<b>x</b> &amp; \u001b[2J","color":"#ff0000","markup":"pango","separator":false}"##,
            #"{"full_text":"a","urgent":true}"#,
        ].joined(separator: ",") + "]\n")
        let server = try ClientHardeningTests.FakeServer("relay", in: directory)
        try directory.write("bar.json", #"{"bar_blocks": ["time HH:mm", "greeting", "ticker"], "i3bar_markup": "\#(pango ? "pango" : "none")"}"#)
        let bar = try RunningZaoan(["bar", "--socket", server.path, "--config", directory.file("bar.json")],
                                   environment: try TestService.isolatedEnvironment(in: directory), scratch: directory)
        defer { _ = bar.terminate() }
        let markup = pango ? "pango" : "none"
        let expected = "[" + [
            #"{"name":"zaoan","instance":"0-time","full_text":"a\"b","urgent":false,"markup":"\#(markup)"}"#,
            // The colour is one zaoan writes (countdown_levels): kept, as #rrggbb from its bytes.
            pango ? ##"{"name":"zaoan","instance":"1-greeting","full_text":"&lt;b&gt;x&lt;/b&gt; &amp; ␛[2J","color":"#ff0000","urgent":false,"markup":"pango"}"##
                  : ##"{"name":"zaoan","instance":"1-greeting","full_text":"<b>x</b> &amp; ␛[2J","color":"#ff0000","urgent":false,"markup":"none"}"##,
            #"{"name":"zaoan","instance":"2-ticker","full_text":"a","urgent":true,"markup":"\#(markup)"}"#,
        ].joined(separator: ",") + "],"
        let shown = bar.line(within: 10) { $0.hasPrefix("[{") }
        #expect(shown == expected, "the bar's first status line; all: \(bar.lines); stderr: \(bar.errorText)")
    }
}
