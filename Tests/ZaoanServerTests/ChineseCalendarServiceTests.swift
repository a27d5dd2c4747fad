import Foundation
import Testing
import ZaoanCore

/// The Chinese calendar through the real binary at a faked instant: `status` with
/// `{solar_term}` on the morning of 冬至 2026 (PyEphem: 2026-12-21 20:49:59 UTC, i.e. 04:49
/// on the 22nd in Beijing), and `{lunar}` against lunar-python.
@Suite("Chinese calendar through the service")
struct ChineseCalendarServiceTests {
    func start(template: String, at time: String = "2026-12-22 07:30:00") throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.fakeTime = time
        configuration.environment["TZ"] = "Asia/Shanghai"
        configuration.arguments = ["--language", "zh", "--city", "北京"]
        configuration.config = #"{"status_template": "\#(template)"}"#
        return try TestService.start(configuration)
    }

    @Test("早安·北京 · 冬至 on the morning of 2026-12-22 in Beijing")
    func solsticeMorning() throws {
        let service = try start(template: "{greeting} · {solar_term}")
        #expect(try service.ask("status") == "早安·北京 · 冬至\n", "stderr: \(service.stderrText)")
        try service.stop()
    }

    @Test("{lunar} is lunar-python's date of the day; {next_solar_term} the next term")
    func lunarDate() throws {
        let oracle = try Oracle.run("lunar_dates.py", ["2026", "2026"])
        let line = try #require(oracle.split(separator: "\n").first { $0.hasPrefix("2026-12-22 ") })
        let fields = line.split(separator: " ").compactMap { Int($0) }  // CYCLE MONTH LEAP DAY
        try #require(fields.count == 4)
        // The lunar year of that cycle number that began near 2026.
        let relatedYear = 2026 - ((2026 - 4 - (fields[0] - 1)) % 60 + 60) % 60
        let expected = LunarDate(relatedYear: relatedYear, month: fields[1], isLeapMonth: fields[2] == 1, day: fields[3]).chineseText
        #expect(expected == "丙午年冬月十四")

        let service = try start(template: "{lunar} · {next_solar_term}")
        #expect(try service.ask("status") == "\(expected) · 小寒 1月5日\n", "stderr: \(service.stderrText)")
        try service.stop()
    }

    /// `time PATTERN calendar=chinese`: an LDML pattern in ICU's Chinese calendar, days in
    /// Chinese numerals, here or in another zone; strftime is refused with it.
    @Test("time calendar=chinese: lunar dates through an LDML pattern")
    func chineseTime() throws {
        let service = try start(template: "{greeting}")
        defer { try? service.stop() }
        // 2026-12-22 is the 14th day of the 11th month of 丙午 (lunar-python; LunarDateOracleTests).
        #expect(try service.ask("time calendar=chinese") == "丙午年冬月十四\n", "stderr: \(service.stderrText)")
        #expect(try service.ask("time U年MMMd calendar=chinese") == "丙午年冬月十四\n")
        #expect(try service.ask("time MMMd calendar=chinese @America/New_York") == "冬月十三\n")  // still the 21st there
        #expect(try service.ask("time %Y calendar=chinese").hasPrefix("ERR bad-argument calendar=chinese takes an LDML pattern"))
        let english = try TestService.start(arguments: ["--language", "en", "--timezone", "Asia/Shanghai"])
        defer { try? english.stop() }
        #expect(try english.ask("time calendar=chinese").wholeMatch(of: /Year of [a-z]+-[a-z]+, month \d+, day \d+\n/) != nil)
    }

    /// `TZ=UTC date +%Z` says UTC; Foundation names the zone `UTC` "GMT", which zaoan does
    /// not pass on.
    @Test("%Z of the zone UTC is UTC, of GMT is GMT")
    func utcAbbreviation() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        #expect(try service.ask("time %Z") == "UTC\n")
        #expect(try service.ask("time %Z @UTC") == "UTC\n")
        #expect(try service.ask("time %Z @GMT") == "GMT\n")
        #expect(try service.ask("time %Z @协调世界时") == "UTC\n")
    }

    @Test("docs list every status_template placeholder")
    func placeholdersDocumented() throws {
        for document in ["docs/protocol.md", "docs/man/zaoan.conf.5.scd", "docs/configuration.md"] {
            let text = try String(contentsOfFile: Locations.packageRoot + "/" + document, encoding: .utf8)
            for name in Responder.statusPlaceholders {
                #expect(text.contains("{\(name)}"), "\(document) does not mention {\(name)}")
            }
        }
    }
}
