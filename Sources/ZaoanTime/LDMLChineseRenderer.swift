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

    package init(relatedYear: Int, month: Int, isLeapMonth: Bool, day: Int, dayOfYear: Int) {
        self.relatedYear = relatedYear
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
        self.dayOfYear = dayOfYear
    }

    /// ICU's reckoning of the years: 60-year cycles counted from 2637 BC (the year 1 of
    /// cycle 1), the era (`G`) being the cycle and the year (`y`, `U`) the year in it: 2026
    /// is the 43rd year (丙午) of the 78th cycle.
    var cycle: (era: Int, year: Int) {
        let (extended, overflow) = relatedYear.addingReportingOverflow(2_636)
        let years = overflow ? relatedYear : extended
        return (CivilCalendar.floorDivide(years, 60) + 1, years - CivilCalendar.floorDivide(years, 60) * 60 + 1)
    }
}

/// Renders a read `LDMLPattern` in the Chinese calendar, as ICU's DateFormatter does under a
/// `@calendar=chinese` locale: the fields of the calendar's date (`G` `y` `U` `r` `Q` `q` `M`
/// `L` `d` `D`) from the `LDMLChineseDate` its caller gives for the local day, with CLDR's
/// `ca-chinese` words (`LDMLChineseWords`); every other field (weekday, time of day, zone)
/// as the Gregorian `LDMLRenderer` renders it. The caller is asked for the date only when
/// the pattern has a field that needs it, and may have none to give (a day outside the years
/// it computes): the answer is then nil, never a pattern rendered half right.
package enum LDMLChineseRenderer {
    /// - Parameter date: the Chinese date of a Gregorian day (the local day of `instant` in
    ///   `zone`, as ICU reckons it), or nil where the caller has none.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               language: LDMLLanguage, date: (CivilDay) -> LDMLChineseDate?) -> String? {
        render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone, words: LDMLWords.words(for: language),
               chinese: LDMLChineseWords.words(for: language), date: date)
    }

    static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int, zone: ZoneInfo, words: LDMLWords,
                       chinese: LDMLChineseWords, date: (CivilDay) -> LDMLChineseDate?) -> String? {
        let time = LDMLRenderer.localFields(instant: instant, nanoseconds: nanoseconds, zone: zone)
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
                    text += LDMLRenderer.render(field, width: width, time, words)
                    continue
                }
                guard let date = lunarDate() else { return nil }
                text += render(field, width: width, date, words, chinese)
            }
        }
        return text
    }

    /// Whether the calendar's date gives the field; the others (weekdays, the time of day,
    /// zones) are the same in every calendar.
    static func owns(_ field: LDMLPattern.Field) -> Bool {
        switch field {
        case .era, .year, .cyclicYear, .relatedYear, .quarter, .standaloneQuarter, .month, .standaloneMonth, .day, .dayOfYear: return true
        default: return false
        }
    }

    /// A field the calendar's date gives (`owns`).
    static func render(_ field: LDMLPattern.Field, width: Int, _ date: LDMLChineseDate, _ words: LDMLWords,
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
