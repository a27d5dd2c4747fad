import Foundation
import Testing
import ZaoanAlmanac

/// `month` through the real binary at faked instants (faketime): the grid's layout, its week
/// numbers against Foundation's calendars, its lunar days against lunar-python, today at odd
/// instants (New Year's Eve, the first second of a year, DST changes), a leap month, a solar
/// term a minute before midnight, and bad input.
@Suite("month: the grid through the service")
struct MonthServiceTests {
    static func start(at time: String, zone: String = "Asia/Shanghai", language: String = "zh", config: String? = nil) throws -> TestService {
        try TestService.start(at: time, zone: zone, language: language, config: config)
    }

    /// The grid's lines, without the empty line that ends the answer.
    static func grid(_ answer: String) -> [String] {
        var lines = answer.components(separatedBy: "\n")
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The week rows: the lines that start with a week number.
    static func weekRows(_ lines: [String]) -> [(number: Int, days: [Int], line: String)] {
        lines.compactMap { line in
            // `49 ` and a day's cell (` ` or `[`); a note (`22 冬至`) has text there.
            let characters = Array(line)
            guard characters.count > 4, characters[2] == " ", characters[3] == " " || characters[3] == "[",
                  let number = Int(line.prefix(2).trimmingCharacters(in: .whitespaces)) else { return nil }
            let days = line.dropFirst(3).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return (number, days, line)
        }
    }

    @Test("zh: 2026年12月 from Monday, ISO weeks 49–53, today [ 6], lunar days under the days, 冬月 on its 初一, notes for 大雪 and 冬至")
    func chineseGrid() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        let answer = try service.ask("month")
        #expect(answer.hasSuffix("\n\n"), "a multi-line answer ends with an empty line")
        let lines = Self.grid(answer)
        #expect(lines[0].trimmingCharacters(in: .whitespaces) == "2026年12月", "\(answer)")
        #expect(lines[1].hasPrefix("    周一") && lines[1].trimmingCharacters(in: .whitespaces).hasSuffix("周日"), "\(lines[1])")
        let rows = Self.weekRows(lines)
        #expect(rows.map(\.number) == [49, 50, 51, 52, 53])
        #expect(rows[0].line.hasSuffix("[ 6]"), "today is marked: \(rows[0].line)")
        // Under each week row, its days' lunar names: 2026-12-09 is 冬月初一 (lunar-python).
        let second = try #require(lines.firstIndex(of: rows[1].line))
        #expect(lines[second + 1].contains("冬月"), "\(lines[second + 1])")
        #expect(lines.contains("7 大雪") && lines.contains("22 冬至"), "\(lines.suffix(3))")
        // English has no lunar line and starts on Sunday (CLDR 47, US).
        let english = try Self.start(at: "2026-12-06 10:00:00", language: "en")
        defer { try? english.stop() }
        let en = Self.grid(try english.ask("month"))
        #expect(en[0].trimmingCharacters(in: .whitespaces) == "December 2026")
        #expect(en[1] == "    Su   Mo   Tu   We   Th   Fr   Sa", "\(en[1])")
        #expect(Self.weekRows(en).first { $0.days.contains(6) }?.line == "50 [ 6]   7    8    9   10   11   12")
    }

    @Test("week numbers: ISO 8601 in a Monday grid (de), the US rule in a Sunday grid (en), as Foundation's calendars count them, 2020–2031")
    func weekNumbers() throws {
        for (language, firstWeekday, minimumDays) in [("de", 2, 4), ("en", 1, 1)] {
            let service = try Self.start(at: "2026-12-06 10:00:00", zone: "UTC", language: language)
            defer { try? service.stop() }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            calendar.firstWeekday = firstWeekday
            calendar.minimumDaysInFirstWeek = minimumDays
            var checked = 0
            for year in 2020...2031 {
                for month in 1...12 {
                    let word = "\(year)-\(month < 10 ? "0" : "")\(month)"
                    for row in Self.weekRows(Self.grid(try service.ask("month \(word)"))) {
                        let day = try #require(row.days.first)
                        let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
                        let expected = calendar.component(.weekOfYear, from: date)
                        #expect(row.number == expected, "\(language) \(word): \(row.line)")
                        #expect(calendar.component(.weekday, from: date) == firstWeekday || day == 1, "\(language) \(word): a row starts on the week's first day")
                        checked += 1
                    }
                }
            }
            #expect(checked > 700)
        }
    }

