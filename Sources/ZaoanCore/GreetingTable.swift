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

    /// The built-in table of a language (the others are in GreetingTable+Languages.swift).
    public static func standard(for language: Language) -> GreetingTable {
        switch language {
        case .zh: return chinese
        case .en: return english
        case .zhHant: return traditionalChinese
        case .ja: return japanese
        case .ko: return korean
        case .de: return german
        case .fr: return french
        case .es: return spanish
        }
    }

    /// What stands between the greeting and the city unless `separator` says otherwise:
    /// `早安·北京`, `おはよう·東京`, `좋은 아침·서울`, but `Good morning · Beijing`.
    public static func separator(for language: Language) -> String {
        switch language {
        case .zh, .zhHant, .ja, .ko: return "·"
        case .en, .de, .fr, .es: return " · "
        }
    }
}
