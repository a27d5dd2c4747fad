/// How a series repeats: what a user types for a recurring live room (`daily`, `weekdays`,
/// `weekly`, or an RFC 5545 RRULE value such as `FREQ=WEEKLY;BYDAY=MO,WE,FR`), read by
/// zaoan's reader (`RuleParts`: a typed rule must be valid whole) and kept in its canonical
/// text, which reads back to the same rule.
///
/// FREQ=SECONDLY and FREQ=MINUTELY are refused: a bar or prompt that shows the next
/// occurrence would change every second or minute and never rest, and a window of 48 hours
/// would hold thousands of occurrences. FREQ=HOURLY is the shortest.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    /// The rule as zaoan's engine (`RuleIterator`) reads it; everything else is read off it.
    package let parts: RuleParts

    /// The canonical RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE,FR`), for saving.
    public var text: String { parts.text }
    public var frequency: RuleParts.Frequency { parts.frequency }
    /// COUNT, if the rule has one.
    public var count: Int? { parts.count }
    /// INTERVAL (1 when not given).
    public var interval: Int { parts.interval }
    /// UNTIL as written.
    package var until: RuleParts.Until? { parts.until }

    /// The words a user may type instead of an RRULE. `lunar-yearly` repeats on the first
    /// start's day of the Chinese calendar (a lunar birthday, 农历生日); in a year without
    /// that day (the 30th of a month that has 29, a leap month) on the day before, as
    /// families keep such birthdays: SKIP=BACKWARD.
    public static let words: [String: String] = [
        "lunar-yearly": "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD",
        "daily": "FREQ=DAILY",
        "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "weekly": "FREQ=WEEKLY",
    ]

    /// Reads what the user typed; the error says, in their terms, what is wrong.
    public init(parsing input: String) throws(RecurrenceRuleError) {
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
        var parts = text.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        if let lunar = parts.firstIndex(where: { $0.uppercased() == "FREQ=" + RuleParts.lunarYearly }) {
            // What some Chinese calendar apps write; RFC 7529 says it this way.
            parts[lunar] = "FREQ=YEARLY"
            parts.insert("RSCALE=CHINESE", at: 0)
        }
        let scalePart = parts.first { $0.uppercased().hasPrefix("RSCALE=") }
        if scalePart == nil, parts.contains(where: { $0.uppercased().hasPrefix("SKIP=") }) {
            // SKIP belongs with RSCALE (RFC 7529 §4.1); a typed rule means the Gregorian one.
            parts.insert("RSCALE=GREGORIAN", at: 0)
        }
        text = parts.joined(separator: ";")
        guard let frequencyPart = parts.first(where: { $0.uppercased().hasPrefix("FREQ=") }) else {
            throw .init("the rule has no FREQ=; start it with FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, or type daily, weekdays or weekly")
        }
        let frequencyName = String(frequencyPart.dropFirst(5)).uppercased()
        if frequencyName == "SECONDLY" || frequencyName == "MINUTELY" {
            throw .init("FREQ=\(frequencyName) repeats every \(frequencyName == "SECONDLY" ? "second" : "minute"); a bar would never rest. The shortest is FREQ=HOURLY")
        }
        guard RuleParts.Frequency(name: frequencyName) != nil else {
            throw .init("FREQ=\(SafeName.short(frequencyName)) is not a frequency; use DAILY, WEEKLY, MONTHLY, YEARLY or HOURLY")
        }
        let reading = RuleParts.read(text)
        guard let read = reading.parts, reading.problems.isEmpty else {
            throw Self.culprit(in: parts, frequency: frequencyName, scale: parts.first { $0.uppercased().hasPrefix("RSCALE=") },
                               problems: reading.problems)
        }
        try self.init(read)
    }

    /// A rule zaoan's reader read (`RuleParts.read`: a file's RRULE, or what a user typed);
    /// refused if it repeats faster than hourly.
    package init(_ parts: RuleParts) throws(RecurrenceRuleError) {
        guard parts.frequency >= .hourly else {
            throw .init("it repeats every \(parts.frequency == .secondly ? "second" : "minute"); a bar would never rest")
        }
        self.parts = parts
    }

    /// The first part refused when read alone, named, with what that part should look like;
    /// else what reading the whole rule said (a part given twice).
    private static func culprit(in parts: [String], frequency: String, scale: String?, problems: [String]) -> RecurrenceRuleError {
        // Each part is read with the rule's RSCALE, which says how BYMONTH reads.
        let base = "FREQ=\(frequency);" + (scale.map { $0 + ";" } ?? "")
        for part in parts where !part.uppercased().hasPrefix("FREQ=") && part != scale {
            let alone = RuleParts.read(base + part)
            guard let problem = alone.problems.first else { continue }
            // The part is right, but the rule cannot have it (BYMONTH in a DAILY rule of the
            // Chinese calendar): what reading said.
            if alone.parts == nil { return .init(problem) }
            let name = String(part.prefix { $0 != "=" }).uppercased()
            let hint = hints[name] ?? "zaoan does not know \(SafeName.short(name)); parts are FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYYEARDAY, BYWEEKNO, BYSETPOS, BYHOUR, BYMINUTE, BYSECOND, WKST, RSCALE, SKIP"
            return .init("'\(SafeName.short(part))' is not understood: \(hint)")
        }
        return .init(problems.first ?? "the rule cannot be read as a whole")
    }

    private static let hints: [String: String] = [
        "BYDAY": "days are MO TU WE TH FR SA SU, with an optional position (1MO, -1FR), joined by commas",
        "UNTIL": "UNTIL is a date (20270101) or a UTC time (20270101T000000Z) within the years \(CalendarLimits.years.lowerBound)–\(CalendarLimits.years.upperBound)",
        "COUNT": "COUNT is a whole number from 1",
        "INTERVAL": "INTERVAL is a whole number from 1 to \(RuleParts.maxInterval)",
        "BYMONTHDAY": "days of the month are 1 to 31 or -31 to -1, joined by commas",
        "BYMONTH": "months are 1 to 12, joined by commas (with RSCALE=CHINESE, 5L is the leap month after the fifth)",
        "RSCALE": "RSCALE is GREGORIAN or CHINESE (the Chinese calendar)",
        "SKIP": "SKIP is OMIT, BACKWARD or FORWARD",
        "BYHOUR": "hours are 0 to 23", "BYMINUTE": "minutes are 0 to 59", "BYSECOND": "seconds are 0 to 60",
        "BYSETPOS": "positions are 1 to 366 or -366 to -1", "BYYEARDAY": "days of the year are 1 to 366 or -366 to -1",
        "BYWEEKNO": "weeks are 1 to 53 or -53 to -1", "WKST": "WKST is a day: MO TU WE TH FR SA SU",
    ]

    public var description: String { text }
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
