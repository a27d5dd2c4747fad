import Testing
@testable import ZaoanTime

/// The one civil-day arithmetic (`CivilCalendar`): against Python's proleptic Gregorian
/// calendar for years 1–9999, and at the ends of its range, where every `Int` is taken and
/// nothing may trap.
@Suite struct CivilCalendarTests {
    @Test("years 1–9999 against Python's datetime.date: days, weekday, day of the year, both ways")
    func againstPython() throws {
        let oracle = try OracleScript("civil_days.py", ["20"])
        let lines = try oracle.lines()
        #expect(lines.count > 25_000)
        for line in lines {
            let fields = line.split(separator: " ").compactMap { Int($0) }
            try #require(fields.count == 6, "\(line)")
            let (year, month, day, days, weekday, dayOfYear) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])
            #expect(CivilCalendar.daysSince1970(year: year, month: month, day: day) == days, "\(line)")
            #expect(CivilCalendar.saturatingDays(year: year, month: month, day: day) == days, "\(line)")
            let civil = CivilCalendar.civil(daysSince1970: days)
            #expect(civil == .init(year: year, month: month, day: day, dayOfYear: dayOfYear), "\(line)")
            #expect(CivilCalendar.weekday(daysSince1970: days) == weekday, "\(line)")
        }
    }

    @Test("year 0 and negative years: proleptic, year 0 and -400 leap, -100 not")
    func negativeYears() {
        #expect(CivilCalendar.daysSince1970(year: 0, month: 3, day: 1) == -719_468)
        #expect(CivilCalendar.daysSince1970(year: 0, month: 1, day: 1) == -719_528)
        #expect(CivilCalendar.daysSince1970(year: 0, month: 2, day: 29) == -719_469)
        #expect(CivilCalendar.daysSince1970(year: -1, month: 12, day: 31) == -719_529)
        #expect(CivilCalendar.daysSince1970(year: -100, month: 2, day: 29) == nil)
        #expect(CivilCalendar.daysSince1970(year: -400, month: 2, day: 29) != nil)
        #expect(CivilCalendar.daysSince1970(year: -4, month: 2, day: 29) != nil)
        // 400 years are 146,097 days, before year 0 as after it.
        for year in [-2_000, -401, -1, 0, 1, 1970] {
            let now = CivilCalendar.daysSince1970(year: year, month: 6, day: 15)!
            #expect(CivilCalendar.daysSince1970(year: year - 400, month: 6, day: 15) == now - 146_097)
            #expect(CivilCalendar.civil(daysSince1970: now - 146_097).year == year - 400)
        }
        #expect(CivilCalendar.civil(daysSince1970: -719_529) == .init(year: -1, month: 12, day: 31, dayOfYear: 364))
        #expect(CivilCalendar.weekday(daysSince1970: -719_528) == 6)  // 0000-01-01 was a Saturday (proleptic)
    }

    @Test("the range's ends are Int.min and Int.max days: both ways, and one day further is refused")
    func rangeEnds() throws {
        for end in [Int.min, Int.max] {
            let date = CivilCalendar.civil(daysSince1970: end)
            #expect((1...12).contains(date.month) && date.day >= 1 && date.day <= CivilCalendar.daysInMonth(year: date.year, month: date.month))
            #expect(CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) == end, "\(date)")
        }
        let last = CivilCalendar.civil(daysSince1970: .max)
        let first = CivilCalendar.civil(daysSince1970: .min)
        // The day after the last and the day before the first are not Int.
        let (nextYear, nextMonth, nextDay) = last.day < CivilCalendar.daysInMonth(year: last.year, month: last.month)
            ? (last.year, last.month, last.day + 1) : (last.month == 12 ? (last.year + 1, 1, 1) : (last.year, last.month + 1, 1))
        #expect(CivilCalendar.daysSince1970(year: nextYear, month: nextMonth, day: nextDay) == nil)
        let (previousYear, previousMonth, previousDay) = first.day > 1
            ? (first.year, first.month, first.day - 1)
            : (first.month == 1 ? (first.year - 1, 12, 31) : (first.year, first.month - 1, CivilCalendar.daysInMonth(year: first.year, month: first.month - 1)))
        #expect(CivilCalendar.daysSince1970(year: previousYear, month: previousMonth, day: previousDay) == nil)
        // Years about ±25 quadrillion: the era arithmetic is far inside Int.
        // (Python: 400-year eras by divmod, the day within the era by datetime.date.)
        #expect((last.year, last.month, last.day) == (25_252_734_927_768_524, 7, 27))
        #expect((first.year, first.month, first.day) == (-25_252_734_927_764_585, 6, 7))
        #expect(CivilCalendar.weekday(daysSince1970: .max) == CivilCalendar.weekday(daysSince1970: .max - 7))
        #expect(CivilCalendar.weekday(daysSince1970: .min) == CivilCalendar.weekday(daysSince1970: .min + 7))
        #expect(CivilCalendar.civil(daysSince1970: .max - 1).day == last.day - 1 || last.day == 1)
    }

    @Test("Int64 extremes in every field are refused or held, never trapped on", arguments: [Int.min, Int.min + 1, -(1 << 50), -1, 0, 13, 1 << 50, Int.max - 1, Int.max])
    func extremes(value: Int) {
        // Years beyond about ±2.5e16 have no Int day count; every other field is checked.
        #expect((CivilCalendar.daysSince1970(year: value, month: 1, day: 1) == nil) == (value.magnitude > 1 << 60))
        #expect((CivilCalendar.daysSince1970(year: value, month: 12, day: 31) == nil) == (value.magnitude > 1 << 60))
        #expect((CivilCalendar.daysSince1970(year: 2026, month: value, day: 1) == nil) == !(1...12).contains(value))
        #expect((CivilCalendar.daysSince1970(year: 2026, month: 1, day: value) == nil) == !(1...31).contains(value))
        let safe = CivilCalendar.instantSafeDays
        for days in [CivilCalendar.saturatingDays(year: value, month: 1, day: 1), CivilCalendar.saturatingDays(year: 2026, month: value, day: 1),
                     CivilCalendar.saturatingDays(year: 2026, month: 1, day: value), CivilCalendar.saturatingDays(year: value, month: value, day: value)] {
            #expect(safe.contains(days))
            #expect((0...6).contains(CivilCalendar.weekday(daysSince1970: days)))
        }
        #expect(CivilCalendar.saturatingDays(year: Int.max, month: Int.max, day: Int.max) == safe.upperBound)
        #expect(CivilCalendar.saturatingDays(year: Int.min, month: Int.min, day: Int.min) == safe.lowerBound)
        let date = CivilCalendar.civil(daysSince1970: value)
        #expect(CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) == value)
        let day = CivilDay(year: value, month: value, day: value)
        #expect(safe.contains(day.daysSince1970))
        #expect(day.adding(days: value).daysSince1970 >= safe.lowerBound)
        #expect(day.startUnixSeconds(offsetSeconds: value).isFinite)
    }

    @Test("months and days run on: month 13 is January, day 0 the last of the month before")
    func runningOn() {
        let day = { (year: Int, month: Int, day: Int) in CivilCalendar.saturatingDays(year: year, month: month, day: day) }
        #expect(day(2026, 13, 1) == day(2027, 1, 1))
        #expect(day(2026, 0, 1) == day(2025, 12, 1))
        #expect(day(2026, -11, 1) == day(2025, 1, 1))
        #expect(day(2026, -12, 1) == day(2024, 12, 1))
        #expect(day(2026, 3, 0) == day(2026, 2, 28))
        #expect(day(2024, 1, 60) == day(2024, 2, 29))
        #expect(day(2026, 1, 1 + 146_097) == day(2426, 1, 1))
    }
}

/// The accepted years, written once as years, give the instants and the words of the errors.
@Suite struct AcceptedYearsTests {
    @Test("0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z from the years 1...9999")
    func instants() {
        #expect(AcceptedTimes.years == 1...9999)
        #expect(AcceptedTimes.firstInstant == -62_135_596_800)
        #expect(AcceptedTimes.lastInstant == 253_402_300_799)
        #expect(AcceptedTimes.instant.description == "0001-01-01 to 9999-12-31 UTC")
        #expect(AcceptedTimes.room.description == "1970-01-01 to 9999-12-31 UTC")
    }
}
