import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct ResponderTests {
    /// 20:00 in Shanghai.
    static let noon = "2026-06-15T12:00:00Z"

    private func answer(_ responder: Responder, _ request: Request, at now: Instant) -> Reply {
        responder.answer(request, now: now, counters: ServiceFigures(startedAt: now))
    }

    @Test(arguments: [("0", "00:00"), ("125", "02:05"), ("3725", "1:02:05")])
    func duration(seconds: String, expected: String) throws {
        let responder = Responder(settings: try makeSettings())
        let reply = answer(responder, .duration(seconds), at: try instant(Self.noon))
        #expect(reply == .line(expected))
        #expect(reply.bytes == Array((expected + "\n").utf8))
    }

    @Test(arguments: ["-1", "abc", "1.5"])
    func badDuration(seconds: String) throws {
        let responder = Responder(settings: try makeSettings())
        let reply = answer(responder, .duration(seconds), at: try instant(Self.noon))
        #expect(reply.isError)
        #expect(reply.text == "ERR bad-argument '\(seconds)' is not a whole number of seconds from 0 to 10^12")
    }

    @Test(arguments: [
        ("zh", "-5m", "5分钟前"),
        ("zh", "@1781524500", "5分钟前"),             // 5 minutes before 12:00Z
        ("zh", "2026-06-15T11:55:00Z", "5分钟前"),
        ("zh", "19:00", "1小时前"),                   // today, 20:00 in Shanghai now
        ("zh", "-3h", "3小时前"),
        ("en", "-3h", "3 hours ago"),
        ("en", "2026-06-15 17:00", "3 hours ago"),   // local to Shanghai
        ("en", "@1781514000", "3 hours ago"),
        ("en", "21:00", "23 hours ago"),             // leans to yesterday's 21:00
        ("en", "-2d", "2 days ago"),
        ("en", "+10m", "in 10 minutes"),
    ])
    func ago(language: String, time: String, expected: String) throws {
        let clock = FixedTimeSource(try instant(Self.noon))
        let responder = Responder(settings: try makeSettings(language: language))
        let reply = answer(responder, .ago(time), at: clock.now)
        #expect(!reply.isError)
        #expect(reply.text == expected)
    }

    @Test func agoFollowsTheClockWithoutAFormatter() throws {
        let clock = FixedTimeSource(try instant(Self.noon))
        let responder = Responder(settings: try makeSettings(language: "zh"))
        #expect(answer(responder, .ago("@1781524500"), at: clock.now).text == "5分钟前")
        clock.now = clock.now.adding(seconds: 3600)
        #expect(answer(responder, .ago("@1781524500"), at: clock.now).text == "1小时前")
        #expect(responder.formatters.statistics == FormatterCache.Statistics(entries: 0, hits: 0, misses: 0, evictions: 0))
    }

    @Test(arguments: ["garbage", "25:00", "2026-02-30 10:00"])
    func badAgo(time: String) throws {
        let responder = Responder(settings: try makeSettings())
        let reply = answer(responder, .ago(time), at: try instant(Self.noon))
        #expect(reply.isError)
        #expect(reply.text.hasPrefix("ERR bad-argument '\(time)' is not a time"))
    }

    @Test func simpleAnswers() throws {
        let responder = Responder(settings: try makeSettings())
        let now = try instant(Self.noon)
        #expect(answer(responder, .ping, at: now).bytes == Array("pong\n".utf8))
        #expect(answer(responder, .version, at: now).text == "zaoan \(Version.number)")
        #expect(answer(responder, .session, at: now) == .ok)
        #expect(answer(responder, .reload, at: now) == .ok)
        #expect(answer(responder, .quit, at: now).text == "bye")
    }

    @Test func helpListsEveryCommandThenAnEmptyLine() throws {
        let responder = Responder(settings: try makeSettings())
        let reply = answer(responder, .help, at: try instant(Self.noon))
        let lines = reply.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == RequestKind.helpLines.count + 1)
        #expect(lines.last == "")
        for command in ["greeting", "time", "ago", "duration", "ping", "version", "help", "session", "quit", "reload", "stats"] {
            #expect(lines.contains { $0.hasPrefix(command + " ") }, "\(command)")
        }
    }

    @Test func stats() throws {
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        let now = try instant(Self.noon)
        // Every LDML pattern is read once and kept by its text in the formatter cache,
        // which `stats` counts: two patterns, one of them asked twice.
        _ = try responder.time(pattern: "HH a", now: now)
        _ = try responder.time(pattern: "HH a", now: now)
        _ = try responder.time(pattern: "mm a", now: now)
        var counters = ServiceFigures(startedAt: now.adding(seconds: -42.9))
        counters.connectionsOpen = 3
        counters.connectionsTotal = 10
        counters.requests = 99

        let reply = responder.answer(.stats, now: now, counters: counters)
        #expect(!reply.isError)
        #expect(reply.bytes.suffix(2) == [0x0A, 0x0A])  // a multi-line answer ends with an empty line
        let lines = reply.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        var values: [String: String] = [:]
        for line in lines.dropLast() {
            let parts = line.split(separator: ": ", maxSplits: 1).map(String.init)
            #expect(parts.count == 2, "\(line)")
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        #expect(values["uptime_seconds"] == "42")
        #expect(values["connections_open"] == "3")
        #expect(values["connections_total"] == "10")
        #expect(values["requests"] == "99")
        #expect(values["formatter_cache_entries"] == "2")
        #expect(values["formatter_cache_capacity"] == "64")
        #expect(values["formatter_cache_hits"] == "1")
        #expect(values["formatter_cache_misses"] == "2")
        #expect(values["formatter_cache_evictions"] == "0")
    }

    @Test func statsCountEvictions() throws {
        let responder = Responder(settings: try makeSettings(timezone: "UTC", formatterCacheSize: 2))
        let now = try instant(Self.noon)
        for pattern in ["HH a", "mm a", "ss a", "HH a"] { _ = try responder.time(pattern: pattern, now: now) }
        let text = answer(responder, .stats, at: now).text
        #expect(text.contains("formatter_cache_entries: 2\n"))
        #expect(text.contains("formatter_cache_capacity: 2\n"))
        #expect(text.contains("formatter_cache_misses: 4\n"))
        #expect(text.contains("formatter_cache_evictions: 2\n"))
    }

    @Test func timeInTheConfiguredZoneAndLanguage() throws {
        let now = try instant("2026-01-15T01:02:03Z")  // Thursday
        let zh = Responder(settings: try makeSettings(language: "zh", timezone: "Asia/Tokyo"))
        let en = Responder(settings: try makeSettings(language: "en", timezone: "America/Los_Angeles"))
        #expect(answer(zh, .time(pattern: nil), at: now).text == "10:02")
        #expect(answer(zh, .time(pattern: "EEEE"), at: now).text == "星期四")
        #expect(answer(zh, .time(pattern: "yyyy-MM-dd HH:mm:ss"), at: now).text == "2026-01-15 10:02:03")
        // en is en-US: 12-hour, CLDR's `h:mm a` (issue 33; was HH:mm in every language).
        #expect(answer(en, .time(pattern: nil), at: now).text == "5:02 PM")
        #expect(answer(en, .time(pattern: "EEEE"), at: now).text == "Wednesday")
        #expect(answer(en, .time(pattern: "%A %d %B"), at: now).text == "Wednesday 14 January")
    }

    /// A `time` pattern with seconds is rendered once per second: one formatting within a
    /// second, a new one in the next. (Fractions are rendered per request: RenderPeriodTests.)
    @Test func perSecondRenderCache() throws {
        let clock = FixedTimeSource(try instant("2026-01-15T10:00:00Z").adding(seconds: 0.25))
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        let request = Request.time(pattern: "HH:mm:ss a")  // `a`: rendered by ICU, counted by its cache

        #expect(answer(responder, request, at: clock.now).text == "10:00:00 AM")
        clock.now = clock.now.adding(seconds: 0.5)
        #expect(answer(responder, request, at: clock.now).text == "10:00:00 AM")
        #expect(responder.formatters.statistics == FormatterCache.Statistics(entries: 1, hits: 0, misses: 1, evictions: 0))

        clock.now = clock.now.adding(seconds: 0.5)
        #expect(answer(responder, request, at: clock.now).text == "10:00:01 AM")
        #expect(responder.formatters.statistics.hits == 1)

        // Each pattern has its own rendered answer.
        #expect(answer(responder, .time(pattern: "ss"), at: clock.now).text == "01")
        #expect(answer(responder, .time(pattern: "mm"), at: clock.now).text == "00")
    }

    /// Going back in time (a clock set back) renders again instead of serving a future answer.
    @Test func renderCacheFollowsTheClockBackwards() throws {
        let clock = FixedTimeSource(try instant("2026-01-15T10:00:05Z"))
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        #expect(answer(responder, .time(pattern: "HH:mm:ss"), at: clock.now).text == "10:00:05")
        clock.now = try instant("2026-01-15T10:00:04Z")
        #expect(answer(responder, .time(pattern: "HH:mm:ss"), at: clock.now).text == "10:00:04")
    }

    /// The greeting is rendered once per minute, and the minute it changes is not missed.
    @Test func greetingChangesExactlyAtTheBoundary() throws {
        let clock = FixedTimeSource(try instant("2026-01-15T02:59:00Z"))  // 10:59 in Beijing
        let responder = Responder(settings: try makeSettings(language: "zh"))
        #expect(answer(responder, .greeting(city: nil), at: clock.now).text == "早安·北京")
        clock.now = clock.now.adding(seconds: 59.75)
        #expect(answer(responder, .greeting(city: nil), at: clock.now).text == "早安·北京")
        clock.now = clock.now.adding(seconds: 0.25)  // 11:00:00
        #expect(answer(responder, .greeting(city: nil), at: clock.now).text == "午安·北京")
        #expect(answer(responder, .greeting(city: "纽约"), at: clock.now).text == "晚上好·纽约")  // 22:00 the day before
        #expect(answer(responder, .greeting(city: "东京"), at: clock.now).text == "午安·东京")  // 12:00 in Tokyo
    }

    @Test func applyingNewSettingsDropsRenderedAnswers() throws {
        let now = try instant("2026-01-15T01:00:00Z")
        let responder = Responder(settings: try makeSettings(language: "zh"))
        #expect(answer(responder, .greeting(city: nil), at: now).text == "早安·北京")
        #expect(answer(responder, .time(pattern: nil), at: now).text == "09:00")
        responder.apply(try makeSettings(language: "en", timezone: "Europe/Berlin"))
        #expect(answer(responder, .greeting(city: nil), at: now).text == "Good night · Berlin")  // 02:00
        #expect(answer(responder, .time(pattern: nil), at: now).text == "2:00 AM")  // en-US's 12-hour clock
        #expect(responder.settings.language == .en)
    }

    @Test func errorsAreNotRendered() throws {
        let now = try instant(Self.noon)
        let responder = Responder(settings: try makeSettings(language: "zh"))
        #expect(answer(responder, .greeting(city: "Gotham"), at: now).isError)
        responder.apply(try makeSettings(language: "zh", cities: ["Gotham": "America/New_York"]))
        #expect(answer(responder, .greeting(city: "Gotham"), at: now).text == "早安·Gotham")  // 08:00 EDT
    }
}

