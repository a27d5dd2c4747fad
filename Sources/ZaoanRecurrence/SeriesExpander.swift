import ZaoanTime
import CICal

/// How a wall-clock time becomes an instant: in a zone, or as UTC (a `...Z` time).
package enum TimeBase {
    case utc
    case zone(CalendarZone)

    package func instant(of wall: LocalDateTime) -> Int64 {
        switch self {
        case .utc: return wall.secondsAsIfUTC
        case .zone(let zone): return zone.instant(of: wall)
        }
    }

    package func wallClock(at instant: Int64) -> LocalDateTime? {
        switch self {
        case .utc: return LocalDateTime(secondsAsIfUTC: instant)
        case .zone(let zone): return zone.wallClock(at: instant)
        }
    }
}

/// How long each instance lasts (RFC 5545 3.3.6, 3.8.5.3).
package enum EventLength: Equatable {
    /// Exact seconds: DTEND − DTSTART, or a DURATION of hours, minutes and seconds.
    case exact(Int64)
    /// A DURATION with days or weeks: that many days on the wall clock (a day across a DST
    /// change is 23 or 25 hours), then exact seconds.
    case nominal(days: Int64, seconds: Int64)
    /// An all-day event: until local midnight that many days later.
    case wholeDays(Int64)

    /// An upper bound in seconds, for jumping the iterator to a window.
    package var longest: Int64 {
        switch self {
        case .exact(let seconds): return seconds
        case .nominal(let days, let seconds): return days.multipliedClamped(by: 86_400).addingClamped(seconds).addingClamped(7200)
        case .wholeDays(let days): return days.multipliedClamped(by: 86_400).addingClamped(7200)
        }
    }
}

/// One instance of a series: where the rule put it (its RECURRENCE-ID, as an instant), and
/// when it starts and ends.
package struct ExpandedInstance: Equatable {
    package let recurrenceKey: Int64
    package let start: Int64
    package let end: Int64
}

/// Everything the expander needs to know about one series, in Swift values.
package struct SeriesPlan {
    package var start: LocalDateTime
    package var isDate: Bool
    package var base: TimeBase
    package var rule: RecurrenceRule?
    package var length: EventLength
    /// EXDATEs with a time, as instants.
    package var excludedStarts: Set<Int64> = []
    /// EXDATEs that are dates: every instance starting that local day.
    package var excludedDays: Set<CivilDay> = []
    /// RDATEs: a start on the wall clock (or an instant, for a UTC RDATE) and, for a
    /// PERIOD, its own end or length.
    package var extraStarts: [(start: ExtraStart, end: ExtraEnd?)] = []

    package init(start: LocalDateTime, isDate: Bool, base: TimeBase, rule: RecurrenceRule?, length: EventLength,
                 excludedStarts: Set<Int64> = [], excludedDays: Set<CivilDay> = [],
                 extraStarts: [(start: ExtraStart, end: ExtraEnd?)] = []) {
        self.start = start
        self.isDate = isDate
        self.base = base
        self.rule = rule
        self.length = length
        self.excludedStarts = excludedStarts
        self.excludedDays = excludedDays
        self.extraStarts = extraStarts
    }

    package enum ExtraStart {
        case wall(LocalDateTime)
        case instant(Int64)
    }

    package enum ExtraEnd {
        case instant(Int64)
        case length(EventLength)
    }
}

/// Shared between the series of one expansion: how many more iterations they may take.
package struct IterationBudget {
    package var remaining: Int

    package init(remaining: Int) { self.remaining = remaining }
}

