/// A day of the proleptic Gregorian calendar, in no zone: zaoan's one civil-day type. The
/// almanac's days, the day strftime and the zone rules count in, and (checked within the
/// calendar's years, ZaoanRecurrence's `CivilDay.inCalendar`) a calendar file's or a
/// recurring room's days. It holds both the count of days since 1970-01-01 and the year,
/// month and day, so neither is worked out again where it is read (the rule engine reads
/// the date of every day it steps through, the almanac counts days).
///
/// The caller decides which zone a day is reckoned in (the user's for "today", Beijing's for
/// the day a solar term falls on). Every initializer is total: days are held within
/// `CivilCalendar.instantSafeDays`, so a day's start in seconds is always exact and nothing
/// here can trap.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let daysSince1970: Int
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31.
    public let day: Int

    /// Days outside `CivilCalendar.instantSafeDays` are held at its ends.
    public init(daysSince1970: Int) {
        let limit = CivilCalendar.instantSafeDays
        let days = min(max(daysSince1970, limit.lowerBound), limit.upperBound)
        let civil = CivilCalendar.civil(daysSince1970: days)
        self.daysSince1970 = days
        year = civil.year
        month = civil.month
        day = civil.day
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
        self.init(daysSince1970: CivilCalendar.saturatingDays(year: year, month: month, day: day))
    }

    /// The Gregorian year, month (1–12) and day of the month (1–31).
    public var date: (year: Int, month: Int, day: Int) { (year, month, day) }

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

    /// `2026-12-22` (the year in at least four digits).
    public var description: String { "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))" }

    /// RFC 5545's DATE: `20261222` (an UNTIL, a DTSTART's day).
    public var basicText: String { padded(year, 4) + padded(month, 2) + padded(day, 2) }

    /// A whole-valued Double as an Int without trapping: NaN is 0, and values are clamped to
    /// ±2^52 (far past any day or lunation the almanac is asked about).
    public static func wholeNumber(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, -4_503_599_627_370_496), 4_503_599_627_370_496))
    }
}

/// `value` in at least `width` digits, a minus sign before them.
package func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
}
