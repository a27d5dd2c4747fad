import Foundation
import Testing

/// The greeting at a known instant: the real binary under `faketime TIME`. The fake clock
/// starts at TIME and keeps running; every case starts at least a minute before the next
/// boundary, which leaves time to start the server.
@Suite("Greetings at faked times")
struct GreetingClockTests {
    @Test("early morning in Beijing: 早安·北京, and other cities by their own zones")
    func beijingMorning() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 07:30:00"
        configuration.environment["TZ"] = "Asia/Shanghai"
        configuration.arguments = ["--language", "zh", "--city", "北京"]
        let service = try TestService.start(configuration)
        #expect(try service.ask("greeting") == "早安·北京\n", "stderr: \(service.stderrText)")
        #expect(try service.ask("time yyyy-MM-dd HH:mm").hasPrefix("2026-12-01 07:3"))
        #expect(try service.ask("time %Y-%m-%d").hasPrefix("2026-12-01"))
        #expect(try service.ask("greeting 东京") == "早安·东京\n")      // 08:30
        #expect(try service.ask("greeting 纽约") == "晚上好·纽约\n")    // 18:30 the day before
        #expect(try service.ask("greeting London") == "晚安·伦敦\n")   // 23:30 the day before; a built-in city in zh (issue 33)
        try service.stop()
    }

    struct Case: CustomStringConvertible, Sendable {
        /// Start of the fake clock, in UTC.
        let utc: String
        let arguments: [String]
        let expected: String
        var description: String { "\(utc)Z \(arguments.joined(separator: " ")) → \(expected)" }
    }

    static let boundaries: [Case] = [
        // Europe/Berlin is UTC+2 in June: 09:59Z is 11:59 there.
        Case(utc: "2026-06-15 09:59:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good morning · Berlin"),
        Case(utc: "2026-06-15 10:00:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good afternoon · Berlin"),
        Case(utc: "2026-06-15 15:59:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good afternoon · Berlin"),
        Case(utc: "2026-06-15 16:00:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good evening · Berlin"),
        Case(utc: "2026-06-15 20:59:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good evening · Berlin"),
        Case(utc: "2026-06-15 21:00:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good night · Berlin"),
        Case(utc: "2026-06-15 02:59:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good night · Berlin"),
        Case(utc: "2026-06-15 03:00:00", arguments: ["--language", "en", "--timezone", "Europe/Berlin"], expected: "Good morning · Berlin"),
        // Beijing is UTC+8 all year.
        Case(utc: "2026-12-01 02:59:00", arguments: ["--language", "zh", "--city", "北京"], expected: "早安·北京"),
        Case(utc: "2026-12-01 03:00:00", arguments: ["--language", "zh", "--city", "北京"], expected: "午安·北京"),
        Case(utc: "2026-12-01 05:59:00", arguments: ["--language", "zh", "--city", "北京"], expected: "午安·北京"),
        Case(utc: "2026-12-01 06:00:00", arguments: ["--language", "zh", "--city", "北京"], expected: "下午好·北京"),
        Case(utc: "2026-12-01 14:59:00", arguments: ["--language", "zh", "--city", "北京"], expected: "晚上好·北京"),
        Case(utc: "2026-12-01 15:00:00", arguments: ["--language", "zh", "--city", "北京"], expected: "晚安·北京"),
        Case(utc: "2026-11-30 20:59:00", arguments: ["--language", "zh", "--city", "北京"], expected: "晚安·北京"),
        Case(utc: "2026-11-30 21:00:00", arguments: ["--language", "zh", "--city", "北京"], expected: "早安·北京"),
    ]

    @Test("greeting on both sides of a boundary", arguments: boundaries)
    func boundary(_ testCase: Case) throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = testCase.utc
        configuration.environment["TZ"] = "UTC"
        configuration.arguments = testCase.arguments
        let service = try TestService.start(configuration)
        #expect(try service.ask("greeting") == testCase.expected + "\n", "stderr: \(service.stderrText)")
        try service.stop()
    }

    @Test("the language follows LANG when neither config nor flag sets it")
    func languageFromEnvironment() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 07:30:00"
        configuration.environment["TZ"] = "Asia/Shanghai"
        configuration.environment["LANG"] = "zh_CN.UTF-8"
        configuration.arguments = ["--city", "北京"]
        let chinese = try TestService.start(configuration)
        #expect(try chinese.ask("greeting") == "早安·北京\n")
        try chinese.stop()

        configuration.environment["LANG"] = "C.UTF-8"
        configuration.arguments = ["--city", "Beijing"]
        let english = try TestService.start(configuration)
        #expect(try english.ask("greeting") == "Good morning · Beijing\n")
        try english.stop()
    }
}
