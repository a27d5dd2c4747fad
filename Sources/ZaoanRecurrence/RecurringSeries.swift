import ZaoanTime

/// A series as a user sets one up for a recurring live room: the first start on the wall
/// clock of a zone, how it repeats, days to skip, extra starts and how long each lasts.
///
/// ```swift
/// let standup = RecurringSeries(firstStart: LocalDateTime(year: 2026, month: 3, day: 27, hour: 7)!,
///                               zone: try CalendarZone(named: "Europe/Berlin"),
///                               rule: try RecurrenceRule(parsing: "weekdays"), durationSeconds: 900)
/// let next = standup.occurrences(in: try .following(now)).spans.first
/// ```
/// Every instance keeps the wall-clock time across DST changes (07:00 stays 07:00).
public struct RecurringSeries {
    public var firstStart: LocalDateTime
    public var zone: CalendarZone
    /// Nil: the first start only (plus `extraStarts`).
    public var rule: RecurrenceRule?
    /// Local days on which an instance is skipped (EXDATE).
    public var skippedDays: Set<CivilDay>
    /// Starts beyond the rule's (RDATE), on the same wall clock.
    public var extraStarts: [LocalDateTime]
    /// Exact seconds each instance lasts, 0 to `CalendarLimits.maximumEventSeconds`.
    public var durationSeconds: Int64

    public init(firstStart: LocalDateTime, zone: CalendarZone, rule: RecurrenceRule?, skippedDays: Set<CivilDay> = [],
                extraStarts: [LocalDateTime] = [], durationSeconds: Int64 = 0) {
        self.firstStart = firstStart
        self.zone = zone
        self.rule = rule
        self.skippedDays = skippedDays
        self.extraStarts = extraStarts
        self.durationSeconds = durationSeconds
    }

    private var plan: SeriesPlan {
        SeriesPlan(start: firstStart, isDate: false, base: .zone(zone), rule: rule,
                   length: .exact(min(max(durationSeconds, 0), CalendarLimits.maximumEventSeconds)),
                   excludedDays: skippedDays,
                   extraStarts: extraStarts.prefix(CalendarLimits.datesPerEvent).map { (.wall($0), nil) })
    }

    /// The instances that show in `window` (`CalendarWindow.shows`), in order of start,
    /// within `CalendarLimits.cpuSecondsPerSeries` of CPU time.
    public func occurrences(in window: CalendarWindow) -> SeriesOccurrences {
        LibICal.prepare()
        var budget = IterationBudget(remaining: CalendarLimits.iterationsPerSeries)
        let result = SeriesExpander.expand(plan, in: window, budget: &budget)
        let spans = result.instances.map { OccurrenceSpan(start: $0.start, end: $0.end) }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        return SeriesOccurrences(spans: spans, truncated: result.truncated, outOfTime: result.outOfTime)
    }

    /// Whether the series has an instance after its first start: an extra start, or one the
    /// rule gives before its end (zaoan's engine, bounded by its periods).
    public var hasInstance: Bool {
        rule == nil || !extraStarts.isEmpty || SeriesExpander.repeatsAfterStart(plan)
    }
}

/// When one instance starts and ends, in Unix seconds.
public struct OccurrenceSpan: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let start: Int64
    public let end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)–\(end)" }
}

public struct SeriesOccurrences: Equatable, Sendable {
    public let spans: [OccurrenceSpan]
    /// The rule needed more than `CalendarLimits.iterationsPerSeries` steps to reach the
    /// window's end: later instances may be missing.
    public let truncated: Bool
    /// ...because it took more than `CalendarLimits.cpuSecondsPerSeries` of CPU time.
    public let outOfTime: Bool

    public init(spans: [OccurrenceSpan], truncated: Bool, outOfTime: Bool = false) {
        self.spans = spans
        self.truncated = truncated
        self.outOfTime = outOfTime
    }

    /// The first instance starting at or after `now` (the list is sorted: a binary search).
    public func next(after now: Int64) -> OccurrenceSpan? {
        spans.firstStarting(atOrAfter: now, start: \.start)
    }
}