    @Test("month days: every day's lunar month and day are lunar-python's, 2025–2026 (闰六月 included)")
    func lunarDaysMatchLunarPython() throws {
        let oracle = try Oracle.run("lunar_dates.py", ["2025", "2026"])
        var expected: [String: String] = [:]
        for line in oracle.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 5, let month = Int(fields[2]), let leap = Int(fields[3]), let day = Int(fields[4]) else { continue }
            let date = LunarDate(relatedYear: 2026, month: month, isLeapMonth: leap == 1, day: day)
            expected[String(fields[0])] = String(date.chineseText.dropFirst(3))  // 丙午年冬月十四 → 冬月十四
        }
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        var compared = 0
        for year in 2025...2026 {
            for month in 1...12 {
                let answer = try service.ask("month \(year)-\(month < 10 ? "0" : "")\(month) days")
                for line in Self.grid(answer) {
                    let fields = line.split(separator: "\t").map(String.init)
                    try #require(fields.count == 5, "\(line)")
                    #expect(fields[1] == expected[fields[0]], "\(fields[0]): zaoan \(fields[1]), lunar-python \(expected[fields[0]] ?? "?")")
                    compared += 1
                }
            }
        }
        #expect(compared == 730)
        #expect(try service.ask("month 2025-07 days").contains("2025-07-25\t闰六月初一\t"))
        // In the grid, 闰六月 stands under the 25th.
        let lines = Self.grid(try service.ask("month 2025-07"))
        let row = try #require(Self.weekRows(lines).first { $0.days.contains(25) })
        let index = try #require(lines.firstIndex(of: row.line))
        #expect(lines[index + 1].contains("闰六月"), "\(row.line)\n\(lines[index + 1])")
    }

    @Test("today at odd instants: New Year's Eve, the first seconds of 2027 (still 2026 in UTC), DST changes in New York")
    func todayAtOddInstants() throws {
        let eve = try Self.start(at: "2026-12-31 23:59:30")
        defer { try? eve.stop() }
        #expect(Self.grid(try eve.ask("month")).contains { $0.contains("[31]") })
        #expect(Self.grid(try eve.ask("month @America/New_York")).contains { $0.contains("[31]") })
        let newYear = try Self.start(at: "2027-01-01 00:00:10")
        defer { try? newYear.stop() }
        let january = Self.grid(try newYear.ask("month"))
        #expect(january[0].trimmingCharacters(in: .whitespaces) == "2027年1月" && january.contains { $0.contains("[ 1]") }, "\(january)")
        let utc = Self.grid(try newYear.ask("month @UTC"))
        #expect(utc[0].trimmingCharacters(in: .whitespaces) == "2026年12月" && utc.contains { $0.contains("[31]") }, "\(utc)")
        let before = Self.grid(try newYear.ask("month -1"))
        #expect(before[0].trimmingCharacters(in: .whitespaces) == "2026年12月" && !before.contains { $0.contains("[") })
        #expect(Self.grid(try newYear.ask("month +12"))[0].trimmingCharacters(in: .whitespaces) == "2028年1月")
        // The fake clock runs on: the last half minute of the 25-hour 1 November leaves a
        // loaded machine 30 s to ask before midnight.
        for (time, day) in [("2026-03-08 03:30:00", 8), ("2026-11-01 01:30:00", 1), ("2026-11-01 23:59:30", 1)] {
            let service = try Self.start(at: time, zone: "America/New_York", language: "en")
            defer { try? service.stop() }
            let marked = day < 10 ? "[ \(day)]" : "[\(day)]"
            #expect(Self.grid(try service.ask("month")).contains { $0.contains(marked) }, "\(time): \(marked)")
        }
    }

    @Test("a solar term a minute before midnight in China (冬至 2021-12-21 23:59:07) is on the 21st, in China and in Tokyo")
    func solarTermNearMidnight() throws {
        let service = try Self.start(at: "2021-12-21 23:59:30")
        defer { try? service.stop() }
        for request in ["month days", "month @Asia/Tokyo days"] {
            let lines = Self.grid(try service.ask(request))
            #expect(lines.contains { $0.hasPrefix("2021-12-21\t") && $0.contains("\t冬至\t") }, "\(request)")
            #expect(lines.contains { $0.hasPrefix("2021-12-22\t") && $0.contains("\t-\t") }, "\(request)")
        }
        #expect(Self.grid(try service.ask("month")).contains("21 冬至"))
    }

    @Test("bad months get a clear error and change nothing")
    func badInput() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        let grid = try service.ask("month")
        let cases = [
            ("month 2026-13", "ERR bad-argument month 2026-13: the month is 01 to 12"),
            ("month 99999-01", "ERR bad-argument month 99999-01: the year is 1901 to 2100"),
            ("month +100000", "ERR bad-argument month +100000: a step is +N or -N months"),
            ("month +1201", "ERR bad-argument month +1201: a step is at most 1200 months"),
            ("month +1200", "ERR bad-argument month +1200 is 2126-12, outside 1901-01 to 2100-12"),
            ("month -1200", "ERR bad-argument month -1200 is 1926-12"),
            ("month 2026-1", "ERR bad-argument month 2026-1: give YYYY-MM"),
            ("month 2026-12 2027-01", "ERR bad-argument usage: month"),
            ("month days days", "ERR bad-argument usage: month"),
            ("month 1900-12", "ERR bad-argument month 1900-12: the year is 1901 to 2100"),
            ("month -0x10", "ERR bad-argument month -0x10: a step is +N or -N months"),
        ]
        for (request, prefix) in cases {
            let answer = try service.ask(request)
            if prefix == "ERR bad-argument month -1200 is 1926-12" {
                #expect(!answer.hasPrefix("ERR"), "-1200 from 2026-12 is 1926-12, inside the years: \(answer)")
                continue
            }
            #expect(answer.hasPrefix(prefix), "\(request): \(answer)")
        }
        #expect(try service.ask("month") == grid, "nothing changed")
        #expect(try service.ask("ping") == "pong\n")
    }

    @Test("waybar: the grid as the tooltip's Pango markup (Pango parses it), the title and today's week as the text; i3bar the same line")
    func bars() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        let json = try service.ask("--format=json month")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "2026年12月", "\(json)")
        let tooltip = try #require(object["tooltip"] as? String)
        // Chinese in the monospace CJK fonts Debian ships, before monospace; English in <tt>.
        #expect(tooltip.hasPrefix(#"<span font_family="Noto Sans Mono CJK SC,WenQuanYi Zen Hei Mono,monospace">"#) && tooltip.hasSuffix("</span>"), "\(tooltip.prefix(80))")
        #expect(tooltip.contains("[<b> 6</b>]"), "today bold")
        #expect(tooltip.contains("<span foreground=\"#e05561\"> 5</span>"), "a Saturday red")
        let i3bar = try service.ask("--format=i3bar month")
        #expect(i3bar.contains(#""full_text":"2026年12月 · W49 1 2 3 4 5 [6]""#), "\(i3bar)")
        // Pango itself, as waybar uses it, parses the markup of every language.
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let check = "import sys; from gi.repository import Pango; Pango.parse_markup(sys.stdin.read(), -1, '\\0'); print('ok')"
        for language in ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"] {
            let other = try Self.start(at: "2026-02-17 10:00:00", language: language, config: #"{"lunar": true, "workdays": "cn"}"#)
            defer { try? other.stop() }
            let answer = try other.ask("--format=json month")
            let markup = try #require((try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])?["tooltip"] as? String)
            let parsed = try Tool.run("/usr/bin/python3", ["-c", check], stdin: Data(markup.utf8), environment: Tool.baseEnvironment(home: scratch.path),
                                      timeout: 30, scratch: scratch)
            #expect(parsed.output == "ok\n", "\(language): \(parsed)")
        }
    }

    @Test("zaoan cal: the grid in a terminal, coloured on a tty (script), plain through a pipe; month steps as arguments")
    func cal() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        let plain = try service.zaoan(["cal", "--socket", service.socketPath, "-1"])
        #expect(plain.status == 0, "\(plain)")
        let grid = Self.grid(try service.ask("month -1")).joined(separator: "\n") + "\n"
        let trimmed = plain.output.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
        #expect(trimmed == grid, "\(plain.output)")
        #expect(!plain.output.contains("\u{1B}"))
        let tty = try service.run("/usr/bin/script", ["-qec", "\(Locations.zaoan) cal --socket \(service.socketPath)", "/dev/null"])
        #expect(tty.status == 0 && tty.output.contains("\u{1B}[1m") && tty.output.contains("2026年12月"), "\(tty)")
        let refused = try service.zaoan(["cal", "--socket", service.socketPath, "2026-13"])
        #expect(refused.status == 1 && refused.errorOutput.contains("the month is 01 to 12"), "\(refused)")
    }

    @Test("zaoan click steps a month watch: wheel up the next month, wheel down the previous, middle back to this one")
    func clicks() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "--format", "json", "month"],
                                     environment: service.environment, scratch: service.directory)
        defer { _ = watch.terminate() }
        #expect(watch.line(within: 10) { $0.contains("2026年12月") } != nil, "\(watch.errorText)")
        for (button, title) in [("wheel-up", "2027年1月"), ("wheel-down", "2026年12月"), ("wheel-down", "2026年11月"), ("middle", "2026年12月")] {
            // The watch's FIFO is there once it listens; a click before then reaches nobody.
            #expect(eventually(timeout: 10, interval: 0.05) { (try? service.zaoan(["click", "month", button]))?.status == 0 })
            #expect(watch.line(within: 10) { $0.contains("\"text\":\"\(title)\"") } != nil, "\(button) → \(title): \(watch.lines.suffix(1)) \(watch.errorText)")
        }
    }

    @Test("week_start and lunar override the language's defaults; a bad week_start is named and the default kept")
    func settings() throws {
        let service = try Self.start(at: "2026-12-06 10:00:00", config: #"{"week_start": "sunday", "lunar": false, "workdays": "none"}"#)
        defer { try? service.stop() }
        let lines = Self.grid(try service.ask("month"))
        #expect(lines[1].trimmingCharacters(in: .whitespaces).hasPrefix("周日"), "\(lines[1])")
        #expect(!lines.contains { $0.contains("冬月") }, "no lunar line")
        let english = try Self.start(at: "2026-12-06 10:00:00", language: "en", config: #"{"week_start": "monday", "lunar": true}"#)
        defer { try? english.stop() }
        let en = Self.grid(try english.ask("month"))
        #expect(en[1].trimmingCharacters(in: .whitespaces).hasPrefix("Mo"))
        #expect(en.contains { $0.contains("11/1") }, "the lunar 11th month's first day, in numbers: \(en)")
        let check = try english.zaoan(["check-config", english.configPath])
        #expect(check.status == 0, "\(check)")
        try english.stop()
        let bad = try Self.start(at: "2026-12-06 10:00:00", config: #"{"week_start": "Moonday"}"#)
        defer { try? bad.stop() }
        #expect(Self.grid(try bad.ask("month"))[1].hasPrefix("    周一"))
        let refused = try bad.zaoan(["check-config", bad.configPath])
        #expect(refused.errorOutput.contains("week_start") && refused.errorOutput.contains("'Moonday' is not \"monday\", \"sunday\" or \"saturday\""), "\(refused)")
    }
}
