import Foundation
import Testing
import ZaoanCore

/// The festivals through the real binary at a faked instant (faketime): `{festival}` and
/// `{next_festival}` in `status`, and `"festivals": true` putting them in `schedule` and
/// `countdown` as all-day events on the configured zone's dates. The days are lunar-python's
/// (FestivalOracleTests checks every festival of 1901–2100): 除夕 2027-02-05 (the 12th month
/// of 丙午 has 29 days), 春节 02-06, 元宵 02-20, 冬至 2026-12-22.
@Suite("Festivals through the service")
struct FestivalServiceTests {
    func start(at time: String, zone: String = "Asia/Shanghai", language: String = "zh", config: String) throws -> TestService {
        try TestService.start(at: time, zone: zone, language: language, config: config)
    }

    @Test("{festival} on 除夕 (a 29th) and 春节, {next_festival} the one after; empty on other days")
    func placeholders() throws {
        let template = #"{"status_template": "[{festival}] {next_festival}"}"#
        let cases = [
            ("2027-02-05 07:30:00", "zh", "[除夕] 春节 还有1天\n"),
            ("2027-02-06 07:30:00", "zh", "[春节] 元宵 还有14天\n"),
            ("2027-02-06 07:30:00", "en", "[Spring Festival] Lantern Festival in 14 days\n"),
            ("2026-12-02 07:30:00", "zh", "[] 冬至 还有20天\n"),
            ("2026-12-02 07:30:00", "en", "[] Winter Solstice in 20 days\n"),
            ("2027-02-05 07:30:00", "en", "[Chinese New Year's Eve] Spring Festival in 1 day\n"),
        ]
        for (time, language, expected) in cases {
            let service = try start(at: time, language: language, config: template)
            #expect(try service.ask("status") == expected, "\(time) \(language); stderr: \(service.stderrText)")
            try service.stop()
        }
    }

    @Test("festivals: true makes 除夕 and 春节 all-day events of schedule and countdown; without it, nothing")
    func scheduleAndCountdown() throws {
        let service = try start(at: "2027-02-05 07:30:00", config: #"{"festivals": true}"#)
        #expect(try service.ask("schedule 48") == """
            2027-02-05T00:00:00+08:00\t2027-02-06T00:00:00+08:00\tfestival\t除夕
            2027-02-06T00:00:00+08:00\t2027-02-07T00:00:00+08:00\tfestival\t春节


            """, "stderr: \(service.stderrText)")
        // calendar=festival: the festivals alone (issue 33).
        #expect(try service.ask("live add tea +1h Tea") == "ok\n")
        #expect(try service.ask("schedule 48 calendar=festival").components(separatedBy: "\tfestival\t").count == 3)
        #expect(!(try service.ask("schedule 48 calendar=festival")).contains("Tea"))
        #expect(try service.ask("live rm tea") == "ok\n")
        // 除夕 is on now (since midnight), so countdown features it.
        #expect(try service.ask("countdown").hasPrefix("除夕 · 进行中 07:3"))  // a festival is no broadcast (issue 33; was 直播中)
        #expect(try service.ask("--format=json countdown").contains(#""tooltip":"除夕\n2027-02-05 00:00–2027-02-06 00:00\n丙午年腊月廿九""#))
        try service.stop()

        let without = try start(at: "2027-02-05 07:30:00", config: #"{"status_template": "{greeting}"}"#)
        #expect(try without.ask("schedule 48") == "\n")
        #expect(try without.ask("countdown") == "\n")
        try without.stop()
    }

    @Test("a festival is its date on the user's wall clock: 春节 from New York's midnight, a day off China's")
    func userZone() throws {
        // 2027-02-05 20:00 in New York is already 春节 (02-06 09:00) in China; the event
        // still starts at New York's midnight, and {festival} names the user's own date.
        let service = try start(at: "2027-02-05 20:00:00", zone: "America/New_York", language: "en",
                                config: #"{"festivals": true, "status_template": "[{festival}] {next_festival}"}"#)
        #expect(try service.ask("schedule 30") == """
            2027-02-05T00:00:00-05:00\t2027-02-06T00:00:00-05:00\tfestival\tChinese New Year's Eve
            2027-02-06T00:00:00-05:00\t2027-02-07T00:00:00-05:00\tfestival\tSpring Festival


            """, "stderr: \(service.stderrText)")
        #expect(try service.ask("status") == "[Chinese New Year's Eve] Spring Festival in 1 day\n")
        try service.stop()
    }

    @Test("festivals must be true or false; another value is a problem and the default stands")
    func badValue() throws {
        let service = try start(at: "2027-02-05 07:30:00", config: #"{"festivals": "yes"}"#)
        #expect(try service.ask("schedule 48") == "\n")
        #expect(try service.ask("stats").contains("config key 'festivals': expected true or false (using the default)"),
                "stderr: \(service.stderrText)")
        try service.stop()
    }
}
