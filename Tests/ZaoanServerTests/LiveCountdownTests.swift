import Foundation
import Testing

/// `countdown` against the real binary under `faketime`. The fake clock starts at a known
/// instant and keeps running, so each check sends `time`, the countdowns and `time` again in
/// one write: when both times agree, every countdown was rendered in that second, and its
/// text follows from it exactly. Started at T0, most runs see T0 itself and so the literal
/// texts of the issue (`距开播 01:02:03`, `2天 03:04:05`, `直播中 00:12:03`).
@Suite("Live rooms: countdown texts at faked times")
struct LiveCountdownTests {
    /// The texts of the issue, as the test's own formatter writes them.
    @Test("the test's expected texts are the issue's")
    func expectedTexts() {
        #expect(Live.startsIn(3723, zh: true) == "距开播 01:02:03")
        #expect(Live.startsIn(3723, zh: false) == "starts in 01:02:03")
        #expect(Live.startsIn(2 * 86_400 + 3 * 3600 + 4 * 60 + 5, zh: true) == "距开播 2天 03:04:05")
        #expect(Live.startsIn(2 * 86_400 + 3 * 3600 + 4 * 60 + 5, zh: false) == "starts in 2d 03:04:05")
        #expect(Live.liveFor(723, zh: true) == "直播中 00:12:03")
        #expect(Live.liveFor(723, zh: false) == "live 00:12:03")
        #expect(Live.seconds(ofClock: "2天 03:04:05") == 183_845)
        #expect(Live.seconds(ofClock: "2d 03:04:05") == 183_845)
        #expect(Live.seconds(ofClock: "01:02:03") == 3723)
    }

    /// A room as added, and what its countdown is at a given second.
    struct Room {
        let id: String
        let title: String
        /// Local start in Asia/Shanghai, `yyyy-MM-dd HH:mm:ss`.
        let start: String
        let end: String?

        var add: String {
            let date = start.hasSuffix(":00") ? String(start.dropLast(3)) : start
            return "live add \(id) \(date) \(title)" + (end.map { " end=" + $0.replacingOccurrences(of: " ", with: "T") } ?? "")
        }

        func expected(at now: Int, zh: Bool, zone: String, defaultDuration: Int = 7200) throws -> String {
            let begin = try Live.unixSeconds(start, zone: zone)
            let finish = try end.map { try Live.unixSeconds($0, zone: zone) } ?? begin + defaultDuration
            if now < begin { return Live.startsIn(begin - now, zh: zh) }
            if now < finish { return Live.liveFor(now - begin, zh: zh) }
            return Live.ended(zh: zh)
        }
    }

    /// The fake clock starts at 18:57:57 in Beijing on 1 December 2026.
    static let t0 = "2026-12-01 18:57:57"
    static let rooms: [Room] = [
        Room(id: "next", title: "夜读", start: "2026-12-01 20:00:00", end: nil),           // 01:02:03 ahead
        Room(id: "far", title: "远方", start: "2026-12-03 22:02:02", end: nil),            // 2 days 03:04:05 ahead
        Room(id: "now", title: "直播", start: "2026-12-01 18:45:54", end: "2026-12-01 21:00:00"),  // live 00:12:03
        Room(id: "old", title: "旧", start: "2026-12-01 10:00:00", end: "2026-12-01 12:00:00"),    // ended
        Room(id: "open", title: "默认", start: "2026-12-01 17:00:00", end: nil),           // no end: live for 2 h by default
        Room(id: "over", title: "过", start: "2026-12-01 16:50:00", end: nil),             // no end, 2 h passed: ended
    ]

    /// Sends `requests` between two `time` requests, until both times agree (the fake clock
    /// runs), and returns that second (Unix) and the answers in between.
    static func atOneSecond(_ service: TestService, _ requests: [String], zone: String) throws -> (now: Int, answers: [String]) {
        let pattern = "time yyyy-MM-dd HH:mm:ss"
        for _ in 0..<5 {
            let answer = try ask(service.socketPath, [pattern] + requests + [pattern])
            let lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count == requests.count + 3, lines.last == "" else {
                throw TestFailure("expected \(requests.count + 2) answers to \(requests); got \(answer.debugDescription)")
            }
            if lines[0] == lines[lines.count - 2] {
                return (try Live.unixSeconds(lines[0], zone: zone), Array(lines[1..<requests.count + 1]))
            }
        }
        throw TestFailure("the second changed during each of 5 exchanges")
    }

