import ZaoanSystem
import ZaoanAlmanac
import ZaoanTime

/// The months of the Chinese calendar for rules of that calendar (RFC 7529's
/// RSCALE=CHINESE), as ZaoanAlmanac computes them (GB/T 33661-2017: new moons and principal
/// terms, in China's time), each lunar year once per process.
///
/// Within `years` only, the years the almanac is checked for against lunar-python
/// (`LunarDateOracleTests`); a rule of this calendar gives nothing outside them. A year costs
/// the almanac a few milliseconds the first time; the table then holds at most those 200
/// years (about 2,600 months), so the work and memory are bounded whatever a file asks.
/// Thread-safe: the calendar reader and the expansion of recurring rooms may ask at once.
package enum ChineseMonthTable {
    package static let years: ClosedRange<Int> = 1901...2100

    package struct Month: Hashable, Sendable {
        /// Days since 1970-01-01.
        package let firstDay: Int64
        package let length: Int
        /// 1–12; a leap month repeats the number of the month before it.
        package let number: Int
        package let isLeap: Bool
        /// The Gregorian year whose 正月 begins this month's lunar year.
        package let relatedYear: Int
        /// Months since the new moon of 2000-01-06, leap months counted: INTERVAL of a
        /// MONTHLY rule counts these.
        package var ordinal: Int64 {
            // Rounded to the nearest mean month, in whole numbers (firstDay is within the
            // table's years, so the product is far below Int64's reach).
            Int64(CivilCalendar.floorDivide(Int(firstDay - ChineseMonthTable.referenceNewMoon) * nanodaysPerDay + ChineseMonthTable.synodicNanodays / 2,
                                            ChineseMonthTable.synodicNanodays))
        }
        package var nextFirstDay: Int64 { firstDay + Int64(length) }
    }

    /// The months of the lunar year whose 正月 begins in Gregorian `year`; nil outside `years`.
    package static func months(ofYear year: Int) -> [Month]? {
        guard years.contains(year) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let known = table[year] { return known }
        let months = almanac.lunarMonths(ofYear: year).map {
            Month(firstDay: Int64($0.firstDay.daysSince1970), length: $0.length, number: $0.number, isLeap: $0.isLeap, relatedYear: year)
        }
        table[year] = months
        return months
    }

    /// Computes the years of `wanted` that are within `years` and not yet known.
    package static func prepare(years wanted: ClosedRange<Int>) {
        let lower = max(wanted.lowerBound, years.lowerBound), upper = min(wanted.upperBound, years.upperBound)
        guard lower <= upper else { return }
        for year in lower...upper { _ = months(ofYear: year) }
    }

    /// The month holding `day` (days since 1970-01-01), and the day's number in it (1–30);
    /// nil outside `years`.
    package static func month(holding day: Int64) -> (month: Month, day: Int)? {
        let gregorianYear = CivilCalendar.civil(daysSince1970: Int(clamping: day)).year
        // A January or February day before 正月初一 belongs to the year before.
        for year in [gregorianYear, gregorianYear - 1] {
            guard let months = months(ofYear: year) else { continue }
            if let month = months.last(where: { $0.firstDay <= day }), day < month.nextFirstDay {
                return (month, Int(day - month.firstDay) + 1)
            }
        }
        return nil
    }

    /// The month `ordinal` months after the new moon of 2000-01-06; nil outside `years`.
    package static func month(ordinal: Int64) -> Month? {
        // Months of the table's years lie within ±2,600 of 2000's; others are nil, unread.
        guard ordinal.magnitude < 3_000 else { return nil }
        let middle = referenceNewMoon + Int64(CivilCalendar.floorDivide(Int(ordinal) * synodicNanodays + nanodaysPerDay / 2, nanodaysPerDay)) + 14
        guard let found = month(holding: middle)?.month, found.ordinal == ordinal else { return nil }
        return found
    }

    /// 2000-01-06, the day of a new moon in China; the mean month from there is within a
    /// day or two of every true one, far less than the half month that tells months apart.
    private static let referenceNewMoon: Int64 = 10_962
    /// The mean synodic month, 29.530588861 days, in billionths of a day.
    private static let synodicNanodays = 29_530_588_861
    private static let nanodaysPerDay = 1_000_000_000

    nonisolated(unsafe) private static var table: [Int: [Month]] = [:]
    nonisolated(unsafe) private static let almanac = Almanac(capacity: 4)
    private static let lock = Lock()
}
