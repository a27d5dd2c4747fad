import ZaoanAlmanac

/// Proleptic Gregorian calendar arithmetic on whole days and seconds since 1970-01-01 UTC,
/// for any year the engine accepts (year 0 is 1 BC, negative years before it), with no
/// Foundation calendar and no trapping on negative values.
enum CivilCalendar {
    /// Days from 1970-01-01 to the given date (negative before it): the almanac's
    /// `CivilDay`, the one implementation of Howard Hinnant's `days_from_civil`.
    static func days(year: Int, month: Int, day: Int) -> Int {
        CivilDay(year: year, month: month, day: day).daysSince1970
    }

    /// The date `days` after 1970-01-01.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        CivilDay(daysSince1970: days).date
    }

    /// 0 = Sunday ... 6 = Saturday, like `tm_wday`.
    static func weekday(days: Int) -> Int {
        floorModulo(days + 4, 7)  // 1970-01-01 was a Thursday
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Division rounding toward minus infinity (Swift's `/` truncates toward zero).
    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        value - floorDivide(value, divisor) * divisor
    }
}

/// An instant as a wall clock and calendar in some zone show it: C's `struct tm` together
/// with what strftime also needs (nanoseconds, the instant itself). Fields keep C's meaning
/// where strftime's rules are written in it (`dayOfYear` from 0, `weekday` from Sunday = 0);
/// `year` is the full year, not C's `tm_year` (year - 1900).
struct BrokenDownTime: Equatable {
    var year: Int
    /// 1...12
    var month: Int
    /// 1...31
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 0...365 (`tm_yday`).
    var dayOfYear: Int
    /// 0 = Sunday (`tm_wday`).
    var weekday: Int
    /// Seconds east of UTC (`tm_gmtoff`).
    var utcOffset: Int
    var isDST: Bool
    /// `tm_zone`: the tz database abbreviation (`CST`, `CEST`, `+0545`).
    var zoneAbbreviation: String
    /// The instant, in whole seconds since 1970-01-01 UTC (what `%s` prints).
    var unixSeconds: Int
    /// 0...999,999,999 (what `%N` prints).
    var nanoseconds: Int

    /// The largest distance from 1970 the engine accepts, in seconds (about 285 million
    /// years): far inside `Int`, so no arithmetic here can overflow, and every instant a
    /// `Date` can hold exactly.
    static let maxUnixSeconds = 1 << 53

    /// - Parameters:
    ///   - unixSeconds: within ±`maxUnixSeconds` (the caller checks).
    ///   - local: the zone's offset, DST flag and abbreviation at that instant.
    init(unixSeconds: Int, nanoseconds: Int, local: LocalTimeType) {
        let localSeconds = unixSeconds + local.utcOffset
        let days = CivilCalendar.floorDivide(localSeconds, 86_400)
        let secondOfDay = localSeconds - days * 86_400
        let date = CivilCalendar.date(days: days)
        year = date.year
        month = date.month
        day = date.day
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        dayOfYear = days - CivilCalendar.days(year: date.year, month: 1, day: 1)
        weekday = CivilCalendar.weekday(days: days)
        utcOffset = local.utcOffset
        isDST = local.isDST
        zoneAbbreviation = local.abbreviation
        self.unixSeconds = unixSeconds
        self.nanoseconds = nanoseconds
    }

    /// 1...12, as `%I` and `%l` show the hour.
    var hour12: Int {
        hour > 12 ? hour - 12 : (hour == 0 ? 12 : hour)
    }
}