@Suite struct FixedTimeSourceTests {
    @Test func saysWhatItIsSet() throws {
        let start = try instant("2026-01-15T10:00:00Z")
        let clock = FixedTimeSource(start)
        #expect(clock.now == start)
        #expect(clock.now == start)  // reading does not advance it
        clock.now = start.adding(seconds: 90)
        #expect(clock.now.seconds(since: start) == 90)
        let source: any TimeSource = clock
        #expect(source.now == start.adding(seconds: 90))
    }
}

@Suite struct ReplyTests {
    @Test func singleLine() {
        #expect(Reply.line("早安·北京").bytes == Array("早安·北京\n".utf8))
        #expect(!Reply.line("x").isError)
        #expect(Reply.pong.text == "pong")
        #expect(Reply.ok.text == "ok")
    }

    @Test func multiLineEndsWithAnEmptyLine() {
        #expect(Reply.lines(["a", "b"]).bytes == Array("a\nb\n\n".utf8))
        #expect(Reply.lines([]).bytes == [0x0A])
    }

    @Test func errorLine() {
        let reply = Reply.error(ProtocolError(.unknownCity, "unknown city 'x'"))
        #expect(reply.isError)
        #expect(reply.bytes == Array("ERR unknown-city unknown city 'x'\n".utf8))
    }

