import Foundation
import Testing

/// `ago` and times of day where the rules are easy to get wrong: the process's own zone,
/// the hour the clocks repeat, the hour they skip. The real binary under `faketime`, whose
/// clock starts at the given UTC time and keeps running; every expectation leaves a minute
/// of slack for a slow start.
@Suite("Time rules at faked times")
struct TimeRulesTests {
    /// The same requests to services whose processes run in different zones, all
    /// configured for Asia/Shanghai: the answers may not depend on the process's zone.
    @Test("ago answers the same whatever TZ the process has")
    func agoIgnoresTheProcessZone() throws {
        let requests: [(String, String)] = [
            ("ago -46h", "1天前"), ("ago -742h", "1个月前"), ("ago -10d", "1周前"), ("ago +10d", "1周后"),
            ("ago -60d", "1个月前"), ("ago +60d", "1个月后"), ("ago -364d", "11个月前"), ("ago +364d", "11个月后"),
            ("ago +0s", "刚刚"), ("ago -3s", "刚刚"), ("ago -90s", "1分钟前"), ("ago 2026-11-29 09:00", "2天前"),
        ]
        var answers: [String: [String]] = [:]
        for processZone in ["UTC", "Asia/Shanghai", "America/New_York", "Pacific/Chatham"] {
            var configuration = TestService.Configuration()
            configuration.environment["TZ"] = processZone
            configuration.arguments = ["--language", "zh", "--timezone", "Asia/Shanghai"]
            configuration.fakeTime = TimeRulesTests.localStart(utc: "2026-12-01 01:00:00", zone: processZone)
            let service = try TestService.start(configuration)
            defer { try? service.stop() }
            answers[processZone] = try requests.map { try service.ask($0.0).trimmingCharacters(in: .newlines) }
        }
        for (zone, got) in answers {
            #expect(got == requests.map(\.1), "TZ=\(zone)")
        }
    }

    /// A service in Europe/Berlin, English, its clock starting at `utc` (faketime reads it in
    /// the process's zone, UTC).
    private func berlin(fakingUTC utc: String) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.environment["TZ"] = "UTC"
        configuration.fakeTime = utc
        configuration.arguments = ["--language", "en", "--timezone", "Europe/Berlin"]
        return try TestService.start(configuration)
    }

    /// Berlin, 2026-10-25: 02:00–03:00 happens twice (CEST, then CET). At 02:10 CET (the
    /// second pass) the next 02:30 is 20 minutes away, and the most recent 02:00 is 10
    /// minutes ago.
    @Test("the hour the clocks go back counts both passes")
    func repeatedHour() throws {
        let service = try berlin(fakingUTC: "2026-10-25 01:10:00")
        defer { try? service.stop() }
        #expect(try service.ask("ago 02:00") == "10 minutes ago\n")
        #expect(try service.ask("live add fallback 02:30 Night show") == "ok\n")
        let show = try service.ask("live show fallback")
        #expect(show.contains("start: 2026-10-25T02:30:00+01:00\n"), "\(show)")
        #expect(show.contains("note: 2026-10-25 02:30 happens twice in Europe/Berlin; this is the second, after the clocks go back (UTC+01:00)\n"), "\(show)")
        let countdown = try service.ask("countdown fallback")
        #expect(countdown.hasPrefix("starts in 00:19:") || countdown.hasPrefix("starts in 00:20:") || countdown.hasPrefix("starts in 00:18:"), "\(countdown)")
    }

    /// Berlin, 2026-03-29: 02:00–03:00 does not exist. 02:30 moves forward by the gap to
    /// 03:30 CEST, and `live show` says so.
    @Test("a time the clocks skip moves forward by the gap, and live show says so")
    func skippedHour() throws {
        let service = try berlin(fakingUTC: "2026-03-29 00:00:00")
        defer { try? service.stop() }
        #expect(try service.ask("live add spring 02:30 Early show") == "ok\n")
        let show = try service.ask("live show spring")
        #expect(show.contains("start: 2026-03-29T03:30:00+02:00\n"), "\(show)")
        #expect(show.contains("note: 2026-03-29 02:30 does not exist in Europe/Berlin (the clocks go forward 1 hour); moved forward by the gap to 2026-03-29 03:30\n"), "\(show)")
        #expect(try service.ask("live add plain 05:00 Later show") == "ok\n")
        #expect(!(try service.ask("live show plain")).contains("note:"))
    }

    /// A fraction of a second is rendered for every request, not frozen for the second
    /// (requests read in one loop turn share that turn's instant).
    @Test("time %s.%N answers with the current nanoseconds")
    func nanosecondsPerRequest() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let client = try RawClient(path: service.socketPath, timeout: 10)
        try client.send("session\n")
        #expect(try client.readLine() == "ok")
        var sameSecond = 0
        for _ in 0..<20 {
            // One at a time: lines read together are answered at one instant (the loop's now).
            try client.send("time %s.%N\n")
            let first = try client.readLine()
            try client.send("time %s.%N\n")
            let second = try client.readLine()
            guard first.prefix(while: { $0 != "." }) == second.prefix(while: { $0 != "." }) else { continue }
            sameSecond += 1
            #expect(first != second, "two requests in one second got the same fraction: \(first)")
        }
        #expect(sameSecond > 0)
    }

    /// `faketime TIME` reads TIME in the zone of the process it starts.
    static func localStart(utc: String, zone: String) -> String {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let printer = DateFormatter()
        printer.locale = Locale(identifier: "en_US_POSIX")
        printer.timeZone = TimeZone(identifier: zone)
        printer.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return parser.date(from: utc).map(printer.string(from:)) ?? utc
    }
}
