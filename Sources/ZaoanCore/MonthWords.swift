import ZaoanProtocol

/// What a month's grid takes from CLDR in one language (`MonthWords+CLDR.swift`, generated
/// by scripts/generate/month-words.py): the week's first day and week-numbering rule of the
/// language's region (weekData), the title's pattern (yMMMM), the weekdays' short names and
/// the months' names.
///
/// CLDR 47 starts the week on Monday in CN (it said Sunday until CLDR 44), as China's
/// GB/T 7408 (ISO 8601) and its wall calendars do; on Sunday in TW, US, JP and KR; on Monday in
/// DE, FR and ES. `week_start` overrides it.
public struct MonthWords: Sendable {
    /// 0 is Sunday, as `struct tm` counts.
    public let firstWeekday: Int
    /// How many of its days the first week of a year has in that year: 4 is ISO 8601's rule,
    /// 1 the US's (the week with 1 January is week 1).
    public let minimalDaysInFirstWeek: Int
    let title: String
    /// Sunday first.
    let weekdays: [String]
    let months: [String]

    public static func forLanguage(_ language: Language) -> MonthWords { cldr[language] ?? cldr[.en]! }

    /// The month's title through its LDML pattern (`y年M月`, `MMMM y`, `MMMM 'de' y`): the
    /// pattern letters y and M (1 to 4), quoted literals, everything else as it stands.
    public func title(year: Int, month: Int) -> String {
        var out = ""
        let characters = Array(title)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                var end = index + 1
                while end < characters.count, characters[end] != "'" { end += 1 }
                out += end == index + 1 ? "'" : String(characters[(index + 1)..<end])
                index = end + 1
                continue
            }
            var run = 1
            while index + run < characters.count, characters[index + run] == character { run += 1 }
            switch character {
            case "y": out += String(year)
            case "M": out += run >= 4 ? months[month - 1] : (run == 2 && month < 10 ? "0\(month)" : String(month))
            default: out += String(repeating: String(character), count: run)
            }
            index += run
        }
        return out
    }

    /// The short name of a weekday, 0 Sunday.
    public func weekday(_ day: Int) -> String { weekdays[((day % 7) + 7) % 7] }
}