    /// A value with a line break would end the answer early, and a control character could
    /// reach a terminal: both become visible Control Pictures, on one line.
    @Test(arguments: [("a\nb", "a\u{240A}b"), ("a\r\nb", "a\u{240D}\u{240A}b"), ("a\rb", "a\u{240D}b"), ("\n", "\u{240A}"),
                      ("\u{1B}[31mred", "\u{241B}[31mred"), ("a\u{7F}", "a\u{2421}"), ("\u{9B}x", "\u{FFFD}x")])
    func controlCharactersInsideAValueBecomeVisible(value: String, expected: String) {
        #expect(Reply.line(value).bytes == Array((expected + "\n").utf8))
        #expect(Reply.lines([value]).bytes == Array((expected + "\n\n").utf8))
        #expect(Reply.error(ProtocolError(.badArgument, value)).text == "ERR bad-argument " + expected)
    }

    @Test(arguments: [
        (ProtocolError.Code.unknownCommand, "unknown-command"), (.badArgument, "bad-argument"),
        (.unknownCity, "unknown-city"), (.tooLong, "too-long"), (.badEncoding, "bad-encoding"),
    ])
    func stableErrorCodes(code: ProtocolError.Code, wire: String) {
        #expect(code.rawValue == wire)
        #expect(ProtocolError(code, "m").description == "ERR \(wire) m")
    }
}

