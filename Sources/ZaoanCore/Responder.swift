import Foundation

/// What the I/O layer knows and `stats` reports.
public struct ServerCounters: Sendable, Equatable {
    public var startedAt: Date
    public var connectionsOpen: Int = 0
    public var connectionsTotal: Int = 0
    public var requests: Int = 0
    public var watches: Int = 0
    public var timers: Int = 0
    /// Times the wall clock was set while something was watched (each re-aligned every watch).
    public var clockChanges: Int = 0
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
    public init(startedAt: Date) { self.startedAt = startedAt }
}

/// Answers requests. Pure: the caller passes the time and the counters; nothing here touches
/// a socket or a file.
///
/// Answers that depend only on the clock are rendered once per second (per minute for the
/// greeting) and then served from `rendered`, so a busy second costs one format, not one per
/// request.
public final class Responder {
    public private(set) var settings: Settings
    public internal(set) var schedule: LiveSchedule
    public let formatters: FormatterCache
    /// Solar terms and lunar dates for `status_template`, a year computed once and kept.
    public let almanac = Almanac()
    /// Answers that depend only on the clock, by request, with the period they were made in.
    private var rendered: [Request: (period: Int, reply: Reply)] = [:]
    /// The last of them: the same request again (a bar, a benchmark) is compared, not hashed.
    private var lastRendered: (request: Request, period: Int, reply: Reply)?
    private static let renderedLimit = 256

    /// `live list`'s lines without their countdowns, in order; nil when the rooms changed.
    var listRows: [ListRow]?
    /// The same by room ID, kept across changes: a room that did not change is not formatted
    /// again. Cleared with new settings (zone, language).
    var rowCache: [String: ListRow] = [:]
    struct ListRow {
        let room: LiveRoom
        /// ID, start and end, each followed by a TAB.
        let head: String
        /// A TAB and the title.
        let tail: String
    }

    /// What `version` answers; the executable adds the commit it was built from.
    public var versionText = Version.describe(commit: nil)

    public init(settings: Settings, schedule: LiveSchedule = LiveSchedule()) {
        self.settings = settings
        self.schedule = schedule
        self.formatters = FormatterCache(capacity: settings.formatterCacheSize)
    }

    /// Takes new settings (after `reload`). The formatter cache is kept: its keys include
    /// locale and zone, so old entries are simply not hit.
    public func apply(_ settings: Settings) {
        self.settings = settings
        rowCache.removeAll()
        forgetRendered()
    }

    /// Settings or rooms changed: nothing rendered before is right any more.
    func forgetRendered() {
        rendered.removeAll(keepingCapacity: true)
        lastRendered = nil
        listRows = nil
    }

    /// Answers a request that needs no connection state. `session` and `quit` answers are
    /// decided by the connection; `reload` and room changes by the server. `counters` is
    /// only evaluated for `stats`, so the request path does not gather them.
    public func answer(_ request: Request, now: Date, counters: @autoclosure () -> ServerCounters) -> Reply {
        if case .ping = request { return .pong }  // the benchmark's request: no work at all
        if case .watch(let inner) = request { return answer(inner, now: now, counters: counters()) }
        let (inner, format) = request.withFormat
        guard let seconds = inner.renderPeriod else {
            return render(inner, format: format, now: now, counters: counters())
        }
        let period = Int(clampingSeconds: now.timeIntervalSince1970) / seconds
        if let last = lastRendered, last.period == period, last.request == request { return last.reply }
        if let hit = rendered[request], hit.period == period {
            lastRendered = (request, period, hit.reply)
            return hit.reply
        }
        let reply = render(inner, format: format, now: now, counters: counters())
        if rendered.count >= Self.renderedLimit { rendered.removeAll(keepingCapacity: true) }
        rendered[request] = (period, reply)
        lastRendered = (request, period, reply)
        return reply
    }

    private func render(_ request: Request, format: OutputFormat, now: Date, counters: @autoclosure () -> ServerCounters) -> Reply {
        do {
            let answer = try structured(request, now: now, counters: counters())
            return format.encode(answer, name: request.commandWord, pangoMarkup: settings.i3barPango)
        } catch {
            return .error(error)
        }
    }

