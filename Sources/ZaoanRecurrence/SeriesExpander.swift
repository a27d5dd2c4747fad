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

/// Expands a series within a window through libical's RRULE iterator.
///
/// The iterator runs on floating wall-clock times and this code turns each into an instant
/// (`CalendarZone.instant(of:)`): given a zone, libical moves a time that falls into a
/// spring-forward gap (02:30 → 03:30) and then keeps the moved time for every later
/// instance, so a daily 02:30 series would continue at 03:30 for good.
package enum SeriesExpander {
    package struct Result {
        package var instances: [ExpandedInstance] = []
        /// The series stopped early: its own iteration limit or the shared budget.
        package var truncated = false
        /// ...because it used up `CalendarLimits.cpuSecondsPerSeries`.
        package var outOfTime = false
        package var iterations = 0
        /// libical would not iterate the rule at all: no instance from it.
        package var refused = false
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
            result.refused = run.refused
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
            guard let wall = wall ?? base.wallClock(at: start), let day = wall.day.adding(days: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400)).addingClamped(seconds)
            }
            return base.instant(of: LocalDateTime(secondsAsIfUTC: day.daysSince1970 * 86_400 + Int64(wall.secondOfDay))!).addingClamped(seconds)
        case .wholeDays(let days):
            guard let wall = wall ?? base.wallClock(at: start), let day = wall.day.adding(days: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400))
            }
            return base.instant(of: LocalDateTime(day))
        }
    }

    /// Where to restart the iterator on the way to `target`: a whole number of INTERVALs
    /// after the start (the hour, day or week of an instance; the first of a month or a
    /// year), never after `target`. libical's `icalrecur_iterator_set_start` counts the
    /// interval from wherever it is put, so FREQ=HOURLY;INTERVAL=5 restarted at an
    /// arbitrary hour would fall on the wrong hours.
    package static func alignedJump(from start: LocalDateTime, toward target: LocalDateTime, rule: RecurrenceRule) -> LocalDateTime? {
        let interval = Int64(rule.interval)
        func steps(_ distance: Int64, _ length: Int64) -> Int64 { distance / (length * interval) * length * interval }
        let distance = target.secondsAsIfUTC - start.secondsAsIfUTC
        guard distance > 0 else { return nil }
        switch rule.frequency {
        case .hourly: return LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + steps(distance, 3600))
        case .daily: return LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + steps(distance, 86_400))
        case .weekly: return LocalDateTime(secondsAsIfUTC: start.secondsAsIfUTC + steps(distance, 7 * 86_400))
        case .monthly:
            let months = Int64(target.day.year - start.day.year) * 12 + Int64(target.day.month - start.day.month)
            let month = Int64(start.day.year) * 12 + Int64(start.day.month - 1) + months / interval * interval
            return CivilDay(year: Int(month / 12), month: Int(month % 12) + 1, day: 1).map { LocalDateTime($0) }
        case .yearly:
            let years = Int64(target.day.year - start.day.year) / interval * interval
            return CivilDay(year: start.day.year + Int(years), month: 1, day: 1).map { LocalDateTime($0) }
        }
    }

    /// The latest start UNTIL allows, as an instant (nil: none, or a DATE for an all-day series).
    private static func lastStart(_ rule: RecurrenceRule, plan: SeriesPlan) -> Int64? {
        switch rule.until {
        case .utc(let wall): wall.secondsAsIfUTC
        case .wall(let wall): plan.base.instant(of: wall)
        case .day(let day): plan.isDate ? nil : plan.base.instant(of: LocalDateTime(day.adding(days: 1) ?? day)) - 1
        case nil: nil
        }
    }

    /// The first instance the rule gives from the series' start (RDATEs aside), found with
    /// libical's first step; nil if the rule gives none before its end or libical's last
    /// year. One call that libical may spend seconds in: run it where it can be abandoned.
    package static func firstRuleInstance(_ plan: SeriesPlan) -> Int64? {
        guard let rule = plan.rule, let iterator = icalrecur_iterator_new(rule.iterationRule, plan.start.icalTime(isDate: plan.isDate)) else {
            LibICal.prepare()
            return nil
        }
        defer { icalrecur_iterator_free(iterator) }
        let next = icalrecur_iterator_next(iterator)
        guard icaltime_is_null_time(next) == 0, let wall = LocalDateTime(next) else { return nil }
        let start = plan.base.instant(of: wall)
        if let last = lastStart(rule, plan: plan), start > last { return nil }
        return start
    }

    /// Calls `consider` with each instance's wall clock that may show in the window, until
    /// it returns false, the rule ends or a limit is reached.
    private static func iterate(_ rule: RecurrenceRule, plan: SeriesPlan, window: CalendarWindow, budget: inout IterationBudget,
                                consider: (LocalDateTime) -> Bool) -> (truncated: Bool, outOfTime: Bool, iterations: Int, refused: Bool) {
        var iterations = 0
        var time = CPUBudget(seconds: CalendarLimits.cpuSecondsPerSeries)
        // Two days of slack cover any zone's offset; the longest instance reaches back into
        // the window from before it.
        let reach = plan.length.longest.addingClamped(2 * 86_400)
        var first = plan.start
        var restartInMonths = false
        // Where the window is well past the start: the instance a whole number of INTERVALs
        // before it, where iterating may begin instead.
        let jump = window.from - reach > plan.base.instant(of: plan.start) + 86_400
            ? plan.base.wallClock(at: window.from - reach).flatMap { alignedJump(from: plan.start, toward: $0, rule: rule) }
            : nil
        var iterationRule = rule.iterationRule
        if let jump, rule.count == nil {
            // A new DTSTART a whole number of INTERVALs on has the same instances from there
            // on (its time of day and weekday are the original's). libical 3.0's set_start
            // misplaces HOURLY;INTERVAL=5 by hours, so it is used only where a new DTSTART
            // would change the rule (a month's days come from DTSTART).
            first = jump
            restartInMonths = rule.frequency == .monthly || rule.frequency == .yearly
        } else if let jump, let count = rule.count, rule.isPlain, rule.frequency == .daily || rule.frequency == .weekly {
            // With COUNT, instances are counted from the start. A plain DAILY or WEEKLY rule
            // (no BYxxx part) is the start and every INTERVAL after it, so the instances
            // before the window are counted instead of stepped through: a new DTSTART on the
            // jump, with the COUNT left. A daily rule with COUNT begun in 2000 took libical
            // 21 ms of its 50 ms budget to reach 2026.
            let stride = Int64(rule.interval) * (rule.frequency == .daily ? 86_400 : 7 * 86_400)
            let skipped = (jump.secondsAsIfUTC - plan.start.secondsAsIfUTC) / stride
            guard skipped < Int64(count) else { return (false, false, 0, false) }  // all of them before the window
            if skipped > 0, let left = Int32(exactly: Int64(count) - skipped) {
                iterationRule.count = left
                first = jump
            }
        }
        guard let iterator = icalrecur_iterator_new(iterationRule, (restartInMonths ? plan.start : first).icalTime(isDate: plan.isDate)) else {
            // libical refuses rules that can never match (FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30).
            LibICal.prepare()
            return (false, false, 0, true)
        }
        defer { icalrecur_iterator_free(iterator) }
        if restartInMonths, icalrecur_iterator_set_start(iterator, first.icalTime(isDate: plan.isDate)) == 0 { LibICal.prepare() }
        let untilInstant = lastStart(rule, plan: plan)
        var lastDay: CivilDay? = nil
        if case .day(let day) = rule.until, plan.isDate { lastDay = day }

        while true {
            guard iterations < CalendarLimits.iterationsPerSeries, budget.remaining > 0 else { return (true, false, iterations, false) }
            // Checked at every step (one step can be a search of years); the CPU clock itself
            // is read once per millisecond of wall time (`CPUBudget.check`), not 2,400 times
            // for a daily rule with COUNT begun in 2000.
            if time.check() { return (true, true, iterations, false) }
            let next = icalrecur_iterator_next(iterator)
            iterations += 1
            budget.remaining -= 1
            guard icaltime_is_null_time(next) == 0, let wall = LocalDateTime(next) else { return (false, false, iterations, false) }
            if let lastDay, wall.day > lastDay { return (false, false, iterations, false) }
            let naive = wall.secondsAsIfUTC
            // Far before the window: no need to ask the zone (any offset is under a day).
            if naive.addingClamped(reach) < window.from {
                if let untilInstant, naive - 86_400 > untilInstant { return (false, false, iterations, false) }
                continue
            }
            let start = plan.base.instant(of: wall)
            if let untilInstant, start > untilInstant { return (false, false, iterations, false) }
            if start >= window.to || !consider(wall) { return (false, false, iterations, false) }
        }
    }
}
