import ZaoanProtocol
import ZaoanTime

/// The month view's settings: `week_start`, `lunar`, `workdays` and `workdays_extra`.
public struct MonthSettings: Sendable {
    /// The grid's first weekday (0 Sunday) and week numbering.
    public var weekRule: WeekRule
    /// Lunar days under the days.
    public var lunar: Bool
    /// China's holidays and make-up workdays, when on.
    public var workdays: ChinaWorkdays?

    public init(language: Language, zoneIdentifier: String) {
        let words = MonthWords.forLanguage(language)
        weekRule = WeekRule(firstWeekday: words.firstWeekday, regionMinimalDays: words.minimalDaysInFirstWeek)
        lunar = language.isChinese
        workdays = language == .zh && ChinaWorkdays.isChinaZone(zoneIdentifier) ? ChinaWorkdays() : nil
    }

    static let weekdayWords = ["sunday": 0, "monday": 1, "saturday": 6]

    /// `workdays_extra` values: a kind of day, or the holiday a day off is for.
    static let extraWords: [String: (kind: WorkdayKind, holiday: ChinaHoliday?)] = [
        "workday": (.workday, nil), "weekend": (.weekend, nil), "makeup-workday": (.makeupWorkday, nil),
        "new-year": (.holiday, .newYear), "spring-festival": (.holiday, .springFestival), "qingming": (.holiday, .qingming),
        "labour-day": (.holiday, .labourDay), "dragon-boat": (.holiday, .dragonBoat), "mid-autumn": (.holiday, .midAutumn),
        "national-day": (.holiday, .nationalDay),
    ]
}

extension Settings {
    /// Reads the month view's keys over the language's defaults; a bad value costs that value.
    static func monthSettings(_ file: ConfigFile, language: Language, zoneIdentifier: String, problems: inout ProblemList) -> MonthSettings {
        var month = MonthSettings(language: language, zoneIdentifier: zoneIdentifier)
        if let word = file[string: .weekStart] {
            if let weekday = MonthSettings.weekdayWords[word.lowercased()] {
                month.weekRule = WeekRule(firstWeekday: weekday, regionMinimalDays: MonthWords.forLanguage(language).minimalDaysInFirstWeek)
            } else {
                problems.add(ConfigError(key: ConfigKey.weekStart.name, problem: "'\(RequestParser.shorten(word))' is not \"monday\", \"sunday\" or \"saturday\""), .defaultUsed)
            }
        }
        month.lunar = file[boolean: .lunar] ?? month.lunar
        if let word = file[string: .workdays] {
            switch word.lowercased() {
            case "cn": month.workdays = ChinaWorkdays()
            case "none": month.workdays = nil
            default:
                problems.add(ConfigError(key: ConfigKey.workdays.name, problem: "'\(RequestParser.shorten(word))' is not \"cn\" or \"none\""), .defaultUsed)
            }
        }
        guard let entries = file[stringMap: .workdaysExtra], !entries.isEmpty else { return month }
        var extra: [CivilDay: (kind: WorkdayKind, holiday: ChinaHoliday?)] = [:]
        for (date, word) in entries.sorted(by: { $0.key < $1.key }).prefix(Self.maxWorkdaysExtra) {
            let at = "\(ConfigKey.workdaysExtra.name).\(date)"
            guard let day = Self.configDay(date) else {
                problems.add(ConfigError(key: ConfigKey.workdaysExtra.name, problem: "'\(RequestParser.shorten(date))' is not a date YYYY-MM-DD of \(MonthSelector.years.lowerBound) to \(MonthSelector.years.upperBound)"), .entryLeftOut, at: at)
                continue
            }
            guard let entry = MonthSettings.extraWords[word.lowercased()] else {
                let accepted = MonthSettings.extraWords.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                problems.add(ConfigError(key: at, problem: "'\(RequestParser.shorten(word))' is none of \(accepted)"), .entryLeftOut, at: at)
                continue
            }
            extra[day] = entry
        }
        if entries.count > Self.maxWorkdaysExtra {
            problems.add(ConfigError(key: ConfigKey.workdaysExtra.name, problem: "\(entries.count) days; the first \(Self.maxWorkdaysExtra) by date are kept"), .entryLeftOut)
        }
        if month.workdays != nil { month.workdays = ChinaWorkdays(extra: extra) }
        return month
    }

    /// At most this many `workdays_extra` days: a year's notice has about forty.
    public static let maxWorkdaysExtra = 400

    /// `2027-02-07` in the years the month view shows.
    static func configDay(_ text: String) -> CivilDay? {
        guard RoomLimits.isDate(text), let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
              let day = Int(text.suffix(2)), MonthSelector.years.contains(year), (1...12).contains(month), day >= 1,
              day <= MonthGrid.daysOf(year: year, month: month).count else { return nil }
        return CivilDay(year: year, month: month, day: day)
    }
}
