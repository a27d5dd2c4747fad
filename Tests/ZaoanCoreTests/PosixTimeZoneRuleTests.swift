import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// The TZ strings of TZif footers, parsed and evaluated; glibc (through `date` with `TZ` set
/// to the same string) is the oracle for every hour of a few years.
@Suite struct PosixTimeZoneRuleTests {
    private func rule(_ text: String) throws -> PosixTimeZoneRule {
        try PosixTimeZoneRule(parsing: Array(text.utf8))
    }

    @Test func parsesTheForms() throws {
        let berlin = try rule("CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(berlin.standard == LocalTimeType(utcOffset: 3600, isDST: false, abbreviation: "CET"))
        #expect(berlin.daylight == .init(type: LocalTimeType(utcOffset: 7200, isDST: true, abbreviation: "CEST"),
                                         start: .weekdayOfMonth(month: 3, week: 5, weekday: 0), startTime: 7200,
                                         end: .weekdayOfMonth(month: 10, week: 5, weekday: 0), endTime: 10_800))
        let lordHowe = try rule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lordHowe.standard == LocalTimeType(utcOffset: 37_800, isDST: false, abbreviation: "+1030"))
        #expect(lordHowe.daylight?.type == LocalTimeType(utcOffset: 39_600, isDST: true, abbreviation: "+11"))
        let kathmandu = try rule("<+0545>-5:45")
        #expect(kathmandu.standard == LocalTimeType(utcOffset: 20_700, isDST: false, abbreviation: "+0545"))
        #expect(kathmandu.daylight == nil)
        let julian = try rule("AAA3BBB,J60/-1,300/25:30:15")
        #expect(julian.daylight?.type.utcOffset == -7200)  // one hour ahead of standard by default
        #expect(julian.daylight?.start == .julianSkippingLeapDay(60) && julian.daylight?.startTime == -3600)
        #expect(julian.daylight?.end == .dayOfYear(300) && julian.daylight?.endTime == 91_815)
        let extreme = try rule("<-03>3<-02>,M3.5.0/-167,M10.5.0/167:59:59")
        #expect(extreme.daylight?.startTime == -167 * 3600 && extreme.daylight?.endTime == 167 * 3600 + 3599)
        let noRule = try rule("AAA5BBB")
        #expect(noRule.daylight?.start == .weekdayOfMonth(month: 3, week: 2, weekday: 0))
        #expect(noRule.daylight?.end == .weekdayOfMonth(month: 11, week: 1, weekday: 0))
    }

    @Test("malformed TZ strings are refused", arguments: [
        "", "AB", "ABC", "ABC+", "<AB>1", "<ABC1", "ABC25", "ABC1:60", "ABC1:00:60", "ABC1DEF,M13.1.0,M1.1.0",
        "ABC1DEF,M3.6.0,M1.1.0", "ABC1DEF,M3.1.7,M4.1.0", "ABC1DEF,J0,J1", "ABC1DEF,366,1", "ABC1DEF,M3.1.0/168,M4.1.0",
        "ABC1DEF,M3.1.0", "ABC1DEF,M3.1.0,M4.1.0x", "ABC1DEF,M3.1.0,", "ABC1DEF2,", "ABC1DEF,M3.1,M4.1.0", "ABC1234",
        "ABC1DEF,J1/1:2:3:4,J2",
    ])
    func refusesMalformed(_ text: String) {
        #expect(throws: ZoneInfoError.self) { try PosixTimeZoneRule(parsing: Array(text.utf8)) }
    }

    /// Quoted names keep glibc from taking the string for a file under /usr/share/zoneinfo.
    static let glibcCases = [
        "<CET>-1<CEST>,M3.5.0,M10.5.0/3",
        "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
        "<+0545>-5:45",
        "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45",
        "<EST>5<EDT>,M3.2.0,M11.1.0",
        "<IST>-1<GMT>0,M10.5.0,M3.5.0/1",  // Dublin: "daylight" time in winter
        "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",  // Nuuk: negative times
        "<AAA>3<BBB>,J60/-1,J300/25",  // Jn, negative and past-24 h times
        "<AAA>3<BBB>,59/26,300/-3",  // n, leap day counted
        "<XXX>3<EDT>4,0/0,J365/25",  // daylight time all year, as glibc evaluates it
        "<AAA>-10<BBB>-11:30:15,M2.5.6/167,M11.1.1/-167",
        // Not "<AAA>5<BBB>" (no rule): glibc then borrows the rules and, past 2037, even the
        // names of /usr/share/zoneinfo/posixrules; TZif footers always give their rule.
    ]

    @Test("every hour of 2027, 2028 (leap) and 2100 as glibc computes it", arguments: glibcCases)
    func matchesGlibc(_ text: String) throws {
        let parsed = try rule(text)
        var instants: [Int] = []
        for year in [2027, 2028, 2100] {
            let start = CivilCalendar.saturatingDays(year: year, month: 1, day: 1) * 86_400
            instants += stride(from: start - 7200, to: start + 367 * 86_400, by: 3600).flatMap { [$0 - 1, $0, $0 + 1799] }
        }
        // Every change ±1 s as well.
        for year in [2027, 2028, 2100] {
            if let changes = parsed.changes(inYear: year) {
                instants += [changes.start - 1, changes.start, changes.end - 1, changes.end]
            }
        }
        // Not %s: in a zone like the all-year one, glibc's mktime does not always give the
        // instant back (date printed 4102462799 for @4102455599).
        let glibc = try DateOracle.outputs("%z %Z", at: instants, zone: text)
        var differences: [String] = []
        for (instant, expected) in zip(instants, glibc) {
            let local = parsed.localTime(at: instant)
            let mine = "\(Self.numeric(local.utcOffset)) \(local.abbreviation)"
            if mine != expected { differences.append("\(instant): \(mine) vs glibc \(expected)") }
        }
        let count = differences.count
        #expect(count == 0, "\(text): \(count) of \(instants.count) differ: \(differences.prefix(5))")
    }

    /// `+hhmm`, as `%z` prints an offset (the seconds dropped).
    static func numeric(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        let digits = String(minutes / 60 * 100 + minutes % 60)
        return (offset < 0 ? "-" : "+") + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
