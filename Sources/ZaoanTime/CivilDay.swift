/// A day of the proleptic Gregorian calendar, held as the number of days since 1970-01-01:
/// the almanac's days, and the day strftime and the zone rules count in.
///
/// The almanac works in days, not in dates with a zone: the caller decides which zone a day
/// is reckoned in (the user's for "today", Beijing's for the day a solar term falls on).
/// Every initializer is total: days are held within `CivilCalendar.instantSafeDays`, so a
/// day's start in seconds is always exact and nothing here can trap.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let daysSince1970: Int

    /// Days outside `CivilCalendar.instantSafeDays` are held at its ends.
    public init(daysSince1970: Int) {
        let limit = CivilCalendar.instantSafeDays
        self.daysSince1970 = min(max(daysSince1970, limit.lowerBound), limit.upperBound)
    }

    /// The day on which `unixSeconds` falls, in a zone `offsetSeconds` east of UTC (NaN is
    /// day 0; far instants are held at the ends of the range).
    public init(unixSeconds: Double, offsetSeconds: Int) {
        self.init(daysSince1970: Self.wholeNumber(((unixSeconds + Double(offsetSeconds)) / 86_400).rounded(.down)))
    }

    /// - Parameters:
    ///   - month: 1–12; months beyond run on into the next years (13 is January).
    ///   - day: 1–31; a day past the month's end runs on into the next month.
    public init(year: Int, month: Int, day: Int) {
        daysSince1970 = CivilCalendar.saturatingDays(year: year, month: month, day: day)
    }

    /// The Gregorian year, month (1–12) and day of the month (1–31).
    public var date: (year: Int, month: Int, day: Int) {
        let civil = CivilCalendar.civil(daysSince1970: daysSince1970)
        return (civil.year, civil.month, civil.day)
    }

    /// The instant the day starts, in a zone `offsetSeconds` east of UTC.
    public func startUnixSeconds(offsetSeconds: Int) -> Double {
        // Exact in Int (|days| <= 2^46); an absurd offset is taken in Double instead.
        let (start, overflow) = (daysSince1970 * 86_400).subtractingReportingOverflow(offsetSeconds)
        return overflow ? Double(daysSince1970) * 86_400 - Double(offsetSeconds) : Double(start)
    }

    /// Saturating at the ends of the range.
    public func adding(days: Int) -> CivilDay {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(days)
        return CivilDay(daysSince1970: overflow ? (days < 0 ? Int.min : Int.max) : sum)
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

    /// A whole-valued Double as an Int without trapping: NaN is 0, and values are clamped to
    /// ±2^52 (far past any day or lunation the almanac is asked about).
    public static func wholeNumber(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, -4_503_599_627_370_496), 4_503_599_627_370_496))
    }
}