/// Expands a series within a window through zaoan's recurrence engine (`RuleIterator`).
///
/// The engine runs on floating wall-clock times and this code turns each into an instant
/// (`CalendarZone.instant(of:)`), each on its own: a time in a spring-forward gap (02:30 →
/// 03:30) moves that day only, and a daily 02:30 series is back at 02:30 the next day.
package enum SeriesExpander {
    package struct Result {
        package var instances: [ExpandedInstance] = []
        /// The series stopped early: its own iteration limit or the shared budget.
        package var truncated = false
        /// ...because it used up `CalendarLimits.cpuSecondsPerSeries`.
        package var outOfTime = false
        package var iterations = 0
    }

    package static func expand(_ plan: SeriesPlan, in window: CalendarWindow, budget: inout IterationBudget) -> Result {
        var result = Result()
        var seen = Set<Int64>()
        func consider(_ wall: LocalDateTime?, instant: Int64? = nil, end ownEnd: SeriesPlan.ExtraEnd? = nil) {
            guard result.instances.count < CalendarLimits.occurrencesPerWindow else { return }
            let start: Int64
            if let wall { start = plan.base.instant(of: wall) } else if let instant { start = instant } else { return }
            guard seen.insert(start).inserted, !plan.excludedStarts.contains(start) else { return }
            if !plan.excludedDays.isEmpty, let day = (wall ?? plan.base.wallClock(at: start))?.day, plan.excludedDays.contains(day) { return }
            let end: Int64
            switch ownEnd {
            case .instant(let instant): end = instant
            case .length(let length): end = self.end(of: start, wall: wall, length: length, base: plan.base)
            case nil: end = self.end(of: start, wall: wall, length: plan.length, base: plan.base)
            }
            if window.shows(start: start, end: end) {
                result.instances.append(ExpandedInstance(recurrenceKey: start, start: start, end: end))
            }
        }

        if let rule = plan.rule {
            let run = iterate(rule, plan: plan, window: window, budget: &budget) { wall in
                consider(wall)
                return result.instances.count < CalendarLimits.occurrencesPerWindow
            }
            result.truncated = run.truncated
            result.outOfTime = run.outOfTime
            result.iterations = run.iterations
        } else {
            consider(plan.start)
        }
        for extra in plan.extraStarts {
            switch extra.start {
            case .wall(let wall): consider(wall, end: extra.end)
            case .instant(let instant): consider(nil, instant: instant, end: extra.end)
            }
        }
        return result
    }

    /// The instance's end: `length` after the start, on the wall clock of `base` where the
    /// length is in days.
    package static func end(of start: Int64, wall: LocalDateTime?, length: EventLength, base: TimeBase) -> Int64 {
        switch length {
        case .exact(let seconds):
            return start.addingClamped(seconds)
        case .nominal(let days, let seconds):
            guard let wall = wall ?? base.wallClock(at: start), let day = wall.day.adding(calendarDays: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400)).addingClamped(seconds)
            }
            return base.instant(of: LocalDateTime(secondsAsIfUTC: day.dayNumber * 86_400 + Int64(wall.secondOfDay))!).addingClamped(seconds)
        case .wholeDays(let days):
            guard let wall = wall ?? base.wallClock(at: start), let day = wall.day.adding(calendarDays: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400))
            }
            return base.instant(of: LocalDateTime(day))
        }
    }

    /// The latest start UNTIL allows, as an instant (nil: none, or a DATE for an all-day series).
    private static func lastStart(_ rule: RecurrenceRule, plan: SeriesPlan) -> Int64? {
        switch rule.until {
        case .utc(let wall): wall.secondsAsIfUTC
        case .wall(let wall): plan.base.instant(of: wall)
        case .day(let day): plan.isDate ? nil : plan.base.instant(of: LocalDateTime(day.adding(calendarDays: 1) ?? day)) - 1
        case nil: nil
        }
    }

    /// Whether the rule gives an instance after the series' start (DTSTART is always the
    /// first, RFC 5545 §3.8.5.3) before its end, within `CalendarLimits.iterationsPerSeries`
    /// periods of zaoan's engine: a rule that repeats nothing is known in bounded time.
    package static func repeatsAfterStart(_ plan: SeriesPlan) -> Bool {
        guard let rule = plan.rule else { return false }
        var iterator = RuleIterator(parts: rule.parts, start: plan.start)
        _ = iterator.next()
        guard let wall = iterator.next() else { return false }
        if let last = lastStart(rule, plan: plan), plan.base.instant(of: wall) > last { return false }
        return true
    }

    /// Calls `consider` with each instance's wall clock that may show in the window, until
    /// it returns false, the rule ends or a limit is reached.
    private static func iterate(_ rule: RecurrenceRule, plan: SeriesPlan, window: CalendarWindow, budget: inout IterationBudget,
                                consider: (LocalDateTime) -> Bool) -> (truncated: Bool, outOfTime: Bool, iterations: Int) {
        var iterations = 0
        // Two days of slack cover any zone's offset; the longest instance reaches back into
        // the window from before it.
        let reach = plan.length.longest.addingClamped(2 * 86_400)
        // Where the window is well past the start, the engine begins at the period that
        // holds the window (it counts COUNT's instances before it where each period holds
        // one, and steps through them otherwise), and it ends with the window's last period.
        let from = window.from - reach > plan.base.instant(of: plan.start) + 86_400 ? plan.base.wallClock(at: window.from - reach) : nil
        let through = plan.base.wallClock(at: window.to.addingClamped(2 * 86_400))
        if rule.parts.isChinese, let through {
            // The Chinese calendar's years this expansion needs, computed once per process
            // (bounded by its 200 years) and not charged to this series' CPU budget.
            ChineseMonthTable.prepare(years: (from ?? plan.start).day.year - 1...through.day.year)
        }
        var time = CPUBudget(seconds: CalendarLimits.cpuSecondsPerSeries)
        var iterator = RuleIterator(parts: rule.parts, start: plan.start, from: from, through: through,
                                    budget: max(0, min(CalendarLimits.iterationsPerSeries, budget.remaining)))
        let untilInstant = lastStart(rule, plan: plan)
        var lastDay: CivilDay? = nil
        if case .day(let day) = rule.until, plan.isDate { lastDay = day }
        defer { budget.remaining -= iterator.steps }

        while true {
            // The engine's work is bounded by its steps; the CPU clock is read once per
            // millisecond of wall time (`CPUBudget.check`), a wall of its own kept as before.
            if time.check() { return (true, true, iterations) }
            guard let wall = iterator.next() else { return (iterator.exhausted, false, iterations) }
            iterations += 1
            if let lastDay, wall.day > lastDay { return (false, false, iterations) }
            let naive = wall.secondsAsIfUTC
            // Far before the window: no need to ask the zone (any offset is under a day).
            if naive.addingClamped(reach) < window.from {
                if let untilInstant, naive - 86_400 > untilInstant { return (false, false, iterations) }
                continue
            }
            let start = plan.base.instant(of: wall)
            if let untilInstant, start > untilInstant { return (false, false, iterations) }
            if start >= window.to || !consider(wall) { return (false, false, iterations) }
        }
    }
}
