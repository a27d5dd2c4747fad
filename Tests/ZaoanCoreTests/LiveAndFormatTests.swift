import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Live rooms, countdown texts, the ticker, `status` and the output formats, in the pure core
/// (the binary-level tests are in ZaoanServerTests/Live*.swift and Integration*.swift).
@Suite struct LiveAndFormatTests {
    let now = Instant(secondsSince1970: 1_796_000_000)  // a fixed instant
    let counters = ServiceFigures(startedAt: Instant(secondsSince1970: 0))

    func responder(language: String = "zh", config: (inout ConfigFile) -> Void = { _ in }) throws -> Responder {
        var file = ConfigFile()
        file.language = language
        file.timezone = "Asia/Shanghai"
        config(&file)
        return Responder(settings: try Settings.resolve(file, environment: [:], systemZone: try timeZone("Asia/Shanghai")))
    }

    func add(_ line: String, to responder: Responder) throws {
        let request = try #require(try RequestParser.parse(line))
        responder.commit(try responder.proposedChange(request, now: now))
    }

    func answer(_ line: String, _ responder: Responder, at instant: Instant? = nil) throws -> String {
        let request = try #require(try RequestParser.parse(line))
        return responder.answer(request, now: instant ?? now, counters: counters).text
    }

    @Test(arguments: [
        (3723, "zh", "距开播 01:02:03"), (3723, "en", "starts in 01:02:03"),
        (2 * 86_400 + 3 * 3600 + 4 * 60 + 5, "zh", "距开播 2天 03:04:05"),
        (2 * 86_400 + 3 * 3600 + 4 * 60 + 5, "en", "starts in 2d 03:04:05"),
        (-723, "zh", "直播中 00:12:03"), (-723, "en", "live 00:12:03"),
        (-7200, "zh", "已结束"), (-7200, "en", "ended"),
    ])
    func countdownTexts(startsIn seconds: Int, language: String, expected: String) throws {
        let responder = try responder(language: language)
        try add("live add r @\(Int(now.secondsSince1970) + seconds) 夜读", to: responder)
        #expect(try answer("countdown r", responder) == expected)
        #expect(try answer("countdown", responder) == (expected.hasPrefix("已") || expected == "ended" ? "" : "夜读 · " + expected))
    }

    @Test func noRoomsIsAnEmptyLine() throws {
        let responder = try responder()
        #expect(try answer("countdown", responder) == "")
        #expect(try answer("ticker", responder) == "")
        // status without a room: greeting and time, and no dangling space where the countdown was.
        #expect(try answer("status", responder) == (try answer("greeting", responder)) + " " + (try answer("time", responder)))
    }

    @Test func tickerRotatesInStartOrderAndWraps() throws {
        let responder = try responder { $0.tickerPeriod = 3 }
        let base = Int(now.secondsSince1970)
        for (id, offset) in [("b", 7200), ("a", 3600), ("c", 10_800)] {
            try add("live add \(id) @\(base + offset) \(id.uppercased())", to: responder)
        }
        let period0 = (base / 3) * 3  // a whole ticker period
        let shown = try (0..<4).map { try answer("ticker", responder, at: Instant(secondsSince1970: Double(period0 + 3 * $0))) }
        let titles = shown.map { String($0.prefix(1)) }
        let first = (period0 / 3) % 3
        let expected = (0..<4).map { ["A", "B", "C"][(first + $0) % 3] }
        #expect(titles == expected, "\(shown)")
        #expect(try answer("ticker 1", responder, at: Instant(secondsSince1970: Double(period0))).hasPrefix(expected[1]))
    }

    @Test func endAsTwoWordsAndFromStart() throws {
        let responder = try responder()
        try add("live add x 2027-01-01 20:00 Title end=2027-01-01 22:30", to: responder)
        let room = try #require(responder.schedule.rooms["x"])
        #expect(room.title == "Title")
        #expect(room.end.map { $0.seconds(since: room.start) } == 9000)
        try add("live add y 2027-01-01 20:00 end=+90m", to: responder)
        let y = try #require(responder.schedule.rooms["y"])
        #expect(y.end.map { $0.seconds(since: y.start) } == 5400)
    }

    @Test func fullDropsEndedRoomsFirst() throws {
        let responder = try responder { $0.maxRooms = 2 }
        try add("live add old -5h Old", to: responder)
        try add("live add soon +1h Soon", to: responder)
        try add("live add next +2h Next", to: responder)  // "old" has ended: it makes way
        #expect(Set(responder.schedule.rooms.keys) == ["soon", "next"])
        let request = try #require(try RequestParser.parse("live add more +3h More"))
        let error = protocolError { () throws(ProtocolError) in try responder.proposedChange(request, now: now) }
        #expect(error?.code == .full)
    }

