import ZaoanTime

/// The periods of a YEARLY or MONTHLY rule of the Chinese calendar (RSCALE=CHINESE, RFC
/// 7529) and the days each gives, for `RuleIterator`: a period is a lunar year (正月初一 to
/// the eve of the next) or a lunar month (leap months count as months). BYMONTH names
/// months (`5L` the leap month after the fifth), BYMONTHDAY their days (a month has 29 or
/// 30), BYYEARDAY the days of the lunar year, BYDAY weekdays (with a position, within the
/// month or, in a YEARLY rule without BYMONTH, the year). What the rule leaves out comes
/// from DTSTART's lunar date, as in the Gregorian calendar: a yearly rule repeats its month
/// (its leap month, if DTSTART is in one) and day.
///
/// SKIP (RFC 7529 §4.1): a leap month the year has not is, with BACKWARD, the month of the
/// same number, with FORWARD the month after; a day the month has not (the 30th of a
/// 29-day month) is, with BACKWARD, its last day, with FORWARD the next month's first. OMIT,
/// the default, leaves both out. SKIP is applied before BYSETPOS chooses, and an instance
/// moved onto one the rule gives anyway is given once.
struct ChinesePeriods {
    private let months: [Int]
    private let leapMonths: [Int]
    private let monthDays: [Int]
    private let yearDays: [Int]
    private let everyWeekday: UInt8
    private let ordinalWeekdays: [RuleParts.Weekday]
    private let ordinalsInMonth: Bool
    private let skip: RuleParts.Skip
    /// DTSTART's lunar year and month (its ordinal, `ChineseMonthTable.Month.ordinal`).
    let startYear: Int
    let startMonth: Int64

    /// Nil when DTSTART is outside `ChineseMonthTable.years`.
    init?(parts: RuleParts, start: LocalDateTime) {
        guard let (month, day) = ChineseMonthTable.month(holding: start.day.dayNumber) else { return nil }
        startYear = month.relatedYear
        startMonth = month.ordinal
        var months = parts.months, leapMonths = parts.leapMonths, monthDays = parts.monthDays
        if parts.monthDays.isEmpty, parts.yearDays.isEmpty, parts.weekdays.isEmpty {
            monthDays = [day]
            if parts.frequency == .yearly, months.isEmpty, leapMonths.isEmpty {
                if month.isLeap { leapMonths = [month.number] } else { months = [month.number] }
            }
        }
        self.months = months
        self.leapMonths = leapMonths
        self.monthDays = monthDays
        yearDays = parts.yearDays
        var bits: UInt8 = 0
        var ordinals: [RuleParts.Weekday] = []
        for weekday in parts.weekdays {
            if weekday.ordinal == 0 { bits |= 1 << UInt8(weekday.day) } else { ordinals.append(weekday) }
        }
        everyWeekday = bits
        ordinalWeekdays = ordinals
        ordinalsInMonth = parts.frequency == .monthly || !months.isEmpty || !leapMonths.isEmpty
        skip = parts.skip
    }

    /// The period `wall` falls in: its lunar year (YEARLY) or month ordinal (MONTHLY); nil
    /// outside the table's years.
    static func period(of wall: LocalDateTime, frequency: RuleParts.Frequency) -> Int64? {
        guard let month = ChineseMonthTable.month(holding: wall.day.dayNumber)?.month else { return nil }
        return frequency == .yearly ? Int64(month.relatedYear) : month.ordinal
    }

    /// DTSTART's period, as `period(of:frequency:)` counts.
    func firstPeriod(_ frequency: RuleParts.Frequency) -> Int64 {
        frequency == .yearly ? Int64(startYear) : startMonth
    }

