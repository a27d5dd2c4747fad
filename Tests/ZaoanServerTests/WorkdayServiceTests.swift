import Foundation
import Testing

/// China's workdays through the real binary: `month YYYY-MM days`' KIND column against
/// chinesecalendar (an independent transcription of the State Council's notices) for every
/// year both have, `{workday}`, the holidays in `schedule`, and `workdays_extra`.
@Suite("China's workdays through the service")
struct WorkdayServiceTests {
    /// The oracle's kind of every day it has, by date.
    static func oracle() throws -> [String: String] {
        let output = try Oracle.run("china_workdays.py")
        var kinds: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2 { kinds[String(fields[0])] = String(fields[1]) }
        }
        return kinds
    }

    /// Every day 2004–2026, compared. Whether a day is worked must agree everywhere; the
    /// known differences of wording are the weekend days beside a one-day holiday that a
    /// notice joins to the weekend without counting them (2024: "6月10日放假，与周末连休"):
    /// python-holidays' days make them part of the break (holiday), chinesecalendar leaves
    /// them weekend days; and 2005-12-31, a Saturday the 2006 notice made a workday
    /// ("12月31日（星期六）上班"), which chinesecalendar lacks.
    @Test("month days' KIND is chinesecalendar's for every day of 2004–2026, but for the documented differences")
    func kindsMatchChineseCalendar() throws {
        let expected = try Self.oracle()
        try #require(expected.count > 8_000)
        let service = try MonthServiceTests.start(at: "2026-12-06 10:00:00")
        defer { try? service.stop() }
        var ours: [String: String] = [:]
        for year in 2004...2026 {
            for month in 1...12 {
                let answer = try service.ask("month \(year)-\(month < 10 ? "0" : "")\(month) days")
                for line in MonthServiceTests.grid(answer) {
                    let fields = line.split(separator: "\t")
                    try #require(fields.count == 5, "\(line)")
                    ours[String(fields[0])] = String(fields[3])
                }
            }
        }
        #expect(ours.count == expected.count)
        var edges: [String] = []
        var unexplained: [String] = []
        for (date, kind) in expected.sorted(by: { $0.key < $1.key }) where ours[date] != kind {
            let mine = ours[date] ?? "?"
            if date == "2005-12-31", kind == "weekend", mine == "makeup-workday" { continue }
            if kind == "weekend", mine == "holiday" {
                edges.append(date)
            } else {
                unexplained.append("\(date): zaoan \(mine), chinesecalendar \(kind)")
            }
        }
        #expect(unexplained.isEmpty, "\(unexplained)")
        // Each such weekend day is next to a day both call a holiday, or to another such day.
        for date in edges {
            let neighbours = Self.neighbours(date)
            #expect(neighbours.contains { expected[$0] == "holiday" || edges.contains($0) }, "\(date) is not beside a holiday")
        }
        #expect(edges.count == 28, "the edge weekend days: \(edges)")
    }

    static func neighbours(_ date: String) -> [String] {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        guard let day = formatter.date(from: date) else { return [] }
        return [-86_400.0, 86_400].map { formatter.string(from: day.addingTimeInterval($0)) }
    }

    @Test("{workday}: 调休上班 on a make-up workday, 法定假日 · 国庆节 in the break, nothing on other days; other languages too")
    func placeholder() throws {
        let cases = [
            ("2026-10-10 09:00:00", "zh", "[调休上班]\n"),
            ("2026-10-03 09:00:00", "zh", "[法定假日 · 国庆节]\n"),
            ("2026-10-12 09:00:00", "zh", "[]\n"),
            ("2026-02-17 09:00:00", "zh-Hant", "[法定假日 · 春節]\n"),
            ("2026-10-10 09:00:00", "en", "[Make-up workday]\n"),
            ("2026-05-01 09:00:00", "de", "[Gesetzlicher Feiertag · Tag der Arbeit]\n"),
        ]
        for (time, language, expected) in cases {
            let service = try MonthServiceTests.start(at: time, language: language,
                                                      config: #"{"status_template": "[{workday}]", "workdays": "cn"}"#)
            #expect(try service.ask("status") == expected, "\(time) \(language): \(service.stderrText)")
            try service.stop()
        }
        // Off by default outside Chinese in China's zone.
        let english = try MonthServiceTests.start(at: "2026-10-10 09:00:00", language: "en", config: #"{"status_template": "[{workday}]"}"#)
        defer { try? english.stop() }
        #expect(try english.ask("status") == "[]\n")
    }

    @Test("schedule lists the holidays as all-day events of holiday-cn; countdown does not count down to them")
    func schedule() throws {
        let service = try MonthServiceTests.start(at: "2026-09-28 09:00:00")
        defer { try? service.stop() }
        let answer = try service.ask("schedule 168")
        #expect(answer == "2026-10-01T00:00:00+08:00\t2026-10-08T00:00:00+08:00\tholiday-cn\t国庆节\n\n", "\(answer)")
        #expect(try service.ask("countdown") == "\n")
        #expect(try service.ask("schedule 168 calendar=holiday-cn") == answer, "the source alone")
        #expect(try service.ask("schedule 168 calendar=live") == "\n")
    }

    @Test("workdays_extra adds a year the table lacks; a bad date or word is named and left out")
    func extra() throws {
        let config = #"{"workdays_extra": {"2027-02-06": "makeup-workday", "2027-02-10": "spring-festival", "2027-02-30": "workday", "2027-03-01": "holiday"}}"#
        let service = try MonthServiceTests.start(at: "2026-12-06 10:00:00", config: config)
        defer { try? service.stop() }
        let days = try service.ask("month 2027-02 days")
        #expect(days.contains("2027-02-06\t") && days.contains("\tmakeup-workday\t0\n"), "\(days)")
        #expect(MonthServiceTests.grid(days).first { $0.hasPrefix("2027-02-10\t") }?.contains("\tholiday\t") == true)
        #expect(MonthServiceTests.grid(days).first { $0.hasPrefix("2027-03-01") } == nil)
        let check = try service.zaoan(["check-config", service.configPath])
        #expect(check.errorOutput.contains("'2027-02-30' is not a date"), "\(check)")
        #expect(check.errorOutput.contains("'holiday' is none of"), "\(check)")
    }
}
