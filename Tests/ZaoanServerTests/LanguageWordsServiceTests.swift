import Foundation
import Testing

/// Issue 33's words through the real binary under `faketime`: a calendar event counts down in
/// a calendar's words and a room in a broadcast's; greetings, `ago` and days as CLDR 47 and
/// each language's usage have them; the default clock in the region's hour cycle
/// (docs/languages.md says where each word comes from).
@Suite("Words of every language through the service")
struct LanguageWordsServiceTests {
    /// 2026-12-01 09:00 in Shanghai; the event starts at 10:00 there (02:00Z).
    static let now = "2026-12-01 09:00:00"

    static func service(language: String, zone: String = "Asia/Shanghai", config: String? = nil) throws -> TestService {
        try TestService.start(at: now, zone: zone, language: language, config: config)
    }

    @Test("a calendar event says 距开始 / in progress, a room 距开播 / live, in every language", arguments: [
        ("zh", "距开始 0", "距开播 0", "进行中 00:"),
        ("zh-Hant", "距開始 0", "距開播 0", "進行中 00:"),
        ("en", "starts in 0", "starts in 0", "in progress 00:"),
        ("ja", "開始まで 0", "配信開始まで 0", "進行中 00:"),
        ("ko", "시작까지 0", "방송 시작까지 0", "진행 중 00:"),
        ("de", "beginnt in 0", "beginnt in 0", "läuft 00:"),
        ("fr", "commence dans 0", "commence dans 0", "en cours 00:"),
        ("es", "empieza en 0", "empieza en 0", "en curso 00:"),
    ])
    func eventsAndRooms(language: String, event: String, room: String, eventLive: String) throws {
        let folder = try TemporaryDirectory()
        let ics = folder.file("work.ics")
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN",
                     "BEGIN:VEVENT", "UID:standup", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T020000Z",
                     "DTEND:20261201T030000Z", "SUMMARY:Standup", "END:VEVENT",
                     "BEGIN:VEVENT", "UID:review", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T003000Z",
                     "DTEND:20261201T013000Z", "SUMMARY:Review", "END:VEVENT", "END:VCALENDAR", ""]
        try lines.joined(separator: "\r\n").write(toFile: ics, atomically: true, encoding: .utf8)
        let service = try Self.service(language: language, config: #"{"calendars": ["\#(ics)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("live add tea +2h Tea") == "ok\n", "stderr: \(service.stderrText)")
        let upcoming = try service.ask("countdown calendar:standup")
        #expect(upcoming.hasPrefix(event), "\(upcoming); stderr: \(service.stderrText)")
        let roomText = try service.ask("countdown tea")
        #expect(roomText.hasPrefix(room), "\(roomText)")
        // Review began at 08:30: live for half an hour, in a calendar's words.
        let live = try service.ask("countdown calendar:review")
        #expect(live.hasPrefix(eventLive), "\(live)")
        let list = try service.ask("live list")
        #expect(list.contains("\t" + room) && list.contains("\tTea\n"), "\(list)")
    }

    @Test("greetings: fr Bonjour until 18:00 then Bonsoir; ko 안녕하세요 all day; zh-Hant 午安 and 晚安, never 下午好")
    func greetings() throws {
        let french = try TestService.start(at: "2026-12-01 17:30:00", zone: "Europe/Paris", language: "fr")
        #expect(try french.ask("greeting") == "Bonjour · Paris\n", "stderr: \(french.stderrText)")
        #expect(try french.ask("greeting Londres") == "Bonjour · Londres\n")  // 16:30
        #expect(try french.ask("greeting Moscou") == "Bonsoir · Moscou\n")  // 19:30
        #expect(try french.ask("greeting Tokyo") == "Bonsoir · Tokyo\n")  // 01:30
        try french.stop()

        let korean = try TestService.start(at: "2026-12-01 19:30:00", zone: "Asia/Seoul", language: "ko")
        #expect(try korean.ask("greeting") == "안녕하세요·서울\n", "stderr: \(korean.stderrText)")
        #expect(try korean.ask("greeting 도쿄") == "안녕하세요·도쿄\n")
        #expect(try korean.ask("greeting 모스크바") == "안녕하세요·모스크바\n")  // 13:30
        #expect(try korean.ask("greeting 런던") == "좋은 아침이에요·런던\n")  // 10:30
        try korean.stop()

        let taiwan = try TestService.start(at: "2026-12-01 15:00:00", zone: "Asia/Taipei", language: "zh-TW")
        #expect(try taiwan.ask("greeting") == "午安·臺北\n", "stderr: \(taiwan.stderrText)")
        #expect(try taiwan.ask("greeting 東京") == "午安·東京\n")  // 16:00
        #expect(try taiwan.ask("greeting 莫斯科") == "早安·莫斯科\n")  // 10:00
        #expect(try taiwan.ask("greeting 紐約") == "晚安·紐約\n")  // 02:00
        #expect(try taiwan.ask("greeting 杜拜") == "午安·杜拜\n")  // 11:00
        try taiwan.stop()
    }

