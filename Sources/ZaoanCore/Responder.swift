import Foundation

/// What the I/O layer knows and `stats` reports.
public struct ServerCounters: Sendable, Equatable {
    public var startedAt: Date
    public var connectionsOpen: Int = 0
    public var connectionsTotal: Int = 0
    public var requests: Int = 0
    public var watches: Int = 0
    public var timers: Int = 0
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
    var rendered: [RenderKey: (period: Int, reply: Reply)] = [:]
    private static let renderedLimit = 256

    enum RenderKey: Hashable {
        case greeting(String?)
        case time(String?)
        case countdown(String?)
        case ticker
    }

    public init(settings: Settings, schedule: LiveSchedule = LiveSchedule()) {
        self.settings = settings
        self.schedule = schedule
        self.formatters = FormatterCache(capacity: settings.formatterCacheSize)
    }

    /// Takes new settings (after `reload`). The formatter cache is kept: its keys include
    /// locale and zone, so old entries are simply not hit.
    public func apply(_ settings: Settings) {
        self.settings = settings
        rendered.removeAll()
    }

    /// Answers a request that needs no connection state. `session` and `quit` answers are
    /// decided by the connection; `reload` by the server.
    public func answer(_ request: Request, now: Date, counters: ServerCounters) -> Reply {
        do {
            switch request {
            case .ping: return .pong
            case .greeting(let city):
                return try cachedPerPeriod(.greeting(city), now: now, seconds: 60) { () throws(ProtocolError) in
                    .line(try greeting(city: city, now: now))
                }
            case .time(let pattern):
                return try cachedPerPeriod(.time(pattern), now: now, seconds: 1) { () throws(ProtocolError) in
                    .line(try time(pattern: pattern, now: now))
                }
            case .ago(let text):
                let date = try TimeExpression.parse(text, now: now, zone: settings.zone, lean: .past)
                return .line(formatters.relative(date, to: now, locale: settings.language.localeIdentifier))
            case .duration(let text):
                return .line(DurationText.format(seconds: try DurationText.parse(text)))
            case .version: return .line("zaoan \(Version.number)")
            case .help: return .lines(Request.usage.map(\.text))
            case .session, .reload: return .ok
            case .quit: return .line("bye")
            case .stats: return .lines(stats(now: now, counters: counters))
            case .countdown(let id):
                return try cachedPerPeriod(.countdown(id), now: now, seconds: 1) { () throws(ProtocolError) in
                    .line(try countdown(id: id, now: now))
                }
            case .ticker:
                return cachedPerPeriod(.ticker, now: now, seconds: 1) { .line(ticker(now: now)) }
            case .liveList: return .lines(liveList(now: now))
            case .liveShow(let id): return .lines(try liveShow(id: id, now: now))
            case .liveAdd, .liveRemove:
                return .error(ProtocolError(.badArgument, "internal: changes go through proposedChange"))
            case .watch(let inner): return answer(inner, now: now, counters: counters)
            }
        } catch {
            return .error(error)
        }
    }

    /// "早安·北京": the greeting for the hour in the city's zone, then the city.
    public func greeting(city: String?, now: Date) throws(ProtocolError) -> String {
        let name = city ?? settings.city
        guard let zone = city == nil ? settings.zone : settings.zone(forCity: name) else {
            throw ProtocolError(.unknownCity, "unknown city '\(RequestParser.shorten(name))'; add it to \"cities\" in the config with its IANA zone")
        }
        let local = Int(now.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: now)
        let minuteOfDay = ((local % 86_400 + 86_400) % 86_400) / 60
        let text = settings.greetings.greeting(hour: minuteOfDay / 60, minute: minuteOfDay % 60)
        return text + settings.separator + name
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
        return formatters.string(from: now, pattern: ldml, locale: settings.language.localeIdentifier, zone: settings.zone)
    }

    private func stats(now: Date, counters: ServerCounters) -> [String] {
        let cache = formatters.statistics
        return [
            "uptime_seconds: \(Int(now.timeIntervalSince(counters.startedAt)))",
            "connections_open: \(counters.connectionsOpen)",
            "connections_total: \(counters.connectionsTotal)",
            "requests: \(counters.requests)",
            "watches: \(counters.watches)",
            "timers: \(counters.timers)",
            "live_rooms: \(schedule.count)",
            "formatter_cache_entries: \(cache.entries)",
            "formatter_cache_capacity: \(formatters.capacity)",
            "formatter_cache_hits: \(cache.hits)",
            "formatter_cache_misses: \(cache.misses)",
            "formatter_cache_evictions: \(cache.evictions)",
        ]
    }

    func cachedPerPeriod<E: Error>(
        _ key: RenderKey, now: Date, seconds: Int, render: () throws(E) -> Reply
    ) throws(E) -> Reply {
        let period = Int(now.timeIntervalSince1970.rounded(.down)) / seconds
        if let hit = rendered[key], hit.period == period { return hit.reply }
        let reply = try render()
        if rendered.count >= Self.renderedLimit { rendered.removeAll(keepingCapacity: true) }
        rendered[key] = (period, reply)
        return reply
    }
}
