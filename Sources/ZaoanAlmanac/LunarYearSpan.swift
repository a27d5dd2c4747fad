/// The months from the one holding a winter solstice (month 11) up to the one holding the
/// next: one 岁 (suì) of the Chinese calendar, the span its leap-month rule works on.
///
/// The rules (GB/T 33661-2017, "Calculation and promulgation of the Chinese calendar"):
/// - a month starts on the day, in China (`ChinaTime`), of a new moon;
/// - the month holding the winter solstice (冬至) is month 11;
/// - when 13 months start between two months 11, the first of them holding no principal term
///   (中气: 冬至, 大寒, 雨水, …, the Sun at a multiple of 30°) is a leap month and repeats the
///   number of the month before it;
/// - month 1 (正月) starts the year, which takes the sexagenary name of its Gregorian year.
struct LunarYearSpan {
    struct Month {
        let start: CivilDay
        let number: Int
        let isLeap: Bool
        /// The Gregorian year whose 正月 begins the lunar year this month is in.
        let relatedYear: Int
    }

    /// In order; the first is month 11 of the year before.
    let months: [Month]
    /// The first day of the next span's month 11.
    let end: CivilDay

    var start: CivilDay { months[0].start }

    /// The span that ends with the month holding `year`'s winter solstice: month 11 of
    /// year − 1 to the day before year's month 11.
    /// - Parameters:
    ///   - solsticeBefore: the winter solstice of year − 1.
    ///   - terms: the 24 terms of `year` (its principal ones, and its winter solstice).
    init(year: Int, solsticeBefore: SolarTermInstant, terms: [SolarTermInstant]) {
        let principalDays = [solsticeBefore.day] + terms.filter(\.term.isPrincipal).map(\.day)
        let solsticeDay = solsticeBefore.day
        let nextSolsticeDay = terms[SolarTerm.winterSolstice.rawValue].day

        // The new moon that starts month 11: the last one on or before the solstice's day.
        var lunation = NewMoonSearch.lunation(near: solsticeBefore.unixSeconds)
        var starts: [CivilDay] = []
        var day = NewMoonSearch.day(ofLunation: lunation)
        while day > solsticeDay {
            lunation -= 1
            day = NewMoonSearch.day(ofLunation: lunation)
        }
        while day <= nextSolsticeDay {
            starts.append(day)
            lunation += 1
            day = NewMoonSearch.day(ofLunation: lunation)
        }
        // starts: month 11 of year − 1 … month 11 of year.
        let monthCount = starts.count - 1  // the last start is the next span's month 11
        var leapIndex: Int?
        if monthCount == 13 {
            leapIndex = (1..<13).first { index in
                !principalDays.contains { $0 >= starts[index] && $0 < starts[index + 1] }
            }
        }
        var months: [Month] = []
        var number = 10
        var seenFirstMonth = false
        for index in 0..<monthCount {
            let isLeap = index == leapIndex
            if !isLeap { number = number % 12 + 1 }
            if number == 1 && !isLeap { seenFirstMonth = true }
            months.append(Month(start: starts[index], number: number, isLeap: isLeap,
                                relatedYear: seenFirstMonth ? year : year - 1))
        }
        self.months = months
        self.end = starts[monthCount]
    }

    /// The lunar date of a day inside the span.
    func date(of day: CivilDay) -> LunarDate {
        precondition(day >= start && day < end, "\(day) is outside the span \(start)..<\(end)")
        let month = months.last { $0.start <= day }!
        return LunarDate(relatedYear: month.relatedYear, month: month.number, isLeapMonth: month.isLeap,
                         day: day.daysSince1970 - month.start.daysSince1970 + 1)
    }
}