    /// The days the lunar year `year` gives, in order; nil outside the table's years.
    func days(ofYear year: Int) -> [Int64]? {
        guard let yearMonths = ChineseMonthTable.months(ofYear: year) else { return nil }
        var chosen: [ChineseMonthTable.Month]
        if months.isEmpty, leapMonths.isEmpty {
            chosen = yearMonths
        } else {
            chosen = yearMonths.filter(isChosen)
            for number in leapMonths where !yearMonths.contains(where: { $0.isLeap && $0.number == number }) {
                // A leap month this year has not: SKIP says which month stands for it.
                let standIn: Int? = switch skip {
                case .omit: nil
                case .backward: number
                case .forward: number < 12 ? number + 1 : nil
                }
                if let standIn, let month = yearMonths.first(where: { !$0.isLeap && $0.number == standIn }), !chosen.contains(month) {
                    chosen.append(month)
                }
            }
            chosen.sort { $0.firstDay < $1.firstDay }
        }
        let yearStart = yearMonths[0].firstDay
        let yearLength = Int(yearMonths[yearMonths.count - 1].nextFirstDay - yearStart)
        return days(of: chosen, yearStart: yearStart, yearLength: yearLength)
    }

    /// The days the lunar month `ordinal` gives (BYMONTH limits: a month it does not name
    /// gives none); nil outside the table's years.
    func days(ofMonth ordinal: Int64) -> [Int64]? {
        guard let month = ChineseMonthTable.month(ordinal: ordinal), let yearMonths = ChineseMonthTable.months(ofYear: month.relatedYear) else { return nil }
        guard months.isEmpty && leapMonths.isEmpty || isChosen(month) else { return [] }
        let yearStart = yearMonths[0].firstDay
        return days(of: [month], yearStart: yearStart, yearLength: Int(yearMonths[yearMonths.count - 1].nextFirstDay - yearStart))
    }

    private func isChosen(_ month: ChineseMonthTable.Month) -> Bool {
        month.isLeap ? leapMonths.contains(month.number) : months.contains(month.number)
    }

    private func days(of chosen: [ChineseMonthTable.Month], yearStart: Int64, yearLength: Int) -> [Int64] {
        var result: [Int64] = []
        for month in chosen {
            for offset in 0..<month.length {
                let day = month.firstDay + Int64(offset)
                if passes(day, dayOfMonth: offset + 1, month: month, yearStart: yearStart, yearLength: yearLength) { result.append(day) }
            }
            // A day past the month's end (the 30th of a 29-day month): SKIP.
            if skip != .omit, monthDays.contains(where: { $0 > month.length }) {
                let standIn = skip == .backward ? month.nextFirstDay - 1 : month.nextFirstDay
                if weekdayPasses(standIn, month: month, yearStart: yearStart, yearLength: yearLength) { result.append(standIn) }
            }
        }
        return Array(Set(result)).sorted()
    }

    private func passes(_ day: Int64, dayOfMonth: Int, month: ChineseMonthTable.Month, yearStart: Int64, yearLength: Int) -> Bool {
        if !monthDays.isEmpty, !monthDays.contains(dayOfMonth), !monthDays.contains(dayOfMonth - month.length - 1) { return false }
        if !yearDays.isEmpty {
            let ordinal = Int(day - yearStart) + 1
            guard yearDays.contains(ordinal) || yearDays.contains(ordinal - yearLength - 1) else { return false }
        }
        return weekdayPasses(day, month: month, yearStart: yearStart, yearLength: yearLength)
    }

    private func weekdayPasses(_ day: Int64, month: ChineseMonthTable.Month, yearStart: Int64, yearLength: Int) -> Bool {
        guard everyWeekday != 0 || !ordinalWeekdays.isEmpty else { return true }
        let weekday = CivilCalendar.weekday(daysSince1970: Int(day))
        if everyWeekday & (1 << UInt8(weekday)) != 0 { return true }
        let first = ordinalsInMonth ? month.firstDay : yearStart
        let last = ordinalsInMonth ? month.nextFirstDay - 1 : yearStart + Int64(yearLength) - 1
        let fromStart = Int(day - first) / 7 + 1
        let fromEnd = -(Int(last - day) / 7 + 1)
        return ordinalWeekdays.contains { $0.day == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd) }
    }
}
