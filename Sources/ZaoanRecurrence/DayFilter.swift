import ZaoanTime

/// Which days a rule takes (RFC 5545 §3.3.10's BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and
/// BYDAY, with DTSTART's month, day or weekday where the rule gives no day part), for
/// `RuleIterator`. Days are days since 1970-01-01; a day passes when it passes every part
/// the rule has. Each day is judged by its own month and year: a WEEKLY period that spans a
/// new year takes its January days by January's numbers.
struct DayFilter {
    let months: [Int]
    let monthDays: [Int]
    let yearDays: [Int]
    let weekNumbers: [Int]
    /// BYDAY without a position (or with one, where positions mean nothing: DAILY, WEEKLY
    /// and shorter), as a bit per weekday.
    let everyWeekday: UInt8
    /// BYDAY with a position, counted within the month (MONTHLY, or YEARLY with BYMONTH) or
    /// the year.
    let ordinalWeekdays: [RuleParts.Weekday]
    let ordinalsInMonth: Bool
    let weekStart: Int
    /// RFC 7529's SKIP for a BYMONTHDAY past the month's end (the 31st in April, February
    /// 29 in a common year): BACKWARD takes the month's last day, FORWARD the next month's
    /// first. A negative day before the month's start is left out whatever SKIP says.
    let skip: RuleParts.Skip

    init(parts: RuleParts, start: LocalDateTime) {
        var months = parts.months
        var monthDays = parts.monthDays
        var weekdays = parts.weekdays
        if parts.weekNumbers.isEmpty, parts.yearDays.isEmpty, parts.monthDays.isEmpty, parts.weekdays.isEmpty {
            switch parts.frequency {
            case .yearly:
                if months.isEmpty { months = [start.day.month] }
                monthDays = [start.day.day]
            case .monthly:
                monthDays = [start.day.day]
            case .weekly:
                weekdays = [RuleParts.Weekday(day: CivilCalendar.weekday(daysSince1970: Int(start.day.daysSince1970)))]
            default:
                break
            }
        }
        self.months = months
        self.monthDays = monthDays
        yearDays = parts.yearDays
        weekNumbers = parts.weekNumbers
        let positional = parts.frequency == .monthly || parts.frequency == .yearly
        var bits: UInt8 = 0
        var ordinals: [RuleParts.Weekday] = []
        for weekday in weekdays {
            if weekday.ordinal == 0 || !positional { bits |= 1 << UInt8(weekday.day) } else { ordinals.append(weekday) }
        }
        everyWeekday = bits
        ordinalWeekdays = ordinals
        ordinalsInMonth = parts.frequency == .monthly || !parts.months.isEmpty
        weekStart = parts.weekStart
        skip = parts.skip
    }

    /// Days from the week's first day (`weekStart`) to `day`: 0...6.
    static func daysIntoWeek(_ day: Int64, weekStart: Int) -> Int {
        CivilCalendar.floorModulo(CivilCalendar.weekday(daysSince1970: Int(day)) - weekStart, 7)
    }

    /// The days of `year` that pass, month by month (a month BYMONTH leaves out is skipped
    /// whole).
    func days(inYear year: Int) -> [Int64] {
        var result: [Int64] = []
        for month in 1...12 where months.isEmpty || months.contains(month) { result += days(inMonth: month, of: year) }
        return result
    }

    /// The days of a month that pass. Each day's date is counted here, not converted from
    /// its day number: a period costs its days and little more.
    func days(inMonth month: Int, of year: Int) -> [Int64] {
        guard months.isEmpty || months.contains(month), let first = CivilCalendar.daysSince1970(year: year, month: month, day: 1) else { return [] }
        let length = CivilCalendar.daysInMonth(year: year, month: month)
        var result: [Int64] = []
        for offset in 0..<length where passes(Int64(first + offset), year: year, month: month, dayOfMonth: offset + 1, monthLength: length) {
            result.append(Int64(first + offset))
        }
        // SKIP=FORWARD: a day past this month's end is the next month's first, given here,
        // in this month's period (the next month may be no period of the rule).
        if skip == .forward, monthDays.contains(where: { $0 > length }) {
            let next = Int64(first + length)
            let date = CivilCalendar.civil(daysSince1970: Int(next))
            if passes(next, year: date.year, month: date.month, dayOfMonth: 1, monthLength: CivilCalendar.daysInMonth(year: date.year, month: date.month), moved: true) {
                result.append(next)
            }
        }
        return result
    }

