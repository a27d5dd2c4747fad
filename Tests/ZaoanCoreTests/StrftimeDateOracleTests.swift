import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// The strftime engine against GNU `date -d @T +FORMAT` itself, at instants faketime cannot
/// reach: years before 1000, year 0, negative years, 10000 and past, and the ISO-week and
/// century edges, for every conversion with every flag, modifier and a sample of widths,
/// in every language (`Language.allCases`, each in its glibc locale: `DateOracle.localeName`),
/// the eras' first and last days included. Zero differences allowed.
@Suite struct StrftimeDateOracleTests {
    static let letters = Array("aAbBcCdDeFgGhHIjklmMnNpPqrRsStTuUVwWxXyYzZ%")

    /// Every conversion bare, with each flag, with each modifier, and a set of odd ones.
    static let formats: [String] = {
        var formats: [String] = []
        for letter in letters {
            for prefix in ["", "-", "_", "0", "^", "#", "+", "E", "O", "10", "_5", "-3", "+7", "^#12", "03"] {
                formats.append("%" + prefix + String(letter))
            }
        }
        formats += ["%:z", "%::z", "%:::z", "%_:z", "%-::z", "%10:::z", "%E:z", "%_10z", "%+z", "%^#Z", "%10Z", "%_5Oz", "%010Oz",
                    "%12F", "%_12F", "%+12F", "%-12F", "%+6Y", "%+3C", "%_3y", "%+5G", "%-G", "%_4g", "%010T", "%_10D", "%-D",
                    "%+D", "%^c", "%#c", "%020c", "%-N", "%_N", "%3N", "%_12N", "%12N", "%^10p", "%#P", "%^P", "%H'%M", "'%H", "''%H",
                    "%a %b %e %H:%M:%S %Z %Y", "%FT%T%:z", "%l:%M %p", "%k:%M", "W%V", "%s", "%-s", "%_15s", "%Y年%m月%d日", "%Ey|%EC|%EY",
                    "%Oy|%OC|%OG|%Og|%OV|%Od|%Oe|%Ok|%Ol|%Oj|%Ou|%Ow|%OU|%OW|%OH|%OI|%OM|%Om|%OS|%Oz", "%Ob|%OB|%Oh|%Ec|%Ex|%EX|%Er|%Ep"]
        return formats
    }()

    /// (year, month, day, hour): the edges that matter to `%C %y %G %g %V %U %W %j` and to
    /// zero padding.
    static let dates: [(Int, Int, Int, Int)] = [
        (-10001, 6, 15, 12), (-1001, 1, 1, 0), (-401, 12, 31, 23), (-100, 1, 3, 12), (-99, 12, 28, 12), (-1, 12, 31, 23),
        (0, 1, 1, 0), (0, 2, 29, 12), (1, 1, 1, 0), (99, 12, 31, 23), (100, 1, 1, 0), (999, 6, 15, 13), (1000, 1, 1, 0),
        (1969, 12, 31, 23), (2000, 2, 29, 12), (2020, 12, 31, 12), (2021, 1, 3, 12), (2024, 2, 29, 18), (2027, 1, 1, 0),
        (9999, 12, 31, 23), (10000, 1, 1, 0), (12345, 7, 4, 9),
        // The first and last days of the eras of ja_JP (明治 … 令和, and the 元年 entries) and
        // zh_TW (民前, 民國元年, 民國), at noon so every zone tested is on that day.
        (1872, 12, 31, 12), (1873, 1, 1, 12), (1911, 12, 31, 12), (1912, 1, 1, 12), (1912, 7, 29, 12), (1912, 7, 30, 12),
        (1926, 12, 24, 12), (1926, 12, 25, 12), (1989, 1, 7, 12), (1989, 1, 8, 12), (2019, 4, 30, 12), (2019, 5, 1, 12),
    ]

    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Etc/UTC"]

    @Test("engine and date agree", arguments: zones)
    func agreesWithDate(_ zoneName: String) throws {
        let zone = try timeZone(zoneName)
        var compared = 0
        var differences: [String] = []
        for (year, month, day, hour) in Self.dates {
            let instant = CivilCalendar.saturatingDays(year: year, month: month, day: day) * 86_400 + hour * 3600 + 1234
            for language in Language.allCases {
                let expected = try DateOracle.outputs(Self.formats, at: String(instant), zone: zoneName, language: language)
                for (format, dateOutput) in zip(Self.formats, expected) {
                    let answer: String
                    do {
                        answer = try Responder.strftime(format, now: Instant(secondsSince1970: Double(instant)), zone: zone, language: language)
                    } catch {
                        // Refused: only what date itself leaves unconverted (prints with its %).
                        if !dateOutput.contains("%") { differences.append("\(language) \(instant) \(format): refused, date printed \(dateOutput.debugDescription)") }
                        continue
                    }
                    compared += 1
                    if answer != dateOutput {
                        differences.append("\(language) \(instant) \(format): \(answer.debugDescription) vs date \(dateOutput.debugDescription)")
                    }
                }
            }
        }
        print("StrftimeDateOracleTests \(zoneName): \(compared) answers compared with date, \(differences.count) differences")
        let count = differences.count
        #expect(count == 0, "\(count) differences, e.g. \(differences.prefix(8).joined(separator: "\n"))")
        #expect(compared > 10_000)
    }
}
