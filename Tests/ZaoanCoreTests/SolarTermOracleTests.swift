import Foundation
import Testing
import ZaoanAlmanac

/// Every solar term of 2000–2100 against PyEphem (Tests/Oracles/solar_terms.py): a different
/// theory of the Sun (VSOP87 in libastro), nutation (IAU 1980) and ΔT (its own table and
/// extrapolation), so a wrong constant, sign or time scale on either side shows.
@Suite("Solar terms against PyEphem")
struct SolarTermOracleTests {
    @Test("all 2,424 terms of 2000–2100: the same day in UTC+8, within 60 s")
    func everyTermOf2000To2100() throws {
        let oracle = try OracleScript("solar_terms.py", ["2000", "2100"])
        let almanac = Almanac()
        var ours: [Int: [SolarTermInstant]] = [:]
        for year in 2000...2100 { ours[year] = almanac.solarTerms(ofYear: year) }

        let lines = try oracle.lines()
        #expect(lines.count == 2_424)
        var largest = 0.0
        var total = 0.0
        var worst = ""
        for line in lines {
            let fields = line.split(separator: " ")
            let year = try #require(Int(fields[0]))
            let index = try #require(Int(fields[1]))
            let expected = try #require(Double(fields[2]))
            let term = try #require(ours[year]?[index])
            let difference = term.unixSeconds - expected
            total += abs(difference)
            if abs(difference) > largest {
                largest = abs(difference)
                worst = "\(year) \(term.term.chineseName) \(String(format: "%+.1f", difference)) s"
            }
            let oracleDay = CivilDay(unixSeconds: expected, offsetSeconds: 8 * 3600)
            #expect(term.day == oracleDay, "\(year) \(term.term.chineseName): \(term.day) here, \(oracleDay) in PyEphem")
            #expect(abs(difference) <= 60, "\(year) \(term.term.chineseName): \(String(format: "%+.1f", difference)) s from PyEphem")
        }
        print("solar terms 2000–2100: \(lines.count) compared with PyEphem; largest difference \(String(format: "%.1f", largest)) s (\(worst)), mean \(String(format: "%.1f", total / Double(max(lines.count, 1)))) s")
    }
}