    @Test("ago and days as CLDR 47 says them: 20 秒前, 5 分鐘前, dentro de 5 min, 2 T", arguments: [
        ("zh-Hant", "ago 2026-12-01 08:00", "1 小時前\n"),
        // The fake clock runs on from 09:00:00: a future time half a minute past the count
        // leaves a loaded machine 30 s to ask before the count drops to 4.
        ("es", "ago 2026-12-01 09:05:30", "dentro de 5 min\n"),
        ("es", "ago 2026-12-03 09:05", "dentro de 2 días\n"),
        ("fr", "ago 2026-12-01 08:55", "il y a 5\u{00A0}min\n"),
        ("ja", "ago 2026-12-01 09:05:30", "5分後\n"),
        ("de", "ago 2026-12-01 08:55", "vor 5 Min.\n"),
    ])
    func agoWords(language: String, request: String, expected: String) throws {
        let service = try Self.service(language: language)
        defer { try? service.stop() }
        #expect(try service.ask(request) == expected, "stderr: \(service.stderrText)")
    }

    /// Seconds in zh-Hant: 秒 as its minutes are 分鐘 (was 秒鐘). The fake clock runs on, so the
    /// count is 20 or a little more.
    @Test("zh-Hant counts seconds as 20 秒前, like 1 小時前")
    func traditionalSeconds() throws {
        let service = try Self.service(language: "zh-Hant")
        defer { try? service.stop() }
        let answer = try service.ask("ago 2026-12-01 08:59:40")
        let count = answer.wholeMatch(of: /(\d+) 秒前\n/).flatMap { Int($0.1) }
        #expect(count.map { (20...40).contains($0) } == true, "\(answer)")
    }

    @Test("a countdown's days in CLDR's unit: 2 T, 2j, 2d, 2天")
    func countdownDays() throws {
        for (language, expected) in [("de", "beginnt in 2 T 0"), ("fr", "commence dans 2j 0"), ("en", "starts in 2d 0"), ("zh", "距开播 2天 0")] {
            let service = try Self.service(language: language)
            #expect(try service.ask("live add far +50h Far") == "ok\n", "stderr: \(service.stderrText)")
            #expect(try service.ask("countdown far").hasPrefix(expected), "\(language)")
            try service.stop()
        }
    }

    @Test("the default clock: 12-hour in en-US, ko and zh-TW, 24-hour in en-GB and de; hour_cycle overrides", arguments: [
        ("en", nil as String?, "9:00 AM\n"),
        ("en-GB", nil, "09:00\n"),
        ("en-AU", nil, "9:00 AM\n"),  // the region picks the cycle; the words are en-US's
        ("ko", nil, "오전 9:00\n"),
        ("zh-TW", nil, "上午9:00\n"),
        ("zh", nil, "09:00\n"),
        ("ja", nil, "09:00\n"),
        ("de", nil, "09:00\n"),
        ("en", "h23", "09:00\n"),
        ("de", "h12", "9:00\u{202F}AM\n"),
    ])
    func defaultClock(language: String, cycle: String?, expected: String) throws {
        let service = try Self.service(language: language, config: cycle.map { #"{"hour_cycle": "\#($0)"}"# })
        defer { try? service.stop() }
        #expect(try service.ask("time") == expected, "stderr: \(service.stderrText)")
    }

    @Test("a bad hour_cycle costs only itself: file:line:col, did you mean, and the region's cycle stands")
    func badHourCycle() throws {
        let service = try Self.service(language: "en", config: "{\n  \"language\": \"en\",\n  \"hour_cycle\": \"h24\"\n}")
        defer { try? service.stop() }
        #expect(try service.ask("time") == "9:00 AM\n", "stderr: \(service.stderrText)")
        let check = try service.zaoan(["check-config", service.configPath])
        #expect(check.status == 1, "\(check)")
        #expect(check.errorOutput.contains(":3:17: config key 'hour_cycle': 'h24' is not \"h12\" or \"h23\"; did you mean 'h23'? (h12, en-US's, stands)"),
                "\(check)")
    }

    @Test("the committed CLDRWords.swift is what scripts/generate/cldr-words.py makes from Babel 2.17.0 (CLDR 47)")
    func generatedTable() throws {
        let root = Locations.packageRoot
        let result = try Tool.run("/usr/bin/python3", [root + "/scripts/generate/cldr-words.py", root + "/.build/oracle-python"],
                                  environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"], timeout: 120,
                                  scratch: try TemporaryDirectory())
        #expect(result.status == 0, "\(result)")
        let committed = try String(contentsOfFile: root + "/Sources/ZaoanCore/CLDRWords.swift", encoding: .utf8)
        #expect(result.output == committed, "run scripts/generate/cldr-words.py > Sources/ZaoanCore/CLDRWords.swift")
    }

    /// Issue 33 point 8: 20:00 in New York is 09:00 in Shanghai.
    @Test("greeting new york names the built-in city in the configured language, however typed; other places as written", arguments: [
        ("ja", "こんばんは·ニューヨーク\n"), ("zh", "晚上好·纽约\n"), ("zh-Hant", "晚安·紐約\n"), ("ko", "안녕하세요·뉴욕\n"),
        ("en", "Good evening · New York\n"), ("de", "Guten Abend · New York\n"), ("fr", "Bonsoir · New York\n"),
        ("es", "Buenas noches · Nueva York\n"),
    ])
    func typedCity(language: String, expected: String) throws {
        let service = try Self.service(language: language, config: #"{"cities": {"cabin": "America/New_York"}}"#)
        defer { try? service.stop() }
        for typed in ["new york", "NEW YORK", "ニューヨーク", "纽约"] {
            #expect(try service.ask("greeting \(typed)") == expected, "\(typed); stderr: \(service.stderrText)")
        }
        let cabin = try service.ask("greeting cabin")
        #expect(cabin.hasSuffix("cabin\n"), "\(cabin)")
    }
}
