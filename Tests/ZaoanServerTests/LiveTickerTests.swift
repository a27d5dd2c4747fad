import Foundation
import Testing

/// The ticker rotates through live and upcoming rooms by the wall clock: index =
/// floor(unix_seconds / period) mod count, in start order, and after the last comes the first.
///
/// Each ticker line carries its room's countdown, and with Unix start times (`@SECONDS`) the
/// countdown says exactly which second the line was rendered in; so the expected room follows
/// from the line itself, with no guessing about when it was sent.
@Suite("Live rooms: the ticker")
struct LiveTickerTests {
    struct Case: CustomStringConvertible, Sendable {
        let period: Int
        let language: String
        /// Rooms that are current (live or upcoming); the ticker must show only these.
        let current: Int
        /// Lines to read from `watch ticker`: enough to see every room and one wrap.
        let lines: Int
        var description: String { "period \(period), \(language), \(current) rooms" }
    }

    static let cases = [
        Case(period: 1, language: "zh", current: 4, lines: 6),
        Case(period: 2, language: "en", current: 3, lines: 8),
    ]

    @Test("watch ticker: rooms in start order, one per period by the wall clock, the first after the last", arguments: cases)
    func rotation(_ testCase: Case) throws {
        let zh = testCase.language == "zh"
        let service = try TestService.start(arguments: ["--timezone", "Asia/Shanghai", "--language", testCase.language],
                                            config: #"{"ticker_period": \#(testCase.period)}"#)
        let base = Int(Live.now)
        // (id, title, start, end); added out of order, so the ticker must sort by start.
        var rooms: [(id: String, title: String, start: Int, end: Int?)] = [
            ("c", "丙 three", base + 3000, nil),
            ("a", "甲 one", base + 1000, nil),
            ("b", "乙 two", base + 2000, nil),
            ("live", "现场 now", base - 100, base + 5000),
        ]
        if testCase.current == 3 { rooms.removeLast() }
        let ended = (id: "gone", title: "旧 ended", start: base - 10_000, end: base - 9000)
        for room in rooms + [ended] {
            let add = "live add \(room.id) @\(room.start) \(room.title)" + (room.end.map { " end=@\($0)" } ?? "")
            #expect(try service.ask(add) == "ok\n", "\(add)")
        }
        let order = rooms.sorted { $0.start < $1.start }
        #expect(order.count == testCase.current)

        let client = try RawClient(path: service.socketPath, timeout: 3)
        try client.send("watch ticker\n")
        var seen: [(second: Int, index: Int)] = []
        for _ in 0..<testCase.lines {
            let line = try client.readLine()
            let parts = line.components(separatedBy: " · ")
            guard parts.count == 2, let index = order.firstIndex(where: { $0.title == parts[0] }) else {
                Issue.record("ticker line \(line.debugDescription) is not 'TITLE · COUNTDOWN' of a current room (\(order.map(\.title)))")
                break
            }
            let room = order[index]
            let state = parts[1]
            let second: Int
            if let rest = state.dropPrefix(zh ? "距开播 " : "starts in "), let left = Live.seconds(ofClock: rest) {
                second = room.start - left
            } else if let rest = state.dropPrefix(zh ? "直播中 " : "live "), let since = Live.seconds(ofClock: rest) {
                second = room.start + since
            } else {
                Issue.record("ticker state \(state.debugDescription) is neither upcoming nor live")
                break
            }
            let expected = (second / testCase.period) % order.count
            #expect(index == expected,
                    "at \(second) (period \(testCase.period), \(order.count) rooms) the ticker should show \(order[expected].title), not \(room.title)")
            seen.append((second, index))
        }

        // Consecutive lines come from consecutive seconds (the countdown changes every second),
        // and over them the index steps through the rooms in order and wraps.
        let seconds = seen.map(\.second)
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $1 > $0 }, "lines in time order, one per change: \(seconds)")
        let shown = seen.map(\.index)
        let steps = zip(shown, shown.dropFirst()).filter { $0 != $1 }
        #expect(steps.allSatisfy { ($0 + 1) % order.count == $1 }, "the ticker moves to the next room in start order: \(shown)")
        #expect(steps.contains { $0 == order.count - 1 && $1 == 0 }, "after the last room comes the first: \(shown)")
        #expect(Set(shown).count == order.count, "every current room is shown: \(shown)")
        client.close()
        try service.stop()
    }

    @Test("every client sees the same room at the same second, and a restart does too")
    func agreement() throws {
        let world = try LiveWorld(config: #"{"ticker_period": 1}"#, arguments: ["--timezone", "UTC", "--language", "en"])
        let first = try world.start()
        let base = Int(Live.now)
        for (index, title) in ["one", "two", "three", "four", "five"].enumerated() {
            #expect(try first.ask("live add r\(index) @\(base + 600 * (index + 1)) \(title)") == "ok\n")
        }
        // Two tickers asked in one write: the same second (mostly), the same answer.
        func pair() throws -> [String] {
            try ask(world.socketPath, ["time HH:mm:ss", "ticker", "ticker", "time HH:mm:ss"])
                .split(separator: "\n").map(String.init)
        }
        var answers = try pair()
        for _ in 0..<3 where answers.count == 4 && answers[0] != answers[3] { answers = try pair() }
        #expect(answers.count == 4 && answers[1] == answers[2], "\(answers)")
        try first.stop()

        let second = try world.start()
        let titles = ["one", "two", "three", "four", "five"]
        for _ in 0..<3 {
            let line = try second.ask("ticker")
            let title = line.components(separatedBy: " · ").first ?? ""
            guard let index = titles.firstIndex(of: title), let rest = line.components(separatedBy: " · ").last?.dropPrefix("starts in "),
                  let left = Live.seconds(ofClock: rest.dropLast()) else {
                Issue.record("after restart: \(line.debugDescription)")
                break
            }
            let at = base + 600 * (index + 1) - left
            #expect(index == at % titles.count, "after a restart the index still comes from the clock: \(line.debugDescription) at \(at)")
        }
        try second.stop()
    }
}

extension String {
    /// The rest after `prefix`, or nil.
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}

extension Substring {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
