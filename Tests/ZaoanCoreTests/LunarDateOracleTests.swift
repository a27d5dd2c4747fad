import Foundation
import Testing
import ZaoanAlmanac

/// Every day of 1901–2100 against lunar-python (Tests/Oracles/lunar_dates.py, from PyPI):
/// the 寿星万年历 algorithms, with its own lunar theory, ΔT and, before 1960, corrections
/// taken from the almanacs actually published.
@Suite("Lunar dates against lunar-python")
struct LunarDateOracleTests {
    @Test("every day of 1901–2100: year, month, leap month and day")
    func everyDayOf1901To2100() throws {
        let oracle = try OracleScript("lunar_dates.py", ["1901", "2100"])
        let almanac = Almanac()
        let first = CivilDay(year: 1901, month: 1, day: 1)
        let last = CivilDay(year: 2100, month: 12, day: 31)
        var ours: [LunarDate] = []
        for number in first.daysSince1970...last.daysSince1970 {
            ours.append(almanac.lunarDate(on: CivilDay(daysSince1970: number)))
        }

        let lines = try oracle.lines()
        #expect(lines.count == ours.count, "lunar-python gave \(lines.count) days, expected \(ours.count)")
        var differing: [String] = []
        for (line, date) in zip(lines, ours) {
            // `YYYY-MM-DD CYCLE MONTH LEAP DAY`
            let fields = line.split(separator: " ")
            let here = "\(date.cycleYear) \(date.month) \(date.isLeapMonth ? 1 : 0) \(date.day)"
            let there = fields.dropFirst().joined(separator: " ")
            if here != there { differing.append("\(fields[0]): \(here) here, \(there) in lunar-python") }
        }
        print("lunar dates 1901–2100: \(lines.count) days compared with lunar-python, \(differing.count) differ")
        #expect(differing.isEmpty, "\(differing.count) days differ: \(differing.prefix(40).joined(separator: "; "))")
    }
}