    @Test("before, during and after a room; days; no end; the next room with its title; no rooms", arguments: ["zh", "en"])
    func phases(language: String) throws {
        let zh = language == "zh"
        let zone = "Asia/Shanghai"
        var configuration = TestService.Configuration()
        configuration.fakeTime = Self.t0
        configuration.environment["TZ"] = zone
        configuration.arguments = ["--timezone", zone, "--language", language]
        let service = try TestService.start(configuration)
        let t0 = try Live.unixSeconds(Self.t0, zone: zone)

        // No rooms: an empty line, so a bar hides the module.
        #expect(try service.ask("countdown") == "\n")
        #expect(try service.ask("ticker") == "\n")
        #expect(try service.ask("live list") == "\n", "an empty multi-line answer is just its empty line")

        for room in Self.rooms {
            #expect(try service.ask(room.add) == "ok\n", "\(room.add); stderr: \(service.stderrText)")
        }

        let requests = Self.rooms.map { "countdown \($0.id)" } + ["countdown"]
        let (now, answers) = try Self.atOneSecond(service, requests, zone: zone)
        #expect((t0...t0 + 10).contains(now), "the fake clock should start at \(Self.t0); the service says \(now - t0) s later")
        for (room, answer) in zip(Self.rooms, answers) {
            #expect(answer == (try room.expected(at: now, zh: zh, zone: zone)),
                    "countdown \(room.id) at T0+\(now - t0) s")
        }
        // Two rooms are live (open since 17:00, now since 18:45:54): the earliest started is shown, with its title.
        let open = Self.rooms[4]
        #expect(answers.last == "默认 · " + (try open.expected(at: now, zh: zh, zone: zone)), "countdown without ID")
        if now == t0 {
            #expect(answers[0] == (zh ? "距开播 01:02:03" : "starts in 01:02:03"))
            #expect(answers[1] == (zh ? "距开播 2天 03:04:05" : "starts in 2d 03:04:05"))
            #expect(answers[2] == (zh ? "直播中 00:12:03" : "live 00:12:03"))
        }

