import ZaoanProtocol
import ZaoanTime

/// What kind of day a date is for work: `month YYYY-MM days`' KIND column.
public enum WorkdayKind: String, Sendable {
    case workday, weekend, holiday
    /// A weekend day worked to make a break longer (调休上班).
    case makeupWorkday = "makeup-workday"
}

/// The holidays China's State Council gives days off for.
public enum ChinaHoliday: Character, CaseIterable, Sendable {
    case newYear = "n", springFestival = "s", qingming = "q", labourDay = "l"
    case dragonBoat = "d", midAutumn = "m", nationalDay = "g"
    /// 2015-09-03, the 70th anniversary of the victory in the War of Resistance.
    case victoryDay = "v"
}

/// China's public holidays and make-up workdays (`"workdays": "cn"`), as the General Office
/// of the State Council publishes them each year (one notice a year, usually in November, for
/// the next year): a holiday's break (every day of it, weekends inside included, as the
/// notices count them) and the weekend days worked in exchange. The years published are
/// shipped as data (`ChinaWorkdays+Table.swift`, generated from python-holidays by
/// scripts/generate/china-workdays.py); the config's `workdays_extra` adds days the table
/// has not got yet (next year's, before the package with it arrives).
///
/// Outside the published years a day is a workday or a weekend by its weekday alone.
public struct ChinaWorkdays: Sendable {
    /// The config's days (`workdays_extra`), by day; they stand over the shipped table's.
    private let extra: [Int: (kind: WorkdayKind, holiday: ChinaHoliday?)]

    /// The shipped table with `extra` on top (a day in both is the config's). The shipped
    /// table is read when a day is first asked for, not here: settings are built at start,
    /// before the first answer, and most services never show a month.
    public init(extra: [CivilDay: (kind: WorkdayKind, holiday: ChinaHoliday?)] = [:]) {
        var days: [Int: (kind: WorkdayKind, holiday: ChinaHoliday?)] = [:]
        for (day, entry) in extra { days[day.daysSince1970] = entry }
        self.extra = days
    }

    /// What `day` is.
    public func kind(of day: CivilDay) -> (kind: WorkdayKind, holiday: ChinaHoliday?) {
        if let entry = extra[day.daysSince1970] ?? Self.shipped[day.daysSince1970] { return entry }
        let weekday = WeekRule.weekday(of: day)
        return (weekday == 0 || weekday == 6 ? .weekend : .workday, nil)
    }

    /// The breaks (runs of holiday days) that touch the days from `first` to `last`, each as
    /// its first day, its last day and its holiday.
    public func breaks(from first: CivilDay, to last: CivilDay) -> [(first: CivilDay, last: CivilDay, holiday: ChinaHoliday)] {
        var found: [(first: CivilDay, last: CivilDay, holiday: ChinaHoliday)] = []
        var day = first
        while day <= last {
            if case (.holiday, let holiday?) = kind(of: day) {
                var start = day, end = day
                while case (.holiday, holiday?) = kind(of: start.adding(days: -1)) { start = start.adding(days: -1) }
                while case (.holiday, holiday?) = kind(of: end.adding(days: 1)) { end = end.adding(days: 1) }
                found.append((start, end, holiday))
                day = end
            }
            day = day.adding(days: 1)
        }
        return found
    }

    /// Whether a zone is China's: the zones of mainland China in the zone table.
    public static func isChinaZone(_ identifier: String) -> Bool {
        ["Asia/Shanghai", "Asia/Urumqi", "PRC", "Asia/Chongqing", "Asia/Chungking", "Asia/Harbin"].contains(identifier)
    }

    /// The generated table, read once: `MMDD` and a letter per day, read as ASCII bytes.
    private static let shipped: [Int: (kind: WorkdayKind, holiday: ChinaHoliday?)] = {
        var days: [Int: (kind: WorkdayKind, holiday: ChinaHoliday?)] = [:]
        for (year, text, _) in table {
            for token in text.utf8.split(separator: UInt8(ascii: " ")) {
                let bytes = Array(token)
                guard bytes.count == 5, bytes[0..<4].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { continue }
                let digit = { (index: Int) in Int(bytes[index] &- UInt8(ascii: "0")) }
                let letter = bytes[4]
                let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter)
                guard let holiday = ChinaHoliday(rawValue: Character(Unicode.Scalar(isUpper ? letter + 32 : letter))) else { continue }
                let day = CivilDay(year: year, month: digit(0) * 10 + digit(1), day: digit(2) * 10 + digit(3))
                days[day.daysSince1970] = (isUpper ? .makeupWorkday : .holiday, holiday)
            }
        }
        return days
    }()
}
