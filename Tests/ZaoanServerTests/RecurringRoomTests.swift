import Foundation
import Testing

/// `live add ID START TITLE repeat=RULE`: recurring rooms through the real service, with
/// the same engine as calendar files (ZaoanRecurrence, zaoan's own RFC 5545/7529 engine).
@Suite("Recurring rooms")
struct RecurringRoomTests {
    @Test("a 07:00 daily room in Berlin stays at 07:00 across the change to summer time; countdown and the ticker take the next occurrence")
    func dailyAcrossDST() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-03-27 11:00:00"  // UTC: 12:00 in Berlin, Friday
        configuration.arguments = ["--language", "en", "--timezone", "Europe/Berlin"]
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        #expect(try service.ask("live add news 2026-03-27 07:00 Morning news repeat=daily end=+30m") == "ok\n")
        let show = try service.ask("live show news")
        #expect(show.contains("repeat: FREQ=DAILY from 2026-03-27T07:00:00+01:00"), "\(show)")
        #expect(show.contains("next: 2026-03-28T07:00:00+01:00, 2026-03-29T07:00:00+02:00, 2026-03-30T07:00:00+02:00, 2026-03-31T07:00:00+02:00, 2026-04-01T07:00:00+02:00"),
                "07:00 on the wall clock before and after the change: \(show)")
        #expect(show.contains("start: 2026-03-28T07:00:00+01:00"), "the occurrence shown is the next: \(show)")
        let countdown = try service.ask("countdown news")
        #expect(countdown.hasPrefix("starts in 18:5") || countdown.hasPrefix("starts in 19:00"), "to tomorrow 07:00, not to today's past one: \(countdown)")
        let featured = try service.ask("countdown")
        #expect(featured.hasPrefix("Morning news · starts in 1"), "\(featured)")
        let state = try String(contentsOfFile: service.directory.file("state/zaoan/state.json"), encoding: .utf8)
        #expect(state.contains(#""repeat" : "FREQ=DAILY""#), "saved with its rule: \(state)")

        // Skipping a day drops that occurrence only.
        #expect(try service.ask("live skip news 2026-03-29") == "ok\n")
        let skipped = try service.ask("live show news")
        #expect(skipped.contains("skip: 2026-03-29") && skipped.contains("next: 2026-03-28T07:00:00+01:00, 2026-03-30T07:00:00+02:00"),
                "\(skipped)")
        #expect(try String(contentsOfFile: service.directory.file("state/zaoan/state.json"), encoding: .utf8).contains(#""skip" : ["#))
        #expect(try service.ask("live skip news 2026-02-30").hasPrefix("ERR bad-argument 2026-02-30 is not a day"))
        #expect(try service.ask("live skip nosuch 2026-03-30").hasPrefix("ERR not-found"))
        #expect(try service.ask("live add once 2026-03-30 10:00 Once") == "ok\n")
        #expect(try service.ask("live skip once 2026-03-30").hasPrefix("ERR bad-argument room 'once' does not repeat"))
    }

    /// A service in English and UTC whose clock says 2026-12-01 08:00.
    private static func serviceOnDecemberFirst() throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 08:00:00"
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        return try TestService.start(configuration)
    }

    @Test("the ticker shows a recurring room once, at its next occurrence, beside the other rooms")
    func tickerShowsARecurringRoomOnce() throws {
        let service = try Self.serviceOnDecemberFirst()
        defer { try? service.stop() }
        #expect(try service.ask("live add news 2026-12-01 07:00 Morning news repeat=daily end=+30m") == "ok\n")
        #expect(try service.ask("live add talk 2026-12-01 12:00 Talk") == "ok\n")
        var shown: Set<String> = []
        for skip in 0..<4 {
            let answer = try service.ask("--format=i3bar ticker \(skip)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(answer)")
            let text = try #require(object["full_text"] as? String), short = try #require(object["short_text"] as? String)
            #expect(short.hasSuffix("/2"), "the room's place among two, not three (tomorrow's occurrence is no entry): \(short)")
            shown.insert(text)
        }
        #expect(shown.count == 2, "two rooms, two entries, whatever the step: \(shown)")
    }

    @Test("weekdays, an RRULE with COUNT, and rules the engine refuses")
    func rules() throws {
        let service = try Self.serviceOnDecemberFirst()
        defer { try? service.stop() }
        #expect(try service.ask("live add a 2026-12-04 09:00 Standup repeat=weekdays") == "ok\n")  // a Friday
        let show = try service.ask("live show a")
        #expect(show.contains("repeat: FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), "\(show)")
        #expect(try service.ask("live add b 2026-12-01 20:00 Weekly repeat=FREQ=WEEKLY;COUNT=3") == "ok\n")
        let weekly = try service.ask("live show b")
        #expect(weekly.contains("next: 2026-12-01T20:00:00+00:00, 2026-12-08T20:00:00+00:00, 2026-12-15T20:00:00+00:00\n"),
                "three occurrences, then no more: \(weekly)")
        for (rule, says) in [("FREQ=SECONDLY", "never rest"), ("FREQ=WEEKLY;BYDAY=XX", "repeat=FREQ=WEEKLY;BYDAY=XX"), ("sometimes", "repeat=sometimes")] {
            let answer = try service.ask("live add c 2026-12-01 20:00 T repeat=\(rule)")
            #expect(answer.hasPrefix("ERR bad-argument repeat=") && answer.contains(says), "\(rule): \(answer)")
        }
    }

    @Test("a lunar birthday: repeat=lunar-yearly keeps the Chinese calendar's day (a leap month's in the month of its number), live show names it")
    func lunarBirthday() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2027-09-01 00:00:00"
        configuration.arguments = ["--language", "zh", "--timezone", "Asia/Shanghai"]
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        // 2026-09-25 is 八月十五 (中秋); in 2027 that day is September 15.
        #expect(try service.ask("live add mom 2026-09-25 19:00 妈妈生日 repeat=lunar-yearly") == "ok\n")
        let show = try service.ask("live show mom")
        #expect(show.contains("repeat: RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD from 2026-09-25T19:00:00+08:00\n"), "\(show)")
        #expect(show.contains("lunar: 丙午年八月十五\n"), "\(show)")
        #expect(show.contains("next: 2027-09-15T19:00:00+08:00\n"), "\(show)")
        // Born on 闰六月十五 of 2025 (2025-08-08): 2026 has no leap sixth month, so 六月十五 (July 28)
        // with lunar-yearly's BACKWARD; RFC 7529's default (OMIT) leaves 2026 out.
        #expect(try service.ask("live add leap 2025-08-08 09:00 闰月生日 repeat=FREQ=LUNAR_YEARLY;SKIP=BACKWARD") == "ok\n")
        let leap = try service.ask("live show leap")
        #expect(leap.contains("repeat: RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD from 2025-08-08T09:00:00+08:00\n") && leap.contains("lunar: 乙巳年闰六月十五\n"), "\(leap)")
        let refused = try service.ask("live add x 2026-09-25 19:00 T repeat=RSCALE=CHINESE;FREQ=DAILY;BYMONTHDAY=1")
        #expect(refused.hasPrefix("ERR bad-argument repeat=") && refused.contains("FREQ=YEARLY and MONTHLY"), "\(refused)")
        let state = try String(contentsOfFile: service.directory.file("state/zaoan/state.json"), encoding: .utf8)
        #expect(state.contains(#""repeat" : "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD""#), "saved with its rule: \(state)")
    }

    @Test("an unquoted unknown key=value is an error naming the options; quoted, it is part of the title")
    func unknownKeys() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let typo = try service.ask("live add x 20:00 Title repet=daily")
        #expect(typo.hasPrefix("ERR bad-argument live add has no option 'repet='; its options are end=, desc=, viewers=, repeat="), "\(typo)")
        #expect(try service.ask(#"live add y 20:00 Title "repet=daily" and "a=b""#) == "ok\n")
        #expect(try service.ask("live show y").contains("title: Title repet=daily and a=b"))
        #expect(try service.ask("live add z 20:00 E=mc2 and 1+1=2 a_b=c") == "ok\n", "only keys of lowercase letters are taken for options")
    }

    @Test("a state file whose rule the engine does not take drops that room and keeps the others")
    func hostileStateRule() throws {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        configuration.beforeStart = { directory, _ in
            try directory.makeDirectory("state/zaoan")
            try directory.write("state/zaoan/state.json", """
                {"version": 1, "rooms": [
                  {"id": "fast", "title": "a", "start": 1800000000, "repeat": "FREQ=SECONDLY"},
                  {"id": "junk", "title": "b", "start": 1800000000, "repeat": "FREQ=DAILY;\\u001b[2J"},
                  {"id": "typed", "title": "c", "start": 1800000000, "repeat": "daily"},
                  {"id": "good", "title": "d", "start": 1800000000, "repeat": "FREQ=WEEKLY"}
                ]}
                """)
        }
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        let list = try service.ask("live list")
        #expect(list.contains("good") && !list.contains("fast") && !list.contains("junk") && !list.contains("typed"), "\(list)")
        #expect(service.stderrText.contains("'repeat' is not a rule zaoan writes"), "\(service.stderrText)")
    }
}
