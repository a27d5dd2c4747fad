import ZaoanTime

/// A VTIMEZONE observance's RRULE made ready for zaoan's engine (`RuleIterator`), which
/// works within `CalendarLimits.years`: its parts as `RuleParts` reads them (a bad part left
/// out, the rest kept), the wall clock the engine starts from, and UNTIL as an instant.
///
/// An observance that began before the years (Outlook writes DTSTART:16011028T030000) is
/// started in the first year its rule's period allows (every INTERVAL years from DTSTART's
/// for YEARLY, months for MONTHLY, weeks, days, hours, minutes or seconds for the others),
/// at DTSTART's month, day and time, so everything the rule takes from DTSTART stays; an
/// onset of that first year before that day is not seen (only 1800 or so is affected). A
/// COUNT is then counted as one onset a period before that start (where that first year's
/// onset is not seen, the rule may give one more at its end).
struct ObservanceRule {
    let parts: RuleParts
    /// DTSTART, or its stand-in within the years: never an onset of its own (the observance's
    /// DTSTART is listed by itself), so the engine's first instance is passed over.
    let start: LocalDateTime
    /// A UTC UNTIL (RFC 5545 §3.3.10 asks for one in VTIMEZONEs): the last onset instant.
    let untilInstant: Int64?

    /// Nil when the rule gives nothing within the years: no usable FREQ, an UNTIL before them,
    /// a DTSTART after them, a COUNT used up before them.
    /// - Parameter start: DTSTART, as `ZoneObservance.start` holds it.
    init?(text: String, start: Int64) {
        guard var parts = RuleParts.read(text).parts else { return nil }
        // RuleParts leaves out an UNTIL outside the years; one before them ended the rule.
        if parts.until == nil, let year = Self.untilYear(in: text), year < CalendarLimits.years.lowerBound { return nil }
        guard let (wall, periods) = Self.withinYears(start, parts: parts) else { return nil }
        if let count = parts.count, periods > 0 {
            guard Int64(count) > periods else { return nil }
            parts.count = Int(Int64(count) - periods) + 1  // the stand-in counts, and is passed over
        }
        self.parts = parts
        self.start = wall
        if case .utc(let until)? = parts.until { untilInstant = until.secondsAsIfUTC } else { untilInstant = nil }
    }

    /// The year of an UNTIL part, as written (`UNTIL=17001231T000000Z` → 1700).
    private static func untilYear(in text: String) -> Int? {
        for part in text.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, pieces[0].uppercased() == "UNTIL" else { continue }
            let digits = pieces[1].utf8.prefix(4)
            guard digits.count == 4, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        return nil
    }

    /// DTSTART if it lies within the years; else, for one before them, the first start whole
    /// periods of the rule later that does, and how many periods that is. Nil for a DTSTART
    /// after the years, or one no period brings into them.
    private static func withinYears(_ start: Int64, parts: RuleParts) -> (LocalDateTime, periods: Int64)? {
        if let wall = LocalDateTime(secondsAsIfUTC: start) { return (wall, 0) }
        let firstInstant = CalendarWindow.instants.lowerBound
        guard start < firstInstant else { return nil }
        let days = Int64(CivilCalendar.floorDivide(Int(start), 86_400))
        let secondOfDay = start - days * 86_400
        let date = CivilCalendar.civil(daysSince1970: Int(days))
        let interval = Int64(parts.interval)
        let firstYear = Int64(CalendarLimits.years.lowerBound)
        func wall(_ days: Int64) -> LocalDateTime? {
            LocalDateTime(secondsAsIfUTC: days * 86_400 + secondOfDay)
        }
        switch parts.frequency {
        case .yearly, .monthly:
            // Months from DTSTART's, whole periods of them, up to the first whose DTSTART day
            // exists (a 29 February, a 31st) within the years.
            let step = parts.frequency == .yearly ? interval * 12 : interval
            let firstMonth = Int64(date.year) * 12 + Int64(date.month - 1)
            var periods = ceilingDivide(firstYear * 12 - firstMonth, step)
            for _ in 0..<12 {
                let month = firstMonth + periods * step
                guard month / 12 <= Int64(CalendarLimits.years.upperBound) else { return nil }
                if let day = CivilDay.inCalendar(year: Int(month / 12), month: Int(month % 12) + 1, day: date.day), let start = wall(day.dayNumber) {
                    return (start, periods)
                }
                periods += 1
            }
            return nil
        case .weekly, .daily:
            let length = interval * (parts.frequency == .weekly ? 7 : 1)
            let firstDay = CivilDay.inCalendar(year: Int(firstYear), month: 1, day: 1)!.dayNumber
            let periods = ceilingDivide(firstDay - days, length)
            return wall(days + periods * length).map { ($0, periods) }
        case .hourly, .minutely, .secondly:
            let unit: Int64 = parts.frequency == .hourly ? 3600 : parts.frequency == .minutely ? 60 : 1
            let periods = ceilingDivide(firstInstant - start, unit * interval)
            return LocalDateTime(secondsAsIfUTC: start + periods * unit * interval).map { ($0, periods) }
        }
    }

    /// ⌈a / b⌉ for a ≥ 0, b > 0.
    private static func ceilingDivide(_ a: Int64, _ b: Int64) -> Int64 {
        (a + b - 1) / b
    }

    /// The onsets the rule gives after its start, as instants (wall clock − `offsetFrom`), in
    /// order, until the rule ends, `limit` onsets are given or `budget` engine steps are
    /// spent (the steps taken are subtracted from it).
    func onsets(offsetFrom: Int, limit: Int, budget: inout Int, _ take: (Int64) -> Void) {
        guard limit > 0, budget > 0 else { return }
        var iterator = RuleIterator(parts: parts, start: start, budget: budget)
        defer { budget -= iterator.steps }
        _ = iterator.next()
        var given = 0
        while given < limit, let wall = iterator.next() {
            let instant = wall.secondsAsIfUTC - Int64(offsetFrom)
            if let untilInstant, instant > untilInstant { return }
            take(instant)
            given += 1
        }
    }
}