/// Where the protocol promises a value, an answer is never an empty line.
@Suite struct ResponderEdgeTests {
    private func answer(_ request: Request, settings: Settings? = nil) throws -> Reply {
        let responder = Responder(settings: try settings ?? makeSettings())
        let now = try instant("2026-06-15T12:00:00Z")
        return responder.answer(request, now: now, counters: ServiceFigures(startedAt: now))
    }

    @Test func patternsUpToTheLimitFormat() throws {
        // `H:` repeated: each field at a width UTS #35 defines (1024 `H`s in one field are refused).
        let reply = try answer(.time(pattern: String(repeating: "H:", count: Responder.maxPatternLength / 2)))
        #expect(!reply.isError && reply.text.count >= 2, "\(reply.text.prefix(40))")
    }

    @Test(arguments: [String(repeating: "H", count: 1025), String(repeating: "%Y", count: 513), String(repeating: "y", count: 4000)])
    func longPatternsAreRefused(pattern: String) throws {
        let reply = try answer(.time(pattern: pattern))
        #expect(reply.isError && reply.text.hasPrefix("ERR bad-argument the pattern is") && reply.text.contains("at most 1024"), "\(reply.text.prefix(120))")
    }

    @Test func aRoomAtTheStartOfTheWindowTakesAnEndOneSecondLater() throws {
        let responder = Responder(settings: try makeSettings())
        let now = try instant("2026-06-15T12:00:00Z")
        let draft = LiveRoomDraft(id: "epoch", start: "1970-01-01T00:00:00Z", title: "t", end: "+1s")
        let next = try responder.proposedChange(.liveAdd(draft), now: now)
        #expect(next.rooms["epoch"]?.end == Instant(secondsSince1970: 1))
    }
}
