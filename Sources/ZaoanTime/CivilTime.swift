/// Proleptic Gregorian calendar arithmetic on whole days since 1970-01-01, the one civil-day
/// calculation of zaoan (the almanac, calendar files, recurring rooms, strftime and the tz
/// database reader all use it): Howard Hinnant's `days_from_civil` and `civil_from_days`,
/// which count from 1 March of year 0 so that the leap day ends a year and every 400 years
/// (146,097 days) repeat exactly. Year 0 is 1 BC, negative years are before it.
///
/// Total on every input, with no trapping arithmetic:
/// - `civil(daysSince1970:)` takes any `Int` (its years run from about -25 quadrillion to
///   +25 quadrillion);
/// - `daysSince1970(year:month:day:)` is nil for a date that does not exist or whose day
///   count is not an `Int` (the exact valid range is `Int.min...Int.max` days, so it and
///   `civil` are inverses over it);
/// - `saturatingDays(year:month:day:)` lets months and days run on (month 13 is January of
///   the next year, day 0 the last of the month before) and holds the result within
///   `instantSafeDays`, where a day's seconds and any UTC offset fit an `Int`.
public enum CivilCalendar {
    /// A date with what strftime also needs of it.
    public struct CivilDate: Equatable, Sendable {
        public let year: Int
        /// 1...12
        public let month: Int
        /// 1...31
        public let day: Int
        /// 0...365, from January 1 (`tm_yday`).
        public let dayOfYear: Int
    }

    /// Days whose instants (days × 86,400, plus up to a day and any UTC offset) fit an `Int`
    /// with room to spare: ±2^46 days, about ±192 billion years.
    public static let instantSafeDays: ClosedRange<Int> = -(1 << 46)...(1 << 46)

    /// Days from 0000-03-01 to 1970-01-01.
    static let daysFromMarchYear0To1970 = 719_468
    static let daysPerEra = 146_097

    /// The date `days` after 1970-01-01 (before it if negative). Defined for every `Int`.
    public static func civil(daysSince1970 days: Int) -> CivilDate {
        // z = days + 719,468 without overflow: split into eras first. 719,468 is 4 eras
        // and 135,080 days.
        let era0 = floorDivide(days, daysPerEra)
        let shifted = floorModulo(days, daysPerEra) + 135_080
        let era = era0 + 4 + (shifted >= daysPerEra ? 1 : 0)
        let dayOfEra = shifted >= daysPerEra ? shifted - daysPerEra : shifted  // 0...146,096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayFromMarch = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365
        let monthFromMarch = (5 * dayFromMarch + 2) / 153  // 0...11
        let day = dayFromMarch - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        // |era| < 2^47, so era * 400 is far inside Int.
        let year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0)
        let dayOfYear = month <= 2 ? dayFromMarch - 306 : dayFromMarch + 59 + (isLeap(year) ? 1 : 0)
        return CivilDate(year: year, month: month, day: day, dayOfYear: dayOfYear)
    }

    /// Days from 1970-01-01 to the date (negative before it); nil if the date does not
    /// exist (month outside 1...12, day outside the month) or its count is not an `Int`.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        guard month > 2 || year > Int.min else { return nil }
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = floorModulo(shiftedYear, 400)  // 0...399
        let monthFromMarch = (month + 9) % 12
        let dayFromMarch = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayFromMarch  // 0...146,096
        // In 128 bits, where nothing can overflow (|era| < 2^62): the sum fits an Int exactly
        // when the date is in range, even where a partial sum would not.
        return Int(exactly: Int128(era) * Int128(daysPerEra) + Int128(dayOfEra - daysFromMarchYear0To1970))
    }

    /// Days from 1970-01-01 with months and days running on (month 0 is December of the
    /// year before, day 32 of January is February 1), held within `instantSafeDays`. A
    /// first of the month whose count is not an `Int` saturates by the year's sign.
    public static func saturatingDays(year: Int, month: Int, day: Int) -> Int {
        let low = instantSafeDays.lowerBound, high = instantSafeDays.upperBound
        // month - 1 as whole years and a month 1...12, without computing month - 1.
        let remainder = floorModulo(month, 12)
        let normalMonth = remainder == 0 ? 12 : remainder
        let extraYears = floorDivide(month, 12) - (remainder == 0 ? 1 : 0)
        let (years, yearOverflow) = year.addingReportingOverflow(extraYears)
        guard !yearOverflow, let first = daysSince1970(year: years, month: normalMonth, day: 1) else {
            return (yearOverflow ? year : years) < 0 ? low : high
        }
        let (daysAfterFirst, dayOverflow) = day.subtractingReportingOverflow(1)
        guard !dayOverflow else { return low }
        let (sum, sumOverflow) = first.addingReportingOverflow(daysAfterFirst)
        guard !sumOverflow else { return daysAfterFirst < 0 ? low : high }
        return min(max(sum, low), high)
    }

    /// 0 = Sunday ... 6 = Saturday, like `tm_wday`. Any `Int`.
    public static func weekday(daysSince1970 days: Int) -> Int {
        (floorModulo(days, 7) + 4) % 7  // 1970-01-01 was a Thursday
    }

    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// 28...31; 0 for a month outside 1...12.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        case 1, 3, 5, 7, 8, 10, 12: return 31
        default: return 0
        }
    }

    /// Division rounding toward minus infinity (Swift's `/` truncates toward zero), for a
    /// positive divisor; never overflows.
    public static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        precondition(divisor > 0, "floorDivide takes a positive divisor")
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// The remainder after `floorDivide`: 0..<divisor.
    public static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        precondition(divisor > 0, "floorModulo takes a positive divisor")
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

/// An instant as a wall clock and calendar in some zone show it: C's `struct tm` together
/// with what strftime also needs (nanoseconds, the instant itself). Fields keep C's meaning
/// where strftime's rules are written in it (`dayOfYear` from 0, `weekday` from Sunday = 0);
/// `year` is the full year, not C's `tm_year` (year - 1900).
package struct BrokenDownTime: Equatable {
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
    package static let maxUnixSeconds = 1 << 53

    /// - Parameters:
    ///   - unixSeconds: within ±`maxUnixSeconds` (the caller checks).
    ///   - local: the zone's offset, DST flag and abbreviation at that instant.
    package init(unixSeconds: Int, nanoseconds: Int, local: LocalTimeType) {
        let localSeconds = unixSeconds + local.utcOffset
        let days = CivilCalendar.floorDivide(localSeconds, 86_400)
        let secondOfDay = localSeconds - days * 86_400
        let date = CivilCalendar.civil(daysSince1970: days)
        year = date.year
        month = date.month
        day = date.day
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        dayOfYear = date.dayOfYear
        weekday = CivilCalendar.weekday(daysSince1970: days)
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
