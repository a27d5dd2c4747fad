/// A day of the Chinese calendar as LDML's fields need it. ZaoanTime does not compute it:
/// the almanac does (ZaoanAlmanac's `ChineseCalendarPattern` fills it from `Almanac`), and
/// tests may fill it from ICU's own calendar.
package struct LDMLChineseDate: Sendable, Equatable {
    /// The Gregorian year in which the lunar year's first month (正月) began.
    package var relatedYear: Int
    /// 1–12; a leap month repeats the number of the month before it.
    package var month: Int
    package var isLeapMonth: Bool
    /// 1–30.
    package var day: Int
    /// 1 on 正月初一.
    package var dayOfYear: Int
    /// The days of this lunar year and of the one before (353–385): the week fields (`Y`
    /// `w`) put a year's first and last days in the week of the year next to it.
    package var daysInYear: Int, daysInPreviousYear: Int

    package init(relatedYear: Int, month: Int, isLeapMonth: Bool, day: Int, dayOfYear: Int, daysInYear: Int,
                 daysInPreviousYear: Int) {
        self.relatedYear = relatedYear
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
        self.dayOfYear = dayOfYear
        self.daysInYear = daysInYear
        self.daysInPreviousYear = daysInPreviousYear
    }

    /// ICU's reckoning of the years: 60-year cycles counted from 2637 BC (the year 1 of
    /// cycle 1), the era (`G`) being the cycle and the year (`y`, `U`) the year in it: 2026
    /// is the 43rd year (丙午) of the 78th cycle.
    var cycle: (era: Int, year: Int) {
        let (extended, overflow) = relatedYear.addingReportingOverflow(2_636)
        let years = overflow ? relatedYear : extended
        return (CivilCalendar.floorDivide(years, 60) + 1, years - CivilCalendar.floorDivide(years, 60) * 60 + 1)
    }

    /// ICU's extended year, the years counted on through the cycles (2026 is 4663): the
    /// year the week fields count in (`Y`). Held to ±2⁶² first, so that it and the years
    /// either side of it (the week's year) never overflow, whatever year a caller gives.
    var extendedYear: Int {
        min(max(relatedYear, -(1 << 62)), 1 << 62) + 2_637
    }
}