    /// The answer with what bars want to know about it; `OutputFormat` writes it out.
    public func structured(_ request: Request, now: Date, counters: @autoclosure () -> ServerCounters) throws(ProtocolError) -> Answer {
        switch request {
        case .ping: return Answer("pong")
        case .greeting(let city): return try greetingAnswer(city: city, now: now)
        case .time(let pattern): return Answer(try time(pattern: pattern, now: now), state: "time")
        case .ago(let text):
            let date = try TimeExpression.parse(text, now: now, zone: settings.zone, lean: .past)
            return Answer(formatters.relative(date, to: now, locale: settings.language.localeIdentifier))
        case .duration(let text):
            return Answer(DurationText.format(seconds: try DurationText.parse(text)))
        case .version: return Answer(versionText)
        case .help: return Answer(lines: Request.usage.map(\.text))
        case .session, .reload: return Answer("ok")
        case .quit: return Answer("bye")
        case .stats: return Answer(lines: stats(now: now, counters: counters()))
        case .countdown(let id): return try countdownAnswer(id: id, now: now)
        case .ticker(let skip): return tickerAnswer(now: now, skip: skip)
        case .status: return try statusAnswer(now: now)
        case .liveList: return Answer(lines: liveList(now: now))
        case .liveShow(let id): return Answer(lines: try liveShow(id: id, now: now))
        case .liveAdd, .liveRemove:
            throw ProtocolError(.badArgument, "\(request.commandWord) changes the rooms; the server applies it")
        case .watch(let inner), .formatted(_, let inner):
            return try structured(inner, now: now, counters: counters())
        }
    }

    /// "早安·北京": the greeting for the hour in the city's zone, then the city.
    public func greeting(city: String?, now: Date) throws(ProtocolError) -> String {
        try greetingAnswer(city: city, now: now).text
    }

    func greetingAnswer(city: String?, now: Date) throws(ProtocolError) -> Answer {
        let name = city ?? settings.city
        guard let zone = city == nil ? settings.zone : settings.zone(forCity: name) else {
            throw ProtocolError(.unknownCity, "unknown city '\(RequestParser.shorten(name))'; add it to \"cities\" in the config with its IANA zone")
        }
        let local = Int(clampingSeconds: now.timeIntervalSince1970) + zone.secondsFromGMT(for: now)
        let minuteOfDay = ((local % 86_400 + 86_400) % 86_400) / 60
        let period = settings.greetings.period(hour: minuteOfDay / 60, minute: minuteOfDay % 60)
        let word = period.text
        let date = formatters.string(from: now, pattern: settings.language == .zh ? "yyyy年M月d日 EEEE HH:mm" : "EEEE, MMMM d, yyyy HH:mm",
                                     locale: settings.language.localeIdentifier, zone: zone)
        return Answer(word + settings.separator + name, shortText: word, tooltip: "\(name) \(date)",
                      state: period.dayPart.rawValue)
    }

    /// The current time through a cached formatter; `%` patterns are strftime.
    public func time(pattern: String?, now: Date) throws(ProtocolError) -> String {
        var ldml = pattern ?? settings.timeFormat
        if StrftimePattern.isStrftime(ldml) {
            do {
                ldml = try StrftimePattern.ldml(from: ldml)
            } catch {
                throw ProtocolError(.badArgument, error.description)
            }
        }
        // ICU formats nothing at all for a pattern past 1,024 UTF-16 units.
        guard ldml.utf16.count <= Self.maxPatternLength else {
            throw ProtocolError(.badArgument, "the pattern is \(ldml.utf16.count) characters long\(pattern.map { StrftimePattern.isStrftime($0) ? " as LDML" : "" } ?? ""); at most \(Self.maxPatternLength)")
        }
        let text = formatters.string(from: now, pattern: ldml, locale: settings.language.localeIdentifier, zone: settings.zone)
        guard !text.isEmpty else {
            throw ProtocolError(.badArgument, "the pattern '\(RequestParser.shorten(pattern ?? ldml))' formats to nothing; see docs/protocol.md for patterns")
        }
        return text
    }

    /// The longest pattern `time` takes (in UTF-16 units, after strftime is converted).
    public static let maxPatternLength = 1024

    /// `65534=1200 1000=3`: the uids with the most refusals, at most eight, `-` for none.
    static func topUIDs(_ counts: [Int64: Int]) -> String {
        guard !counts.isEmpty else { return "-" }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8)
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    private func stats(now: Date, counters: ServerCounters) -> [String] {
        let cache = formatters.statistics
        return [
            "uptime_seconds: \(Int(clampingSeconds: now.timeIntervalSince(counters.startedAt)))",
            "connections_open: \(counters.connectionsOpen)",
            "connections_total: \(counters.connectionsTotal)",
            "requests: \(counters.requests)",
            "watches: \(counters.watches)",
            "timers: \(counters.timers)",
            "live_rooms: \(schedule.count)",
            "clock_changes: \(counters.clockChanges)",
            "connections_refused: \(counters.connectionsRefused)",
            "refused_by_uid: " + Self.topUIDs(counters.refusedByUID),
            "closed_output_limit: \(counters.closedOutputLimit)",
            "closed_slow_reader: \(counters.closedSlowReader)",
            "closed_partial_line: \(counters.closedPartialLine)",
            "log_lines_dropped: \(counters.logLinesDropped)",
            "formatter_cache_entries: \(cache.entries)",
            "formatter_cache_capacity: \(formatters.capacity)",
            "formatter_cache_hits: \(cache.hits)",
            "formatter_cache_misses: \(cache.misses)",
            "formatter_cache_evictions: \(cache.evictions)",
        ]
    }
}
