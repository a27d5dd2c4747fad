import ZaoanTime

/// The days a calendar file or a recurring room may have: `CivilDay` (the time engine's one
/// civil-day type) checked within `CalendarLimits.years`.
extension CivilDay {
    /// Nil unless the date exists and its year is within `CalendarLimits.years`.
    public static func inCalendar(year: Int, month: Int, day: Int) -> CivilDay? {
        guard CalendarLimits.years.contains(year), let days = CivilCalendar.daysSince1970(year: year, month: month, day: day) else { return nil }
        return CivilDay(daysSince1970: days)
    }

    /// The day `days` days after 1970-01-01 (negative: before); nil outside the years.
    public static func inCalendar(daysSince1970 days: Int64) -> CivilDay? {
        guard let days = Int(exactly: days), CalendarLimits.days.contains(days) else { return nil }
        return CivilDay(daysSince1970: days)
    }

    /// `daysSince1970` as the rule engine counts days: in Int64, as its instants.
    public var dayNumber: Int64 { Int64(daysSince1970) }

    /// The day `count` days later (earlier if negative); nil outside the years.
    public func adding(calendarDays count: Int64) -> CivilDay? {
        let (sum, overflow) = dayNumber.addingReportingOverflow(count)
        return overflow ? nil : CivilDay.inCalendar(daysSince1970: sum)
    }
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
        guard let civil = CivilDay.inCalendar(year: year, month: month, day: day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        self.init(civil, hour: hour, minute: minute, second: second)
    }

    public var hour: Int { secondOfDay / 3600 }
    public var minute: Int { secondOfDay / 60 % 60 }
    public var second: Int { secondOfDay % 60 }

    /// The Unix seconds this wall clock would be if it were UTC.
    public var secondsAsIfUTC: Int64 { day.dayNumber * 86_400 + Int64(secondOfDay) }

    /// The wall clock `seconds` after 1970-01-01 00:00 read as UTC; nil outside the years.
    public init?(secondsAsIfUTC seconds: Int64) {
        let days = CivilCalendar.floorDivide(Int(seconds), 86_400)
        guard let day = CivilDay.inCalendar(daysSince1970: Int64(days)) else { return nil }
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
