import ZaoanText

/// A parsed request line. See docs/protocol.md for each command.
public enum Request: Hashable, Sendable {
    case greeting(city: String?)
    case time(pattern: String?)
    /// `time U年MMMd calendar=chinese`: an LDML pattern in the Chinese lunisolar calendar.
    case chineseTime(pattern: String?)
    case ago(String)
    case duration(String)
    case ping
    case version
    case help
    case session
    case quit
    case reload
    case stats
    case countdown(id: String?)
    /// `ticker [SKIP]`: SKIP shows the room that many places further on (a bar's click).
    case ticker(skip: Int)
    case liveAdd(LiveRoomDraft)
    case liveRemove(id: String)
    case liveList
    case liveShow(id: String)
    case status
    indirect case watch(Request)
    /// `--format=json greeting`: the inner request's answer as a waybar object or i3bar block.
    indirect case formatted(OutputFormat, Request)
    /// `time HH:mm @Asia/Tokyo`, `status @东京`: `time` or `status` in another zone, named by
    /// an IANA zone or a city (built-in or from the config).
    indirect case zoned(String, Request)
    /// `--format=i3bar blocks ticker ; time HH:mm:ss`: several requests as one i3bar status
    /// line (a JSON array of blocks), so a bar watches them all on one connection and gets
    /// every second's changes in one write.
    indirect case blocks([Request])

    /// Whether `watch` can stream this request's answer.
    public var isWatchable: Bool {
        switch self {
        case .session, .quit, .reload, .liveAdd, .liveRemove, .watch: return false
        case .formatted(_, let inner), .zoned(_, let inner): return inner.isWatchable
        case .blocks(let parts): return parts.allSatisfy(\.isWatchable)
        default: return true
        }
    }

    /// The command as the user would type it, for logs and errors.
    public var commandWord: String {
        switch self {
        case .greeting: return "greeting"
        case .time, .chineseTime: return "time"
        case .ago: return "ago"
        case .duration: return "duration"
        case .ping: return "ping"
        case .version: return "version"
        case .help: return "help"
        case .session: return "session"
        case .quit: return "quit"
        case .reload: return "reload"
        case .stats: return "stats"
        case .countdown: return "countdown"
        case .ticker: return "ticker"
        case .liveAdd: return "live add"
        case .liveRemove: return "live rm"
        case .liveList: return "live list"
        case .liveShow: return "live show"
        case .status: return "status"
        case .watch: return "watch"
        case .formatted(_, let inner), .zoned(_, let inner): return inner.commandWord
        case .blocks: return "blocks"
        }
    }

    /// `live add` and `live rm`: saved to disk before they are answered, several read in one
    /// loop turn with one write (the server's group commit).
    public var isRoomChange: Bool {
        switch self {
        case .liveAdd, .liveRemove: return true
        default: return false
        }
    }

    /// Every command word with its usage, in the order `help` lists them.
    public static let usage: [(command: String, text: String)] = [
        ("greeting", "greeting [CITY|@ZONE]   greeting for the time of day, e.g. 早安·北京"),
        ("time", "time [PATTERN] [@ZONE]  current time; LDML (yyyy-MM-dd HH:mm) or strftime (%H:%M)"),
        ("time", "time PATTERN calendar=chinese   an LDML pattern in the Chinese calendar: U年MMMd"),
        ("ago", "ago TIME                relative time, e.g. 5分钟前 / 3 hours ago"),
        ("duration", "duration SECONDS        02:05, 1:02:05"),
        ("ping", "ping                    answers pong"),
        ("version", "version                 the service's version"),
        ("help", "help                    this list"),
        ("session", "session                 keep this connection open until quit"),
        ("quit", "quit                    close this connection"),
        ("reload", "reload                  re-read the config file"),
        ("stats", "stats                   uptime, connections, requests, watches, formatter cache"),
        ("countdown", "countdown [ID]          距开播 01:02:03 / live 00:12:03 / ended, for a room or the next"),
        ("status", "status [@ZONE]          greeting, time and the next room's countdown in one line"),
        ("ticker", "ticker [SKIP]           rotates through live and upcoming rooms every few seconds"),
        ("live", "live add ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N]"),
        ("live", "live rm ID | live list | live show ID"),
        ("watch", "watch REQUEST           send REQUEST's answer now and whenever it changes"),
        ("--format", "--format=FMT REQUEST    plain text, json (waybar), i3bar, or text for tmux or polybar"),
        ("blocks", "blocks REQUEST ; ...    several requests as one i3bar line (with --format=i3bar)"),
    ]
}

/// `live add` as sent: times are still text, resolved against the clock and zone when the
/// request is answered.
public struct LiveRoomDraft: Hashable, Sendable {
    public var id: String
    public var start: String
    public var title: String
    public var end: String?
    public var description: String?
    public var viewers: Int?

    public init(id: String, start: String, title: String, end: String? = nil, description: String? = nil, viewers: Int? = nil) {
        self.id = id
        self.start = start
        self.title = title
        self.end = end
        self.description = description
        self.viewers = viewers
    }
}

extension Request {
    /// The request without `--format`, and the format asked for.
    public var withFormat: (request: Request, format: OutputFormat) {
        if case .formatted(let format, let inner) = self { return (inner, format) }
        return (self, .plain)
    }

    /// For answers that depend only on the clock and the rooms: how many seconds one
    /// rendering stays good (a room change forgets them all). The greeting changes on the
    /// minute; the rest on the second. `live list` over 1,000 rooms takes milliseconds to
    /// render: a client asking for it in a loop costs one rendering a second. `time` goes by
    /// its pattern (`RenderPeriod`); the Responder decides that.
    /// The period of an answer the clock never changes: it is re-rendered only when the
    /// settings change, and a watch of it needs no timer.
    package static let fixedRenderPeriod = 1 << 40

    package var renderPeriod: Int? {
        switch self {
        case .greeting: return 60
        case .time, .chineseTime, .countdown, .ticker, .status, .liveList, .liveShow: return 1
        // Fixed until settings change (which forgets every rendering): a client asking in a
        // loop costs a lookup, not a rendering.
        case .help, .version: return Self.fixedRenderPeriod
        default: return nil
        }
    }
}
