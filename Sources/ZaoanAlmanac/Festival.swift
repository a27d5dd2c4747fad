/// The traditional festivals of the Chinese calendar that zaoan names, in the order they come
/// in a lunar year (除夕 last). Ten are dates of the lunar calendar, two are solar terms.
///
/// - A lunar festival is a day of an ordinary month: a leap month repeats its month's
///   number but holds none of its festivals (the 5th day of a leap 5th month is not 端午).
/// - 除夕 is the last day of the lunar year, the eve of 春节: the 30th of the 12th month, or
///   its 29th when the month is short.
/// - 清明 and 冬至 fall on the day of their solar term in China (`SolarTermInstant.day`).
///
/// The names, in each language, are the text layer's (ZaoanCore's `FestivalText`).
public enum Festival: Int, CaseIterable, Sendable {
    case springFestival, lanternFestival, dragonRaisesHead, qingming, dragonBoat, qixi, ghostFestival
    case midAutumn, doubleNinth, winterSolstice, laba, newYearsEve

    /// A lunar festival's month (ordinary, never leap) and day; nil for the solar-term ones
    /// and for 除夕, whose day depends on the month's length.
    public var lunarMonthDay: (month: Int, day: Int)? {
        switch self {
        case .springFestival: return (1, 1)
        case .lanternFestival: return (1, 15)
        case .dragonRaisesHead: return (2, 2)
        case .dragonBoat: return (5, 5)
        case .qixi: return (7, 7)
        case .ghostFestival: return (7, 15)
        case .midAutumn: return (8, 15)
        case .doubleNinth: return (9, 9)
        case .laba: return (12, 8)
        case .qingming, .winterSolstice, .newYearsEve: return nil
        }
    }

    /// The solar term a festival is the day of, if it is one.
    public var solarTerm: SolarTerm? {
        switch self {
        case .qingming: return .clearAndBright
        case .winterSolstice: return .winterSolstice
        default: return nil
        }
    }
}

/// One festival on its day (the Gregorian day of the Chinese calendar's date, reckoned in
/// China as the calendar is).
public struct FestivalDay: Hashable, Sendable, CustomStringConvertible {
    public let festival: Festival
    public let day: CivilDay

    public init(festival: Festival, day: CivilDay) {
        self.festival = festival
        self.day = day
    }

    /// `2027-02-06 springFestival`: for tests and logs.
    public var description: String { "\(day) \(festival)" }

    /// By day, then by the festival's place in the year.
    static func inOrder(_ a: FestivalDay, _ b: FestivalDay) -> Bool {
        (a.day, a.festival.rawValue) < (b.day, b.festival.rawValue)
    }
}

extension LunarYearSpan {
    /// The lunar festivals of the span's ordinary months, and 除夕 before each 正月.
    var festivalDays: [FestivalDay] {
        var found: [FestivalDay] = []
        for (index, month) in months.enumerated() where !month.isLeap {
            let next = index + 1 < months.count ? months[index + 1].start : end
            let length = next.daysSince1970 - month.start.daysSince1970
            for festival in Festival.allCases {
                guard let (number, day) = festival.lunarMonthDay, number == month.number, day <= length else { continue }
                found.append(FestivalDay(festival: festival, day: month.start.adding(days: day - 1)))
            }
            // A span's first month is month 11, so the day before a 正月 is inside the span.
            if month.number == 1 { found.append(FestivalDay(festival: .newYearsEve, day: month.start.adding(days: -1))) }
        }
        return found
    }
}