/// Renders a read `LDMLPattern` in the Chinese calendar, as ICU's DateFormatter does under a
/// `@calendar=chinese` locale: the fields of the calendar's date (`G` `y` `U` `r` `Q` `q` `M`
/// `L` `d` `D`) from the `LDMLChineseDate` its caller gives for the local day, with CLDR's
/// `ca-chinese` words (`LDMLChineseWords`), and the week fields (`Y` `w` `W`) by the lunar
/// year and month; every other field (weekday, time of day, day period, zone) as the
/// Gregorian `LDMLRenderer` renders it. The caller is asked for the date only when
/// the pattern has a field that needs it, and may have none to give (a day outside the years
/// it computes): the answer is then nil, never a pattern rendered half right.
package enum LDMLChineseRenderer {
    /// - Parameters:
    ///   - zoneIdentifier: the zone's tz name, for zone names (`LDMLRenderer`'s).
    ///   - date: the Chinese date of a Gregorian day (the local day of `instant` in `zone`,
    ///     as ICU reckons it), or nil where the caller has none.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               zoneIdentifier: String? = nil, language: LDMLLanguage,
                               date: (CivilDay) -> LDMLChineseDate?) -> String? {
        let names = pattern.namesZones
        return render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone, zoneIdentifier: zoneIdentifier,
                      words: LDMLWords.words(for: language), zoneWords: names ? LDMLZoneWords.words(for: language) : .unused,
                      zoneData: names ? .cldr : .unused, chinese: LDMLChineseWords.words(for: language), date: date)
    }

    static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int, zone: ZoneInfo, zoneIdentifier: String?,
                       words: LDMLWords, zoneWords: LDMLZoneWords, zoneData: LDMLZoneData, chinese: LDMLChineseWords,
                       date: (CivilDay) -> LDMLChineseDate?) -> String? {
        let time = LDMLRenderer.localFields(instant: instant, nanoseconds: nanoseconds, zone: zone)
        let context = LDMLRenderer.Context(pattern, time: time, zone: zone, zoneIdentifier: zoneIdentifier, words: words,
                                           zoneWords: zoneWords, zoneData: zoneData)
        var lunar: LDMLChineseDate??
        func lunarDate() -> LDMLChineseDate? {
            if let lunar { return lunar }
            let found = date(CivilDay(year: time.year, month: time.month, day: time.day))
            lunar = .some(found)
            return found
        }
        var text = ""
        for piece in pattern.pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .field(let field, let width):
                guard owns(field) else {
                    text += LDMLRenderer.render(field, width: width, context)
                    continue
                }
                guard let date = lunarDate() else { return nil }
                text += render(field, width: width, date, weekday: time.weekday, words, chinese)
            }
        }
        return text
    }

    /// Whether the calendar's date gives the field; the others (weekdays, the time of day,
    /// day periods, zones) are the same in every calendar.
    static func owns(_ field: LDMLPattern.Field) -> Bool {
        switch field {
        case .era, .year, .cyclicYear, .relatedYear, .quarter, .standaloneQuarter, .month, .standaloneMonth, .day, .dayOfYear,
             .weekYear, .weekOfYear, .weekOfMonth: return true
        default: return false
        }
    }

    /// A field the calendar's date gives (`owns`); `weekday` is the day's (0 = Sunday).
    static func render(_ field: LDMLPattern.Field, width: Int, _ date: LDMLChineseDate, weekday: Int, _ words: LDMLWords,
                       _ chinese: LDMLChineseWords) -> String {
        switch field {
        case .era: return LDMLRenderer.padded(date.cycle.era, 1)  // a number at every width, as ICU writes it
        case .year:
            let year = date.cycle.year
            return width == 2 ? LDMLRenderer.padded(year % 100, 2) : LDMLRenderer.padded(year, width)
        case .cyclicYear:
            let year = date.cycle.year
            return chinese.cyclicYears.indices.contains(year - 1) ? chinese.cyclicYears[year - 1] : LDMLRenderer.padded(year, width)
        case .relatedYear: return LDMLRenderer.padded(date.relatedYear, width)
        case .quarter, .standaloneQuarter:
            let quarter = (date.month - 1) / 3 + 1
            return width <= 2 ? LDMLRenderer.padded(quarter, width)
                : LDMLRenderer.name(field == .quarter ? words.quarters : words.standaloneQuarters, quarter - 1, width: width)
        case .month, .standaloneMonth: return month(date, standalone: field == .standaloneMonth, width: width, chinese)
        case .day:
            let day = date.day
            return chinese.dayNumbers.indices.contains(day) ? chinese.dayNumbers[day] : LDMLRenderer.padded(day, width)
        case .dayOfYear: return LDMLRenderer.padded(date.dayOfYear, width)
        case .weekYear, .weekOfYear, .weekOfMonth:
            let week = LDMLRenderer.WeekOfYear(year: date.extendedYear, dayOfYear: date.dayOfYear, day: date.day, weekday: weekday,
                                               firstWeekday: words.firstWeekday, minimalDays: words.minimalDaysInFirstWeek) { year in
                year == date.extendedYear ? date.daysInYear : date.daysInPreviousYear  // asked for this year or the one before
            }
            let value = field == .weekYear ? week.year : field == .weekOfYear ? week.week : week.weekOfMonth
            return field == .weekYear && width == 2 ? LDMLRenderer.padded(value % 100, 2) : LDMLRenderer.padded(value, width)
        default: return ""  // not owned: never asked
        }
    }

    /// `M`/`MM` a number, `MMM` abbreviated, `MMMM` wide, `MMMMM` narrow; a leap month in
    /// its width's pattern (闰6, 闰六月, Mo6bis, 6b).
    static func month(_ date: LDMLChineseDate, standalone: Bool, width: Int, _ chinese: LDMLChineseWords) -> String {
        if width <= 2 {
            let number = LDMLRenderer.padded(date.month, width)
            return date.isLeapMonth ? LDMLChineseWords.apply(chinese.numericLeapMonth, to: number) : number
        }
        let name = LDMLRenderer.name(standalone ? chinese.standaloneMonths : chinese.months, date.month - 1, width: width)
        guard date.isLeapMonth else { return name }
        let patterns = standalone ? chinese.standaloneLeapMonths : chinese.leapMonths
        let pattern = width == 3 ? patterns.abbreviated : width == 4 ? patterns.wide : patterns.narrow
        return LDMLChineseWords.apply(pattern, to: name)
    }
}
