/// `stats`: what it reports (`ServiceFigures` and the Responder's own figures), one
/// `key: value` line each, in docs/protocol.md's order.

/// What `stats` reports besides the Responder's own figures: a snapshot the service takes
/// when `stats` is asked (its running totals, `ServiceFigures`, and what it reads off where
/// it lives), handed over as a value.
public struct ServiceFigures: Sendable, Equatable {
    public var startedAt: Instant
    public var connectionsOpen: Int = 0
    public var connectionsTotal: Int = 0
    public var requests: Int = 0
    public var watches: Int = 0
    /// Wall-clock timers armed now (the watches' tick, `watch events`' next moment).
    public var timers: Int = 0
    /// The service's own timers armed now (sweeper, idle exit, watchdog, status, ...).
    public var serviceTimers: Int = 0
    /// Times the wall clock was set while something was watched (each re-aligned every watch).
    public var clockChanges: Int = 0
    /// Times the machine's zone, followed while the config gives none, changed (the link
    /// `/etc/localtime` replaced, or its zone file rewritten).
    public var systemZoneChanges: Int = 0
    /// Connections refused because every slot open to the peer was taken.
    public var connectionsRefused: Int = 0
    /// The same, by the peer's uid (-1: the kernel did not say).
    public var refusedByUID: [Int64: Int] = [:]
    /// Connections the service closed: past the hard output limit, above the soft limit
    /// for too long or stuck, or with a line left unfinished.
    public var closedOutputLimit: Int = 0
    public var closedSlowReader: Int = 0
    public var closedPartialLine: Int = 0
    /// Log lines that could not be written without blocking (stderr not being read).
    public var logLinesDropped: Int = 0
    /// Bytes of memory the service's allocations hold now (every thread's).
    public var heapBytes: Int = 0
    /// Times a connection's lines or a tick's renderings waited for the next loop turn,
    /// because the turn had spent its loop time (the server's `TurnBudget`).
    public var heldForNextTurn: Int = 0
    /// Requests refused before rendering because their account held half its bound of
    /// unread answers (`output_hard_limit`).
    public var refusedUnreadBacklog: Int = 0
    /// The config's calendars: read, waited for (not there yet), and what could not be read
    /// (a file, an event), the first of them named.
    public var calendarsLoaded: Int = 0
    public var calendarsWaiting: Int = 0
    /// Calendars being read now (their events come when the reading is done).
    public var calendarsReading: Int = 0
    public var calendarProblems: [String] = []
    /// Problems past the ones kept (the first 1,000), counted only.
    public var calendarProblemsNotKept: Int = 0
    /// Calendar files the last reading parsed, and those it kept as they were.
    public var calendarFilesParsed: Int = 0
    public var calendarFilesUnchanged: Int = 0
    /// What the settings in force could not use of the config file, each with its place
    /// and what stands instead (`ConfigError.report`); empty when the file is good.
    public var configProblems: [String] = []
    public init(startedAt: Instant) { self.startedAt = startedAt }
}

extension Responder {
    /// `65534=1200 1000=3`: the uids with the most refusals, at most eight, `-` for none.
    static func topUIDs(_ counts: [Int64: Int]) -> String {
        guard !counts.isEmpty else { return "-" }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8)
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// The most config problems `stats` lists one by one.
    static let listedConfigProblems = 10

    func stats(now: Instant, counters: ServiceFigures) -> [String] {
        let cache = formatters.statistics
        let problems = counters.configProblems
        var configLines = problems.prefix(Self.listedConfigProblems).map { "config_problem: " + Self.oneLine($0) }
        if problems.count > Self.listedConfigProblems {
            configLines.append("config_problem: … and \(problems.count - Self.listedConfigProblems) more; zaoan check-config lists them all")
        }
        return [
            "uptime_seconds: \(Int(clampingSeconds: now.seconds(since: counters.startedAt)))",
            "connections_open: \(counters.connectionsOpen)",
            "connections_total: \(counters.connectionsTotal)",
            "requests: \(counters.requests)",
            "watches: \(counters.watches)",
            "timers: \(counters.timers)",
            "service_timers: \(counters.serviceTimers)",
            "live_rooms: \(schedule.count)",
            "privacy: " + (schedule.privacy ? "on" : "off"),
            "calendars: \(counters.calendarsLoaded) read, \(counters.calendarsWaiting) waiting, \(counters.calendarsReading) reading",
            "calendar_events: \(calendarEvents.count)",
            "calendar_files: \(counters.calendarFilesParsed) parsed, \(counters.calendarFilesUnchanged) unchanged",
            "calendar_problems: \(counters.calendarProblems.count + counters.calendarProblemsNotKept)"
                + (counters.calendarProblems.first.map { " (" + RequestParser.shorten($0) + ")" } ?? ""),
            "config_problems: \(problems.count)",
        ] + configLines + [
            "clock_changes: \(counters.clockChanges)",
            "system_zone_changes: \(counters.systemZoneChanges)",
            "connections_refused: \(counters.connectionsRefused)",
            "refused_by_uid: " + Self.topUIDs(counters.refusedByUID),
            "closed_output_limit: \(counters.closedOutputLimit)",
            "closed_slow_reader: \(counters.closedSlowReader)",
            "closed_partial_line: \(counters.closedPartialLine)",
            "log_lines_dropped: \(counters.logLinesDropped)",
            "held_for_next_turn: \(counters.heldForNextTurn)",
            "refused_unread_backlog: \(counters.refusedUnreadBacklog)",
            "almanac_years: \(almanac.yearsComputed)",
            "formatter_cache_entries: \(cache.entries)",
            "formatter_cache_capacity: \(formatters.capacity)",
            "formatter_cache_hits: \(cache.hits)",
            "formatter_cache_misses: \(cache.misses)",
            "formatter_cache_evictions: \(cache.evictions)",
            "heap_bytes: \(counters.heapBytes)",
        ]
    }
}
