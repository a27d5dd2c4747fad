/// One entry of a locale's `era` (LC_TIME), as glibc reads it:
/// `direction:offset:start:end:name:format`, e.g. `+:2:2020/01/01:+*:令和:%EC%Ey年`.
///
/// The era holds the days from `start` to `end` (either way round; `-*` and `+*` are the
/// beginning and the end of time); its year of a date is `offset` plus the years since
/// `start`'s year, counted backwards when the era runs back in time (民前, 紀元前). Years are
/// astronomical: glibc reads the year `-0001` of a definition as 1 BC, year 0 here.
package struct Era: Sendable {
    /// (year, month 1...12, day), compared as a triple.
    typealias Day = (year: Int, month: Int, day: Int)

    let start: Day
    let end: Day
    let offset: Int
    /// +1 when the era's years count up from `start`, -1 when they count down.
    let direction: Int
    /// `%EC`.
    let name: String
    /// `%EY`.
    let format: String

    /// Reads one definition from the locale tables of TimeLocale+Locales.swift.
    /// - Precondition: `definition` is well formed (it is constant data, not input).
    init(_ definition: String) {
        let fields = definition.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        precondition(fields.count == 6 && (fields[0] == "+" || fields[0] == "-"), "malformed era \(definition)")
        guard let offset = Int(fields[1]) else { preconditionFailure("malformed era offset in \(definition)") }
        func day(_ text: String) -> Day {
            switch text {
            case "-*": return (Int.min, Int.min, Int.min)
            case "+*": return (Int.max, Int.max, Int.max)
            default:
                let bce = text.hasPrefix("-")
                let parts = text.dropFirst(bce ? 1 : 0).split(separator: "/").compactMap { Int($0) }
                precondition(parts.count == 3, "malformed era date in \(definition)")
                // glibc: the year -1 is 1 BC, which is the astronomical year 0.
                return (bce ? 1 - parts[0] : parts[0], parts[1], parts[2])
            }
        }
        start = day(fields[2])
        end = day(fields[3])
        self.offset = offset
        let forward = Self.lessOrEqual(start, end)
        direction = (fields[0] == "+") == forward ? 1 : -1
        name = fields[4]
        format = fields[5]
    }

    /// Whether the day lies between `start` and `end`, inclusive, in either order
    /// (glibc's `_nl_get_era_entry`).
    func holds(year: Int, month: Int, day: Int) -> Bool {
        let date: Day = (year, month, day)
        return (Self.lessOrEqual(start, date) && Self.lessOrEqual(date, end))
            || (Self.lessOrEqual(end, date) && Self.lessOrEqual(date, start))
    }

    /// `%Ey`: the year of the era a date of `year` falls in (saturating, so no year traps).
    func year(of year: Int) -> Int {
        let delta = year.subtractingReportingOverflow(start.year)
        let years = delta.overflow ? Int.max : delta.partialValue
        let (scaled, overflow) = years.multipliedReportingOverflow(by: direction)
        let (sum, sumOverflow) = offset.addingReportingOverflow(scaled)
        return overflow || sumOverflow ? (direction > 0 ? Int.max : Int.min) : sum
    }

    /// glibc's `ERA_DATE_CMP`: a on or before b.
    static func lessOrEqual(_ a: Day, _ b: Day) -> Bool {
        a.year < b.year || (a.year == b.year && (a.month < b.month || (a.month == b.month && a.day <= b.day)))
    }
}
