/// The week fields, `Y` (the year the week belongs to), `w` (week of that year) and `W`
/// (week of the month), by ICU's Calendar::computeWeekFields over the language's CLDR
/// weekData: weeks start on `firstWeekday`, and a year's (a month's) first week is the first
/// with at least `minimalDaysInFirstWeek` of its days; days before it are in week 0 of the
/// month, and in the last week of the year before. The rule is the same in every calendar,
/// over that calendar's years and months (LDMLChineseRenderer gives the lunar ones).
extension LDMLRenderer {
    static func week(_ field: LDMLPattern.Field, width: Int, _ time: LocalFields, _ words: LDMLWords) -> String {
        let week = WeekOfYear(year: time.year, dayOfYear: time.dayOfYear, day: time.day, weekday: time.weekday,
                              firstWeekday: words.firstWeekday, minimalDays: words.minimalDaysInFirstWeek, length: WeekOfYear.length)
        switch field {
        case .weekYear:
            // ICU writes the week's year as `y` writes the year's, but signed before year 1.
            let year = week.year > 0 ? week.year : week.year - 1
            return width == 2 ? padded(year % 100, 2) : padded(year, width)
        case .weekOfYear: return padded(week.week, width)
        default: return padded(week.weekOfMonth, width)
        }
    }

    struct WeekOfYear {
        let year: Int, week: Int, weekOfMonth: Int

        /// - Parameters:
        ///   - year: the calendar's year of the day; `day` its day of the month.
        ///   - weekday: 0 = Sunday ... 6 = Saturday.
        ///   - length: the number of days in a year of the calendar.
        init(year: Int, dayOfYear: Int, day: Int, weekday: Int, firstWeekday: Int, minimalDays: Int, length: (Int) -> Int) {
            // ICU counts weekdays 1 (Sunday) ... 7; the differences below are the same from 0.
            func weekNumber(_ day: Int, dayOfPeriod: Int) -> Int {
                let start = ((weekday - firstWeekday - dayOfPeriod + 1) % 7 + 7) % 7
                return (day + start - 1) / 7 + (7 - start >= minimalDays ? 1 : 0)
            }
            let relativeDay = ((weekday - firstWeekday) % 7 + 7) % 7
            let relativeNewYear = ((weekday - dayOfYear + 1 - firstWeekday) % 7 + 7) % 7
            var week = (dayOfYear - 1 + relativeNewYear) / 7 + (7 - relativeNewYear >= minimalDays ? 1 : 0)
            var year = year
            if week == 0 {
                week = weekNumber(dayOfYear + length(year - 1), dayOfPeriod: dayOfYear + length(year - 1))
                year -= 1
            } else {
                let lastDay = length(year)
                if dayOfYear >= lastDay - 5 {
                    let lastRelativeDay = ((relativeDay + lastDay - dayOfYear) % 7 + 7) % 7
                    if 6 - lastRelativeDay >= minimalDays, dayOfYear + 7 - relativeDay > lastDay {
                        week = 1
                        year += 1
                    }
                }
            }
            (self.year, self.week) = (year, week)
            weekOfMonth = weekNumber(day, dayOfPeriod: day)
        }

        /// Days in a proleptic Gregorian year.
        static func length(_ year: Int) -> Int {
            year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 366 : 365
        }
    }
}