    /// Whether `day` passes every day part (where the day parts limit: DAILY and shorter
    /// periods, WEEKLY).
    func passes(_ day: Int64) -> Bool {
        let date = CivilCalendar.civil(daysSince1970: Int(day))
        let length = CivilCalendar.daysInMonth(year: date.year, month: date.month)
        if passes(day, year: date.year, month: date.month, dayOfMonth: date.day, monthLength: length) { return true }
        // SKIP=FORWARD: the first of a month stands for a day the month before did not have.
        guard skip == .forward, date.day == 1 else { return false }
        let before = CivilCalendar.civil(daysSince1970: Int(day) - 1)
        guard months.isEmpty || months.contains(before.month), monthDays.contains(where: { $0 > before.day }) else { return false }
        return passes(day, year: date.year, month: date.month, dayOfMonth: 1, monthLength: length, moved: true)
    }

    /// - Parameter moved: the day stands, by SKIP, for one its month lacks: BYMONTH and
    ///   BYMONTHDAY were judged for that one.
    private func passes(_ day: Int64, year: Int, month: Int, dayOfMonth: Int, monthLength: Int, moved: Bool = false) -> Bool {
        if !moved, !months.isEmpty, !months.contains(month) { return false }
        if !moved, !monthDays.isEmpty {
            guard monthDays.contains(dayOfMonth) || monthDays.contains(dayOfMonth - monthLength - 1)
                || (skip == .backward && dayOfMonth == monthLength && monthDays.contains(where: { $0 > monthLength })) else { return false }
        }
        if !yearDays.isEmpty {
            let first = CivilCalendar.daysSince1970(year: year, month: 1, day: 1) ?? 0
            let ordinal = Int(day) - first + 1
            let length = CivilCalendar.isLeap(year) ? 366 : 365
            guard yearDays.contains(ordinal) || yearDays.contains(ordinal - length - 1) else { return false }
        }
        if !weekNumbers.isEmpty {
            let (weekYear, number) = week(of: day, year: year)
            let weeks = weeksIn(weekYear)
            guard weekNumbers.contains(number) || weekNumbers.contains(number - weeks - 1) else { return false }
        }
        if everyWeekday != 0 || !ordinalWeekdays.isEmpty {
            let weekday = CivilCalendar.weekday(daysSince1970: Int(day))
            if everyWeekday & (1 << UInt8(weekday)) == 0 {
                guard matchesOrdinal(day, weekday: weekday, year: year, month: month, monthLength: monthLength) else { return false }
            }
        }
        return true
    }

    private func matchesOrdinal(_ day: Int64, weekday: Int, year: Int, month: Int, monthLength: Int) -> Bool {
        guard ordinalWeekdays.contains(where: { $0.day == weekday }) else { return false }
        let first: Int, last: Int
        if ordinalsInMonth {
            first = CivilCalendar.daysSince1970(year: year, month: month, day: 1) ?? Int(day)
            last = first + monthLength - 1
        } else {
            first = CivilCalendar.daysSince1970(year: year, month: 1, day: 1) ?? Int(day)
            last = first + (CivilCalendar.isLeap(year) ? 366 : 365) - 1
        }
        let fromStart = (Int(day) - first) / 7 + 1
        let fromEnd = -((last - Int(day)) / 7 + 1)
        return ordinalWeekdays.contains { $0.day == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd) }
    }

    /// The first day of week 1 of `year`: the week (from `weekStart`) that holds January 4,
    /// the first with at least four days in the year (§3.3.10, ISO 8601 with WKST).
    private func firstWeek(of year: Int) -> Int64 {
        let fourth = Int64(CivilCalendar.saturatingDays(year: year, month: 1, day: 4))
        return fourth - Int64(Self.daysIntoWeek(fourth, weekStart: weekStart))
    }

    /// The week-numbering year `day` is in (its own, the one before or the next) and its week.
    func week(of day: Int64, year: Int) -> (year: Int, number: Int) {
        let next = firstWeek(of: year + 1)
        if day >= next { return (year + 1, 1) }
        let this = firstWeek(of: year)
        if day >= this { return (year, Int((day - this) / 7) + 1) }
        let previous = firstWeek(of: year - 1)
        return (year - 1, Int((day - previous) / 7) + 1)
    }

    func weeksIn(_ year: Int) -> Int { Int((firstWeek(of: year + 1) - firstWeek(of: year)) / 7) }

    /// For a day that fails: the first later day that may pass, where BYMONTH alone can say
    /// (the first of the next month it takes); nil when every next day may.
    func nextPossibleDay(after day: Int64) -> Int64? {
        // SKIP=FORWARD may take the first day of a month BYMONTH leaves out.
        guard !months.isEmpty, skip != .forward else { return nil }
        let date = CivilCalendar.civil(daysSince1970: Int(day))
        guard !months.contains(date.month) else { return nil }
        var year = date.year, month = date.month
        for _ in 0..<12 {
            month += 1
            if month > 12 { month = 1; year += 1 }
            if months.contains(month) { return CivilCalendar.daysSince1970(year: year, month: month, day: 1).map(Int64.init) }
        }
        return nil
    }
}