        // live list: by start, tab-separated id, local start, end or -, countdown, title.
        let (listedAt, _) = try Self.atOneSecond(service, [], zone: zone)
        let raw = try service.ask("live list")
        #expect(raw.split(separator: "\n").allSatisfy { $0.filter { $0 == "\t" }.count == 4 },
                "live list: each row is 5 columns separated by tabs (U+0009): \(raw.debugDescription)")
        let rows = try Live.list(service.socketPath)
        let sorted = Self.rooms.sorted { $0.start < $1.start }
        #expect(rows.map { $0.first ?? "" } == sorted.map(\.id), "live list must be sorted by start")
        for (row, room) in zip(rows, sorted) {
            #expect(row.count == 5, "\(row)")
            guard row.count == 5 else { continue }
            #expect(row[1] == String(room.start.prefix(16)), "local start of \(room.id)")
            #expect(row[2] == (room.end.map { String($0.prefix(16)) } ?? "-"), "end of \(room.id)")
            #expect(row[4] == room.title)
            // Rendered a moment after listedAt: the same second or the next.
            let possible = try [listedAt, listedAt + 1, listedAt + 2].map { try room.expected(at: $0, zh: zh, zone: zone) }
            #expect(possible.contains(row[3]), "countdown column of \(room.id): \(row[3])")
        }

        let show = try Live.lines(service.ask("live show next"))
        #expect(show.contains("id: next"), "\(show)")
        #expect(show.contains("title: 夜读"), "\(show)")
        #expect(show.contains("start: 2026-12-01T20:00:00+08:00"), "\(show)")
        #expect(show.contains("end: -"), "\(show)")

        // With nothing live, countdown without ID is the next room: 夜读 · 距开播 ...
        for id in ["open", "now"] {
            #expect(try service.ask("live rm \(id)") == "ok\n")
        }
        let (later, featured) = try Self.atOneSecond(service, ["countdown"], zone: zone)
        #expect(featured == ["夜读 · " + (try Self.rooms[0].expected(at: later, zh: zh, zone: zone))])

        // Only ended rooms left: nothing to show.
        for id in ["next", "far"] {
            #expect(try service.ask("live rm \(id)") == "ok\n")
        }
        #expect(try service.ask("countdown") == "\n", "only ended rooms: an empty line")
        #expect(try service.ask("ticker") == "\n", "only ended rooms: an empty ticker")
        #expect(try service.ask("countdown old") == Live.ended(zh: zh) + "\n")
        try service.stop()
    }

    @Test("relative starts give the exact texts: +1h2m3s, +2d3h4m5s, -12m3s")
    func exactTexts() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = Self.t0
        configuration.environment["TZ"] = "Asia/Shanghai"
        configuration.arguments = ["--timezone", "Asia/Shanghai", "--language", "zh"]
        let service = try TestService.start(configuration)
        var seen: [String] = []
        for attempt in 0..<5 {
            // Added and asked within the same second (both `time` answers agree), so no
            // second has passed between the add and the countdown.
            let (_, answers) = try Self.atOneSecond(service, [
                "live add a\(attempt) +1h2m3s 夜读", "countdown a\(attempt)",
                "live add b\(attempt) +2d3h4m5s", "countdown b\(attempt)",
                "live add c\(attempt) -12m3s", "countdown c\(attempt)",
            ], zone: "Asia/Shanghai")
            seen = answers
            if answers == ["ok", "距开播 01:02:03", "ok", "距开播 2天 03:04:05", "ok", "直播中 00:12:03"] { break }
        }
        #expect(seen == ["ok", "距开播 01:02:03", "ok", "距开播 2天 03:04:05", "ok", "直播中 00:12:03"])
        try service.stop()
    }

    /// Across a daylight-saving change a countdown counts real elapsed seconds, not the
    /// difference of the wall-clock readings.
    struct DSTCase: CustomStringConvertible, Sendable {
        let name: String
        /// Start of the fake clock, UTC.
        let utc: String
        /// `live add` arguments after the ID.
        let add: String
        /// Seconds at the fake clock's start, and whether the room is live then.
        let seconds: Int
        let live: Bool
        /// What `live list` shows as the start (local, Europe/Berlin).
        let listedStart: String
        var description: String { name }
    }

    static let dstCases: [DSTCase] = [
        // 2027-03-28 01:00 CET (+01:00) to 04:00 CEST (+02:00): 2 real hours, although the
        // wall clock moves 3 (02:00 → 03:00 is skipped).
        DSTCase(name: "spring forward, local start", utc: "2027-03-28 00:00:00", add: "2027-03-28 04:00 夜读",
                seconds: 2 * 3600, live: false, listedStart: "2027-03-28 04:00"),
        DSTCase(name: "spring forward, ISO start with offset", utc: "2027-03-28 00:00:00", add: "2027-03-28T04:00+02:00 夜读",
                seconds: 2 * 3600, live: false, listedStart: "2027-03-28 04:00"),
        // Live since 01:30 CET; at 03:30 CEST one real hour has passed.
        DSTCase(name: "spring forward, live across the change", utc: "2027-03-28 01:30:00", add: "2027-03-28 01:30 夜读 end=+3h",
                seconds: 3600, live: true, listedStart: "2027-03-28 01:30"),
        // 2027-10-31 01:00 CEST to 04:00 CET: 4 real hours (03:00 → 02:00 is repeated).
        DSTCase(name: "fall back", utc: "2027-10-30 23:00:00", add: "2027-10-31 04:00 夜读",
                seconds: 4 * 3600, live: false, listedStart: "2027-10-31 04:00"),
        // Midnight to the next midnight across the change: 25 hours, 1 day 01:00:00.
        DSTCase(name: "fall back, a day of 25 hours", utc: "2027-10-30 22:00:00", add: "2027-11-01 00:00 夜读",
                seconds: 25 * 3600, live: false, listedStart: "2027-11-01 00:00"),
    ]

    @Test("DST in Europe/Berlin: real elapsed seconds", arguments: dstCases)
    func daylightSaving(_ testCase: DSTCase) throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = testCase.utc
        configuration.environment["TZ"] = "UTC"
        configuration.arguments = ["--timezone", "Europe/Berlin", "--language", "zh"]
        let service = try TestService.start(configuration)
        #expect(try service.ask("live add dst " + testCase.add) == "ok\n", "stderr: \(service.stderrText)")
        let t0 = try Live.unixSeconds(testCase.utc, zone: "UTC")
        // `time` in the service's zone; convert through Europe/Berlin.
        let (now, answers) = try Self.atOneSecond(service, ["countdown dst"], zone: "Europe/Berlin")
        let elapsed = now - t0
        #expect((0...10).contains(elapsed), "fake clock: \(elapsed) s after \(testCase.utc)Z")
        let expected = testCase.live ? Live.liveFor(testCase.seconds + elapsed, zh: true)
                                     : Live.startsIn(testCase.seconds - elapsed, zh: true)
        #expect(answers == [expected], "at \(testCase.utc)Z + \(elapsed) s")
        let rows = try Live.list(service.socketPath)
        #expect(rows.first?[1] == testCase.listedStart, "\(rows)")
        try service.stop()
    }
}
