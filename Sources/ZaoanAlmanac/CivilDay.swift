/// A day of the proleptic Gregorian calendar, held as the number of days since 1970-01-01.
///
/// The almanac works in days, not in dates with a zone: the caller decides which zone a day
/// is reckoned in (the user's for "today", Beijing's for the day a solar term falls on).
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let daysSince1970: Int

    public init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The day on which `unixSeconds` falls, in a zone `offsetSeconds` east of UTC.
    public init(unixSeconds: Double, offsetSeconds: Int) {
        daysSince1970 = Self.wholeNumber(((unixSeconds + Double(offsetSeconds)) / 86_400).rounded(.down))
    }

    /// - Parameters:
    ///   - month: 1–12.
    ///   - day: 1–31; a day past the month's end runs on into the next month.
    public init(year: Int, month: Int, day: Int) {
        // Count from 1 March of year 0, so that the leap day is the last day of a year and
        // every 400 years (146,097 days) repeat exactly.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = Self.floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSince1970 = era * 146_097 + dayOfEra - Self.daysFromMarchYear0To1970
    }

    /// The Gregorian year, month (1–12) and day of the month (1–31).
    public var date: (year: Int, month: Int, day: Int) {
        let days = daysSince1970 + Self.daysFromMarchYear0To1970
        let era = Self.floorDivide(days, 146_097)
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (era * 400 + yearOfEra + (month <= 2 ? 1 : 0), month, day)
    }

    /// The instant the day starts, in a zone `offsetSeconds` east of UTC.
    public func startUnixSeconds(offsetSeconds: Int) -> Double {
        Double(daysSince1970 * 86_400 - offsetSeconds)
    }

    public func adding(days: Int) -> CivilDay {
        CivilDay(daysSince1970: daysSince1970 + days)
    }

    public static func < (lhs: CivilDay, rhs: CivilDay) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }

    /// `2026-12-22`.
    public var description: String {
        let (year, month, day) = date
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Days from 0000-03-01 to 1970-01-01.
    private static let daysFromMarchYear0To1970 = 719_468

    /// A whole-valued Double as an Int without trapping: NaN is 0, and values are clamped to
    /// ±2^52 (far past any day or lunation the almanac is asked about).
    static func wholeNumber(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, -4_503_599_627_370_496), 4_503_599_627_370_496))
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
