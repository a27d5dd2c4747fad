import CICal

/// How a series repeats: what a user types for a recurring live room (`daily`, `weekdays`,
/// `weekly`, or an RFC 5545 RRULE value such as `FREQ=WEEKLY;BYDAY=MO,WE,FR`), checked by
/// libical and kept in libical's canonical text, which reads back to the same rule.
///
/// FREQ=SECONDLY and FREQ=MINUTELY are refused: a bar or prompt that shows the next
/// occurrence would change every second or minute and never rest, and a window of 48 hours
/// would hold thousands of occurrences. FREQ=HOURLY is the shortest.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    public enum Frequency: String, Sendable {
        case hourly = "HOURLY", daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// The canonical RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE,FR`), for saving.
    public let text: String
    public let frequency: Frequency
    /// COUNT, if the rule has one.
    public let count: Int?
    /// INTERVAL (1 when not given).
    public let interval: Int
    /// UNTIL as written.
    package let until: Until?
    /// Whether the rule has no part beyond FREQ, INTERVAL, COUNT, UNTIL and WKST: its
    /// instances are then the start and every INTERVAL after it (read once, from `text`).
    package let isPlain: Bool
    /// The rule as zaoan's engine (`RuleIterator`) reads it.
    package let parts: RuleParts

    package enum Until: Hashable, Sendable {
        /// A DATE: the series ends with that local day.
        case day(CivilDay)
        /// A UTC time (`...Z`), as RFC 5545 asks when DTSTART has a zone.
        case utc(LocalDateTime)
        /// A floating time: read in the series' own zone.
        case wall(LocalDateTime)
    }

    /// The words a user may type instead of an RRULE.
    public static let words: [String: String] = [
        "daily": "FREQ=DAILY",
        "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "weekly": "FREQ=WEEKLY",
    ]

    /// Reads what the user typed; the error says, in their terms, what is wrong.
    public init(parsing input: String) throws(RecurrenceRuleError) {
        LibICal.prepare()
        var text = input.trimmingASCIISpaces
        guard !text.isEmpty else { throw .init("the rule is empty; type daily, weekdays, weekly or an RRULE like FREQ=WEEKLY;BYDAY=MO,WE,FR") }
        guard text.utf8.count <= CalendarLimits.ruleBytes else {
            throw .init("the rule is \(text.utf8.count) bytes long; at most \(CalendarLimits.ruleBytes)")
        }
        if let expansion = Self.words[text.lowercased()] { text = expansion }
        if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
        if let odd = text.unicodeScalars.first(where: { !($0.value > 0x20 && $0.value < 0x7F) }) {
            throw .init("the rule has \(odd.value == 0x20 ? "a space" : "'\(SafeName.short(String(odd)))'"), which no RRULE has; parts are NAME=VALUE joined by ';'")
        }
        let parts = text.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        guard let frequencyPart = parts.first(where: { $0.uppercased().hasPrefix("FREQ=") }) else {
            throw .init("the rule has no FREQ=; start it with FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, or type daily, weekdays or weekly")
        }
        let frequencyName = String(frequencyPart.dropFirst(5)).uppercased()
        if frequencyName == "SECONDLY" || frequencyName == "MINUTELY" {
            throw .init("FREQ=\(frequencyName) repeats every \(frequencyName == "SECONDLY" ? "second" : "minute"); a bar would never rest. The shortest is FREQ=HOURLY")
        }
        guard Frequency(rawValue: frequencyName) != nil else {
            throw .init("FREQ=\(SafeName.short(frequencyName)) is not a frequency; use DAILY, WEEKLY, MONTHLY, YEARLY or HOURLY")
        }
        let parsed = text.withCString { icalrecurrencetype_from_string($0) }
        guard parsed.freq != ICAL_NO_RECURRENCE, !LibICal.hasError else {
            LibICal.prepare()
            throw Self.culprit(in: parts, frequency: frequencyName)
        }
        try self.init(parsed)
    }

    /// A rule libical has read (from a file's RRULE); refused like typed ones if it repeats
    /// faster than hourly or ends outside `CalendarLimits.years`.
    package init(_ rule: icalrecurrencetype) throws(RecurrenceRuleError) {
        var rule = rule
        switch rule.freq {
        case ICAL_HOURLY_RECURRENCE: frequency = .hourly
        case ICAL_DAILY_RECURRENCE: frequency = .daily
        case ICAL_WEEKLY_RECURRENCE: frequency = .weekly
        case ICAL_MONTHLY_RECURRENCE: frequency = .monthly
        case ICAL_YEARLY_RECURRENCE: frequency = .yearly
        case ICAL_SECONDLY_RECURRENCE, ICAL_MINUTELY_RECURRENCE:
            throw .init("it repeats every \(rule.freq == ICAL_SECONDLY_RECURRENCE ? "second" : "minute"); a bar would never rest")
        default: throw .init("the rule has no frequency")
        }
        if icaltime_is_null_time(rule.until) == 0 {
            guard let wall = LocalDateTime(rule.until) else {
                throw .init("UNTIL=\(rule.until.year)… is outside the years \(CalendarLimits.years.lowerBound)–\(CalendarLimits.years.upperBound)")
            }
            until = rule.until.is_date != 0 ? .day(wall.day) : icaltime_is_utc(rule.until) != 0 ? .utc(wall) : .wall(wall)
        } else {
            until = nil
        }
        guard rule.count >= 0, rule.interval >= 1 else { throw .init("COUNT and INTERVAL are whole numbers from 1") }
        count = rule.count > 0 ? Int(rule.count) : nil
        interval = Int(rule.interval)
        guard let canonical = LibICal.string(icalrecurrencetype_as_string(&rule)) else { throw .init("libical could not write the rule back") }
        text = canonical
        guard let read = RuleParts.read(canonical).parts else { throw .init("the rule has no frequency") }
        parts = read
        isPlain = canonical.split(separator: ";").allSatisfy { part in
            ["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST"].contains(part.split(separator: "=").first.map(String.init) ?? "")
        }
    }

    /// A rule zaoan's reader took from a file (`RuleParts.read`); refused like typed ones if
    /// it repeats faster than hourly.
    package init(_ parts: RuleParts) throws(RecurrenceRuleError) {
        switch parts.frequency {
        case .secondly, .minutely:
            throw .init("it repeats every \(parts.frequency == .secondly ? "second" : "minute"); a bar would never rest")
        case .hourly: frequency = .hourly
        case .daily: frequency = .daily
        case .weekly: frequency = .weekly
        case .monthly: frequency = .monthly
        case .yearly: frequency = .yearly
        }
        switch parts.until {
        case .day(let day)?: until = .day(day)
        case .utc(let wall)?: until = .utc(wall)
        case .wall(let wall)?: until = .wall(wall)
        case nil: until = nil
        }
        count = parts.count
        interval = parts.interval
        text = parts.text
        isPlain = parts.isPlain
        self.parts = parts
    }

    /// The first part libical refuses, named, with what that part should look like.
    private static func culprit(in parts: [String], frequency: String) -> RecurrenceRuleError {
        for part in parts where !part.uppercased().hasPrefix("FREQ=") {
            let alone = ("FREQ=\(frequency);" + part).withCString { icalrecurrencetype_from_string($0) }
            let refused = alone.freq == ICAL_NO_RECURRENCE || LibICal.hasError
            LibICal.prepare()
            guard refused else { continue }
            let name = String(part.prefix { $0 != "=" }).uppercased()
            let hint = hints[name] ?? "libical does not know \(SafeName.short(name)); parts are FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYYEARDAY, BYWEEKNO, BYSETPOS, BYHOUR, BYMINUTE, WKST"
            return .init("'\(SafeName.short(part))' is not understood: \(hint)")
        }
        return .init("libical cannot read the rule as a whole (parts that contradict each other, or one given twice?)")
    }

    private static let hints: [String: String] = [
        "BYDAY": "days are MO TU WE TH FR SA SU, with an optional position (1MO, -1FR), joined by commas",
        "UNTIL": "UNTIL is a date (20270101) or a UTC time (20270101T000000Z)",
        "COUNT": "COUNT is a whole number from 1",
        "INTERVAL": "INTERVAL is a whole number from 1",
        "BYMONTHDAY": "days of the month are 1 to 31 or -31 to -1, joined by commas",
        "BYMONTH": "months are 1 to 12, joined by commas",
        "BYHOUR": "hours are 0 to 23", "BYMINUTE": "minutes are 0 to 59", "BYSECOND": "seconds are 0 to 60",
        "BYSETPOS": "positions are 1 to 366 or -366 to -1", "BYYEARDAY": "days of the year are 1 to 366 or -366 to -1",
        "BYWEEKNO": "weeks are 1 to 53 or -53 to -1", "WKST": "WKST is a day: MO TU WE TH FR SA SU",
    ]

    public var description: String { text }

    public static func == (a: RecurrenceRule, b: RecurrenceRule) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

public struct RecurrenceRuleError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}

extension String {
    package var trimmingASCIISpaces: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
