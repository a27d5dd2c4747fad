import ZaoanTime

/// One day of a month's grid, with everything the grid, `month days` and the bars show of it.
public struct MonthDay: Sendable, Equatable {
    public let day: CivilDay
    /// Under the day in the grid: its festival, solar term or lunar day (the month's name on
    /// 初一), at most `MonthGrid.lunarColumns` wide; empty without the lunar calendar.
    public var cell: String = ""
    /// `month days`' LUNAR DAY column: 十月十五, 闰六月初八; `10-15`, `L06-08` outside Chinese.
    public var lunarDay: String = "-"
    /// Festivals and solar terms, in the configured language.
    public var marks: [String] = []
    public var kind: WorkdayKind = .workday
    public var holiday: ChinaHoliday?
    /// Rooms and calendar events that touch the day.
    public var events = 0
    /// The calendar `color` of the first event that day whose calendar has one.
    public var eventColor: BarColor?

    public init(day: CivilDay) { self.day = day }
}

/// A month laid out in weeks: the days of the weeks that hold any of its days, each week a
/// row of seven starting on `rule.firstWeekday`, days outside the month left out (nil).
public struct MonthGrid: Sendable {
    public let year: Int
    public let month: Int
    public let rule: WeekRule
    public let days: [MonthDay]
    /// Today, when it is in this month.
    public let today: CivilDay?

    /// The widest a cell's text under its day may be, in columns: three CJK characters.
    public static let lunarColumns = 6

    public init(year: Int, month: Int, rule: WeekRule, days: [MonthDay], today: CivilDay?) {
        self.year = year
        self.month = month
        self.rule = rule
        self.days = days
        self.today = today.flatMap { today in days.contains { $0.day == today } ? today : nil }
    }

    /// The days of a month, first to last.
    public static func daysOf(year: Int, month: Int) -> [CivilDay] {
        let first = CivilDay(year: year, month: month, day: 1)
        let next = month == 12 ? CivilDay(year: year + 1, month: 1, day: 1) : CivilDay(year: year, month: month + 1, day: 1)
        return (0..<(next.daysSince1970 - first.daysSince1970)).map { first.adding(days: $0) }
    }

    /// The weeks: each its number and its seven places.
    public var weeks: [(number: Int, days: [MonthDay?])] {
        guard let first = days.first?.day else { return [] }
        var start = rule.start(ofWeekContaining: first)
        var weeks: [(number: Int, days: [MonthDay?])] = []
        var index = 0
        while index < days.count {
            var row: [MonthDay?] = []
            for offset in 0..<7 {
                let day = start.adding(days: offset)
                if index < days.count, days[index].day == day {
                    row.append(days[index])
                    index += 1
                } else {
                    row.append(nil)
                }
            }
            weeks.append((rule.weekNumber(ofWeekStarting: start), row))
            start = start.adding(days: 7)
        }
        return weeks
    }
}
