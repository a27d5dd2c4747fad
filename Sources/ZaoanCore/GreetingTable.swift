/// One row of a greeting table: from `start` (minutes after midnight) until the next row.
public struct GreetingPeriod: Sendable, Equatable {
    public let start: Int
    public let text: String
    /// The day part bars style it as; by default the one its start falls in.
    public let dayPart: DayPart
    public init(start: Int, text: String, dayPart: DayPart? = nil) {
        self.start = start
        self.text = text
        self.dayPart = dayPart ?? DayPart(hour: start / 60)
    }
}

/// Maps a time of day to a greeting. Rows are sorted by start; the last row wraps past
/// midnight to the first, so [23:00, 05:00) needs no special case.
public struct GreetingTable: Sendable, Equatable {
    public let periods: [GreetingPeriod]

    /// - Precondition: `periods` is non-empty; starts are validated by the config layer.
    public init(_ periods: [GreetingPeriod]) {
        precondition(!periods.isEmpty, "a greeting table needs at least one row")
        self.periods = periods.sorted { $0.start < $1.start }
    }

    /// The greeting for a local time of day.
    public func greeting(hour: Int, minute: Int) -> String {
        period(hour: hour, minute: minute).text
    }

    /// The row in force at a local time of day.
    public func period(hour: Int, minute: Int) -> GreetingPeriod {
        let minutes = hour * 60 + minute
        var chosen = periods[periods.count - 1]  // before the first start: the last row wraps
        for period in periods where period.start <= minutes {
            chosen = period
        }
        return chosen
    }

    public static let chinese = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "早安"),
        GreetingPeriod(start: 11 * 60, text: "午安"),
        GreetingPeriod(start: 14 * 60, text: "下午好"),
        GreetingPeriod(start: 18 * 60, text: "晚上好"),
        GreetingPeriod(start: 23 * 60, text: "晚安"),
    ])

    public static let english = GreetingTable([
        GreetingPeriod(start: 5 * 60, text: "Good morning"),
        GreetingPeriod(start: 12 * 60, text: "Good afternoon", dayPart: .afternoon),
        GreetingPeriod(start: 18 * 60, text: "Good evening"),
        GreetingPeriod(start: 23 * 60, text: "Good night"),
    ])

    public static func standard(for language: Language) -> GreetingTable {
        language == .zh ? chinese : english
    }
}
