import ZaoanTime

/// A day of the proleptic Gregorian calendar within `CalendarLimits.years`, as a calendar
/// file or a recurring room has it: a checked year, month and day, its arithmetic the time
/// engine's (`CivilCalendar`, one civil-day calculation for all of zaoan). No zone.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless the date exists and its year is within `CalendarLimits.years`.
    public init?(year: Int, month: Int, day: Int) {
        guard CalendarLimits.years.contains(year), CivilCalendar.daysSince1970(year: year, month: month, day: day) != nil else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `daysSince1970` days after 1970-01-01 (negative: before). Nil outside the years.
    public init?(daysSince1970 days: Int64) {
        let date = CivilCalendar.civil(daysSince1970: Int(days))
        self.init(year: date.year, month: date.month, day: date.day)
    }

    /// Days since 1970-01-01 (within the years, so never far from 0).
    public var daysSince1970: Int64 {
        Int64(CivilCalendar.saturatingDays(year: year, month: month, day: day))
    }

    /// The day `count` days later (earlier if negative); nil outside the years.
    public func adding(days count: Int64) -> CivilDay? {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(count)
        return overflow ? nil : CivilDay(daysSince1970: sum)
    }

    public static func < (a: CivilDay, b: CivilDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `2026-03-27`.
    public var description: String { "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))" }

    /// RFC 5545's DATE: `20260327` (an UNTIL, a DTSTART's day).
    public var basicText: String { padded(year, 4) + padded(month, 2) + padded(day, 2) }
}

/// A date and time on a wall clock, in no zone yet: what a user types, what a floating or
/// TZID time in a calendar file says.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let day: CivilDay
    /// Seconds since local midnight, 0..<86,400 (a leap second 60 is read as 59).
    public let secondOfDay: Int

    public init(_ day: CivilDay, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        precondition((0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second))
        self.day = day
        secondOfDay = hour * 3600 + minute * 60 + min(second, 59)
    }

    /// Nil for a date that does not exist, a time outside 00:00:00–23:59:60 or a year
    /// outside `CalendarLimits.years`.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard let civil = CivilDay(year: year, month: month, day: day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        self.init(civil, hour: hour, minute: minute, second: second)
    }

    public var hour: Int { secondOfDay / 3600 }
    public var minute: Int { secondOfDay / 60 % 60 }
    public var second: Int { secondOfDay % 60 }

    /// The Unix seconds this wall clock would be if it were UTC.
    public var secondsAsIfUTC: Int64 { day.daysSince1970 * 86_400 + Int64(secondOfDay) }

    /// The wall clock `seconds` after 1970-01-01 00:00 read as UTC; nil outside the years.
    public init?(secondsAsIfUTC seconds: Int64) {
        let days = CivilCalendar.floorDivide(Int(seconds), 86_400)
        guard let day = CivilDay(daysSince1970: Int64(days)) else { return nil }
        self.day = day
        secondOfDay = CivilCalendar.floorModulo(Int(seconds), 86_400)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.day, a.secondOfDay) < (b.day, b.secondOfDay)
    }

    /// RFC 5545's DATE-TIME without its zone: `20260327T070000` (add `Z` for UTC).
    public var basicText: String { day.basicText + "T" + padded(hour, 2) + padded(minute, 2) + padded(second, 2) }

    /// `2026-03-27 07:00:00`.
    public var description: String { "\(day) \(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))" }
}

package func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
}