    @Test func statusLeavesNoDoubleSpaces() {
        #expect(Responder.fill("{greeting} {time} {countdown}", with: ["greeting": "早安·北京", "time": "08:00", "countdown": ""]) == "早安·北京 08:00")
        #expect(Responder.fill("{countdown} | {time}", with: ["time": "08:00", "countdown": ""]) == "| 08:00")
        #expect(Responder.fill("{unknown} x", with: [:]) == "{unknown} x")
    }

    static let hostile = "夜读 $(touch /tmp/p) `id` %F{red} <b>&amp; \u{1B}]0;t\u{07} \"q\" \u{202E}x"

    @Test func jsonIsValidEscapedAndPangoSafe() throws {
        let responder = try responder()
        responder.commit(LiveSchedule(rooms: [LiveRoom(id: "h", title: Self.hostile, start: now.adding(seconds: 300))]))
        let line = try answer("--format=json countdown", responder)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        let text = try #require(object["text"])
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(text.contains("&lt;b&gt;&amp;amp;") && !text.contains("<b>"))
        #expect(text.contains("\u{241B}]0;t\u{2407}"))
        #expect(!text.contains("\u{202E}"))
        #expect(object["class"] == "soon" && object["alt"] == "soon")
    }

    @Test func i3barBlockUsesNoMarkupUnlessAskedFor() throws {
        let plain = try responder()
        plain.commit(LiveSchedule(rooms: [LiveRoom(id: "h", title: "<b>&", start: now.adding(seconds: 30))]))
        let block = try #require(try JSONSerialization.jsonObject(with: Data(try answer("--format=i3bar countdown", plain).utf8)) as? [String: Any])
        #expect(block["markup"] as? String == "none")
        #expect((block["full_text"] as? String)?.hasPrefix("<b>& · ") == true)
        #expect(block["urgent"] as? Bool == true)
        let pango = try responder { $0.i3barMarkup = "pango" }
        pango.commit(plain.schedule)
        let escaped = try #require(try JSONSerialization.jsonObject(with: Data(try answer("--format=i3bar countdown", pango).utf8)) as? [String: Any])
        #expect(escaped["markup"] as? String == "pango")
        #expect((escaped["full_text"] as? String)?.hasPrefix("&lt;b&gt;&amp; · ") == true)
    }

    @Test func greetingClassFollowsTheTableRow() throws {
        let chinese = try responder()
        for (hour, expected) in [(4, "night"), (5, "morning"), (11, "noon"), (14, "afternoon"), (18, "evening"), (23, "night")] {
            let at = try localInstant(2027, 1, 4, hour, 30, in: "Asia/Shanghai")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(try answer("--format=json greeting", chinese, at: at).utf8)) as? [String: String])
            #expect(object["class"] == expected, "\(hour):30")
        }
        // English has no noon row: "Good afternoon" from 12:00 is styled afternoon, and
        // "Good morning" until then stays morning.
        let english = try self.responder(language: "en")
        for (hour, text, expected) in [(11, "Good morning", "morning"), (12, "Good afternoon", "afternoon")] {
            let at = try localInstant(2027, 1, 4, hour, 30, in: "Asia/Shanghai")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(try answer("--format=json greeting", english, at: at).utf8)) as? [String: String])
            #expect(object["class"] == expected && object["text"]?.hasPrefix(text) == true, "\(hour):30 \(object)")
        }
    }

    @Test func formatWordPlacement() throws {
        #expect(try RequestParser.parse("--format=json watch countdown") == .watch(.formatted(.json, .countdown(id: nil))))
        #expect(try RequestParser.parse("watch --format=i3bar ticker") == .watch(.formatted(.i3bar, .ticker(skip: 0))))
        #expect(try RequestParser.parse("--format=plain greeting") == .greeting(city: nil))
        #expect(protocolError { () throws(ProtocolError) in try RequestParser.parse("--format=json session") }?.code == .badArgument)
        #expect(protocolError { () throws(ProtocolError) in try RequestParser.parse("--format=xml ping") }?.code == .badArgument)
        #expect(protocolError { () throws(ProtocolError) in try RequestParser.parse("watch live add x +1h") }?.code == .notWatchable)
    }
}
