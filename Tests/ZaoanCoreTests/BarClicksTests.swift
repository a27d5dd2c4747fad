import Foundation
import Testing
@testable import ZaoanCore

/// `bar_clicks`: read by one rule (`BarClicks`, through `BarConfig`) for the service and the
/// clients; without it every click does what it always did.
@Suite struct BarClicksTests {
    /// The key read as `zaoan bar` reads a file holding it.
    /// Strict: the first problem is thrown (a test of what is refused).
    static func read(_ value: String) throws(ConfigError) -> BarClicks {
        let read = try BarConfig.read(Array(#"{"bar_clicks": \#(value)}"#.utf8))
        if let first = read.problems.first { throw first }
        return read.config.clicks
    }

    @Test("without the key: zaoan's bindings, exactly as zaoan bar has always clicked")
    func defaults() throws {
        let clicks = try BarConfig.read(Array("{}".utf8)).config.clicks
        #expect(clicks == BarClicks())
        let expected: [String: [ClickButton: ClickAction]] = [
            "ticker": [.left: .next, .wheelDown: .next, .right: .previous, .wheelUp: .previous, .middle: .openLink],
            "time": [.left: .nextFormat, .wheelDown: .nextFormat, .right: .previousFormat, .wheelUp: .previousFormat, .middle: .nextZone],
            "countdown": [.left: .openLink],
            "status": [.left: .openLink],
            // New with the month view: the wheel steps it as waybar's clock does.
            "month": [.wheelUp: .nextMonth, .wheelDown: .previousMonth, .middle: .thisMonth, .right: .thisMonth],
        ]
        for block in BarClicks.blockWords {
            for button in ClickButton.allCases {
                #expect(clicks.action(block: block, button: button) == expected[block]?[button] ?? ClickAction.none, "\(block) \(button)")
            }
        }
    }

    @Test("a block's own entry, then *'s, then the default")
    func lookupOrder() throws {
        let clicks = try Self.read(#"""
            {"ticker": {"left": "previous", "middle": {"command": ["notify-send", "a b", "$HOME"]}},
             "*": {"left": "none", "wheel-up": {"command": ["/usr/bin/true"]}},
             "live list": {"right": "none"}}
            """#)
        #expect(clicks.action(block: "ticker", button: .left) == .previous)
        #expect(clicks.action(block: "ticker", button: .middle) == .command(["notify-send", "a b", "$HOME"]))
        #expect(clicks.action(block: "ticker", button: .wheelUp) == .command(["/usr/bin/true"]), "* where the block says nothing")
        #expect(clicks.action(block: "ticker", button: .right) == .previous, "the default where neither says anything")
        #expect(clicks.action(block: "time", button: .left) == ClickAction.none)
        #expect(clicks.action(block: "time", button: .middle) == .nextZone)
        #expect(clicks.action(block: "live list", button: .right) == ClickAction.none)
        #expect(try Self.read("null") == BarClicks() && Self.read("{}") == BarClicks())
        #expect(try Self.read(#"{"*": {"left": "next"}}"#).action(block: "time", button: .left) == .next,
                "under * an action that does not fit a block is kept (it does nothing there)")
    }

    @Test("buttons by name or i3bar number")
    func buttons() {
        #expect((1...5).compactMap { ClickButton(i3bar: $0) } == [.left, .middle, .right, .wheelUp, .wheelDown])
        #expect([0, 6, 7, 8, 9, -1, Int.max].allSatisfy { ClickButton(i3bar: $0) == nil })
        #expect(ClickButton(word: "wheel-down") == .wheelDown && ClickButton(word: "LEFT") == .left && ClickButton(word: "3") == .right)
        #expect(ClickButton(word: "6") == nil && ClickButton(word: "") == nil && ClickButton(word: "11") == nil && ClickButton(word: "wheel_up") == nil)
    }

    /// Each bad value, the key path and words its problem names, and where (line, column).
    static let refused: [(value: String, key: String, says: String, column: Int)] = [
        (#"["ticker"]"#, "bar_clicks", "expected an object of blocks", 16),
        (#""next""#, "bar_clicks", "expected an object of blocks", 16),
        (#"{"tikcer": {"left": "next"}}"#, "bar_clicks.tikcer", "did you mean 'ticker'?", 17),
        (#"{"block": {}}"#, "bar_clicks.block", "not a block a bar can show", 17),
        (#"{"live add": {}}"#, "bar_clicks.live add", "not a block a bar can show", 17),
        (#"{"ticker": "next"}"#, "bar_clicks.ticker", "expected an object of buttons", 27),
        (#"{"ticker": {"lfet": "next"}}"#, "bar_clicks.ticker.lfet", "did you mean 'left'?", 28),
        (#"{"ticker": {"6": "next"}}"#, "bar_clicks.ticker.6", "the buttons are left, middle, right, wheel-up, wheel-down", 28),
        (#"{"ticker": {"left": "nxet"}}"#, "bar_clicks.ticker.left", "did you mean 'next'?", 36),
        (#"{"ticker": {"left": "explode"}}"#, "bar_clicks.ticker.left", "is not an action", 36),
        (#"{"ticker": {"left": null}}"#, "bar_clicks.ticker.left", "expected an action word", 36),
        (#"{"ticker": {"left": 1}}"#, "bar_clicks.ticker.left", "expected an action word", 36),
        (#"{"time": {"left": "next"}}"#, "bar_clicks.time.left", "'next' does nothing on a time block; it acts on ticker", 34),
        (#"{"ticker": {"left": "next-zone"}}"#, "bar_clicks.ticker.left", "'next-zone' does nothing on a ticker block", 36),
        (#"{"greeting": {"left": "open-link"}}"#, "bar_clicks.greeting.left", "acts on ticker, countdown, status", 38),
        (#"{"ticker": {"left": {}}}"#, "bar_clicks.ticker.left", "needs \"command\"", 36),
        (#"{"ticker": {"left": {"command": []}}}"#, "bar_clicks.ticker.left.command", "needs a command", 48),
        (#"{"ticker": {"left": {"command": [""]}}}"#, "bar_clicks.ticker.left.command", "needs a command", 48),
        (#"{"ticker": {"left": {"command": "notify-send hi"}}}"#, "bar_clicks.ticker.left.command", "expected an array of strings", 48),
        (#"{"ticker": {"left": {"command": null}}}"#, "bar_clicks.ticker.left.command", "expected an array of strings", 48),
        (#"{"ticker": {"left": {"command": ["a", 1]}}}"#, "bar_clicks.ticker.left.command.1", "expected a string", 54),
        (#"{"ticker": {"left": {"command": ["bin/x"]}}}"#, "bar_clicks.ticker.left.command", "must be a command name (notify-send) or an absolute path", 48),
        (#"{"ticker": {"left": {"command": ["a\u0000b"]}}}"#, "bar_clicks.ticker.left.command", "NUL", 48),
        (#"{"ticker": {"left": {"command": ["x", "a\u0000"]}}}"#, "bar_clicks.ticker.left.command", "NUL", 48),
        (#"{"ticker": {"left": {"command": ["a\u001b[2J"]}}}"#, "bar_clicks.ticker.left.command", "control character", 48),
        (#"{"ticker": {"left": {"command": ["x"], "shell": true}}}"#, "bar_clicks.ticker.left.shell", "unknown key", 55),
        (#"{"ticker": {"left": "next", "left": "previous"}}"#, "bar_clicks.ticker.left", "appears twice", 44),
        (#"{"ticker": {}, "ticker": {}}"#, "bar_clicks.ticker", "appears twice", 31),
    ]

    @Test("a bad bar_clicks is named with its place inside the key, by the bar's reader and the service's alike",
          arguments: refused.indices)
    func refusals(_ index: Int) {
        let (value, key, says, column) = Self.refused[index]
        do {
            _ = try Self.read(value)
            Issue.record("\(value) was taken")
        } catch {
            #expect(error.key == key && error.problem.contains(says), "\(value): \(error)")
            #expect(error.position == TextPosition(line: 1, column: column), "\(value): at \(String(describing: error.position))")
        }
        // The service: the same problem, said with what stands instead, the other keys kept.
        let reading = ConfigFile.read(Array(#"{"bar_clicks": \#(value), "ticker_period": 7}"#.utf8))
        let resolved = Settings.resolving(reading.file, positions: reading.positions, systemZone: Zone.named("UTC")!)
        let problems = reading.problems + resolved.problems
        #expect(problems.count == 1 && problems.first?.key == key && problems.first?.problem.contains(says) == true
                && problems.first?.fallback != nil && problems.first?.position == TextPosition(line: 1, column: column),
                "\(value): \(problems)")
        #expect(resolved.settings.tickerPeriod == 7)
    }

    @Test("bounds: 64 arguments of 4096 bytes pass, one more of either is refused")
    func bounds() throws {
        func command(_ argv: [String]) -> String {
            let list = argv.map { "\"\($0)\"" }.joined(separator: ",")
            return #"{"ticker": {"left": {"command": [\#(list)]}}}"#
        }
        let long = String(repeating: "é", count: 2048)  // 4096 bytes
        let most = ["notify-send"] + Array(repeating: long, count: 63)
        #expect(try Self.read(command(most)).action(block: "ticker", button: .left) == .command(most))
        #expect(throws: ConfigError.self) { try Self.read(command(most + ["x"])) }
        #expect(throws: ConfigError.self) { try Self.read(command(["notify-send", long + "a"])) }
        do {
            _ = try Self.read(command(most + ["x"]))
        } catch {
            #expect(error.problem == "has 65 arguments; at most 64", "\(error)")
        }
        #expect(BarClicks.maxArguments == 64 && BarClicks.maxArgumentBytes == 4096)
    }

    @Test("block words are the requests a bar can show, once each")
    func blockWords() {
        #expect(BarClicks.blockWords.count == Set(BarClicks.blockWords).count)
        for word in ["ticker", "countdown", "status", "time", "greeting", "live list", "live show", "schedule"] {
            #expect(BarClicks.blockWords.contains(word), "\(word)")
        }
        #expect(BarClicks.blocksWithActions == ["ticker", "time", "month", "countdown", "status"])
        for word in ["live add", "reload", "session", "watch", "blocks", "--format", "url", "watch events", "*"] {
            #expect(!BarClicks.blockWords.contains(word), "\(word)")
        }
    }
}
