import ZaoanTime

/// Where a week starts and how weeks are numbered: ISO 8601 in a grid that starts on Monday
/// (the week with the year's first Thursday is week 1), the region's rule otherwise (CLDR's
/// minimal days: 1 in the US, Taiwan, Japan and Korea, so the week with 1 January is week 1).
public struct WeekRule: Hashable, Sendable {
    /// 0 is Sunday.
    public let firstWeekday: Int
    public let minimalDays: Int

    public init(firstWeekday: Int, regionMinimalDays: Int) {
        self.firstWeekday = ((firstWeekday % 7) + 7) % 7
        minimalDays = self.firstWeekday == 1 ? 4 : min(max(regionMinimalDays, 1), 7)
    }

    /// 0 is Sunday (1970-01-01 was a Thursday).
    public static func weekday(of day: CivilDay) -> Int { ((day.daysSince1970 + 4) % 7 + 7) % 7 }

    /// The first day of the week `day` is in.
    public func start(ofWeekContaining day: CivilDay) -> CivilDay {
        day.adding(days: -((Self.weekday(of: day) - firstWeekday + 7) % 7))
    }

    /// The number of the week starting on `start`, in the year that has at least
    /// `minimalDays` of its days.
    public func weekNumber(ofWeekStarting start: CivilDay) -> Int {
        let year = start.adding(days: 7 - minimalDays).date.year
        let first = self.start(ofWeekContaining: CivilDay(year: year, month: 1, day: minimalDays))
        return (start.daysSince1970 - first.daysSince1970) / 7 + 1
    }
}
