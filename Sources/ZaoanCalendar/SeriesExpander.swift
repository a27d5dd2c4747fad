import CICal

/// How a wall-clock time becomes an instant: in a zone, or as UTC (a `...Z` time).
enum TimeBase {
    case utc
    case zone(CalendarZone)

    func instant(of wall: LocalDateTime) -> Int64 {
        switch self {
        case .utc: return wall.secondsAsIfUTC
        case .zone(let zone): return zone.instant(of: wall)
        }
    }

    func wallClock(at instant: Int64) -> LocalDateTime? {
        switch self {
        case .utc: return LocalDateTime(secondsAsIfUTC: instant)
        case .zone(let zone): return zone.wallClock(at: instant)
        }
    }
}

/// How long each instance lasts (RFC 5545 3.3.6, 3.8.5.3).
enum EventLength: Equatable {
    /// Exact seconds: DTEND − DTSTART, or a DURATION of hours, minutes and seconds.
    case exact(Int64)
    /// A DURATION with days or weeks: that many days on the wall clock (a day across a DST
    /// change is 23 or 25 hours), then exact seconds.
    case nominal(days: Int64, seconds: Int64)
    /// An all-day event: until local midnight that many days later.
    case wholeDays(Int64)

    /// An upper bound in seconds, for jumping the iterator to a window.
    var longest: Int64 {
        switch self {
        case .exact(let seconds): return seconds
        case .nominal(let days, let seconds): return days.multipliedClamped(by: 86_400).addingClamped(seconds).addingClamped(7200)
        case .wholeDays(let days): return days.multipliedClamped(by: 86_400).addingClamped(7200)
        }
    }
}

/// One instance of a series: where the rule put it (its RECURRENCE-ID, as an instant), and
/// when it starts and ends.
struct ExpandedInstance: Equatable {
    let recurrenceKey: Int64
    let start: Int64
    let end: Int64
}

/// Everything the expander needs to know about one series, in Swift values.
struct SeriesPlan {
    var start: LocalDateTime
    var isDate: Bool
    var base: TimeBase
    var rule: RecurrenceRule?
    var length: EventLength
    /// EXDATEs with a time, as instants.
    var excludedStarts: Set<Int64> = []
    /// EXDATEs that are dates: every instance starting that local day.
    var excludedDays: Set<CivilDay> = []
    /// RDATEs: a start on the wall clock (or an instant, for a UTC RDATE) and, for a
    /// PERIOD, its own end.
    var extraStarts: [(start: ExtraStart, end: Int64?)] = []

    enum ExtraStart {
        case wall(LocalDateTime)
        case instant(Int64)
    }
}

/// Shared between the series of one expansion: how many more iterations they may take.
struct IterationBudget {
    var remaining: Int
}

/// Expands a series within a window through libical's RRULE iterator.
///
/// The iterator runs on floating wall-clock times and this code turns each into an instant
/// (`CalendarZone.instant(of:)`): given a zone, libical moves a time that falls into a
/// spring-forward gap (02:30 → 03:30) and then keeps the moved time for every later
/// instance, so a daily 02:30 series would continue at 03:30 for good.
enum SeriesExpander {
    struct Result {
        var instances: [ExpandedInstance] = []
        /// The series stopped early: its own iteration limit or the shared budget.
        var truncated = false
        var iterations = 0
    }

    static func expand(_ plan: SeriesPlan, in window: CalendarWindow, budget: inout IterationBudget) -> Result {
        var result = Result()
        var seen = Set<Int64>()
        func consider(_ wall: LocalDateTime?, instant: Int64? = nil, end explicitEnd: Int64? = nil) {
            guard result.instances.count < CalendarLimits.occurrencesPerWindow else { return }
            let start: Int64
            if let wall { start = plan.base.instant(of: wall) } else if let instant { start = instant } else { return }
            guard seen.insert(start).inserted, !plan.excludedStarts.contains(start) else { return }
            if !plan.excludedDays.isEmpty, let day = (wall ?? plan.base.wallClock(at: start))?.day, plan.excludedDays.contains(day) { return }
            let end = explicitEnd ?? self.end(of: start, wall: wall, plan: plan)
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

    /// The instance's end: its own length after the start, on the wall clock where the
    /// length is in days.
    static func end(of start: Int64, wall: LocalDateTime?, plan: SeriesPlan) -> Int64 {
        switch plan.length {
        case .exact(let seconds):
            return start.addingClamped(seconds)
        case .nominal(let days, let seconds):
            guard let wall = wall ?? plan.base.wallClock(at: start), let day = wall.day.adding(days: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400)).addingClamped(seconds)
            }
            return plan.base.instant(of: LocalDateTime(secondsAsIfUTC: day.daysSince1970 * 86_400 + Int64(wall.secondOfDay))!).addingClamped(seconds)
        case .wholeDays(let days):
            guard let wall = wall ?? plan.base.wallClock(at: start), let day = wall.day.adding(days: days) else {
                return start.addingClamped(days.multipliedClamped(by: 86_400))
            }
            return plan.base.instant(of: LocalDateTime(day))
        }
    }

    /// Calls `consider` with each instance's wall clock that may show in the window, until
    /// it returns false, the rule ends or a limit is reached.
    private static func iterate(_ rule: RecurrenceRule, plan: SeriesPlan, window: CalendarWindow, budget: inout IterationBudget,
                                consider: (LocalDateTime) -> Bool) -> (truncated: Bool, iterations: Int) {
        var iterations = 0
        guard let iterator = icalrecur_iterator_new(rule.iterationRule, plan.start.icalTime(isDate: plan.isDate)) else {
            LibICal.prepare()
            return (true, 0)
        }
        defer { icalrecur_iterator_free(iterator) }
        // Two days of slack cover any zone's offset; the longest instance reaches back into
        // the window from before it.
        let reach = plan.length.longest.addingClamped(2 * 86_400)
        let startInstant = plan.base.instant(of: plan.start)
        // Jumping is impossible with COUNT (instances must be counted from the start).
        if rule.count == nil, window.from - reach > startInstant + 86_400, let jump = plan.base.wallClock(at: window.from - reach) {
            if icalrecur_iterator_set_start(iterator, jump.icalTime(isDate: plan.isDate)) == 0 { LibICal.prepare() }
        }
        let untilInstant: Int64? = switch rule.until {
        case .utc(let wall): wall.secondsAsIfUTC
        case .wall(let wall): plan.base.instant(of: wall)
        case .day(let day): plan.isDate ? nil : plan.base.instant(of: LocalDateTime(day.adding(days: 1) ?? day)) - 1
        case nil: nil
        }
        var lastDay: CivilDay? = nil
        if case .day(let day) = rule.until, plan.isDate { lastDay = day }

        while true {
            guard iterations < CalendarLimits.iterationsPerSeries, budget.remaining > 0 else { return (true, iterations) }
            let next = icalrecur_iterator_next(iterator)
            iterations += 1
            budget.remaining -= 1
            guard icaltime_is_null_time(next) == 0, let wall = LocalDateTime(next) else { return (false, iterations) }
            if let lastDay, wall.day > lastDay { return (false, iterations) }
            let naive = wall.secondsAsIfUTC
            // Far before the window: no need to ask the zone (any offset is under a day).
            if naive.addingClamped(reach) < window.from {
                if let untilInstant, naive - 86_400 > untilInstant { return (false, iterations) }
                continue
            }
            let start = plan.base.instant(of: wall)
            if let untilInstant, start > untilInstant { return (false, iterations) }
            if start >= window.to || !consider(wall) { return (false, iterations) }
        }
    }
}
