/// A parsed request line. See docs/protocol.md for each command.
public enum Request: Hashable, Sendable {
    case greeting(city: String?)
    case time(pattern: String?)
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
    case ticker
    case liveAdd(LiveRoomDraft)
    case liveRemove(id: String)
    case liveList
    case liveShow(id: String)
    indirect case watch(Request)

    /// Whether `watch` can stream this request's answer.
    public var isWatchable: Bool {
        switch self {
        case .session, .quit, .reload, .liveAdd, .liveRemove, .watch: return false
        default: return true
        }
    }

    /// The command as the user would type it, for logs and errors.
    public var commandWord: String {
        switch self {
        case .liveAdd: return "live add"
        case .liveRemove: return "live rm"
        case .reload: return "reload"
        case .watch: return "watch"
        default: return "\(self)".components(separatedBy: "(").first ?? "request"
        }
    }

    /// Requests that change the service's state: only its own user and root may send them.
    public var isMutation: Bool {
        switch self {
        case .liveAdd, .liveRemove, .reload: return true
        default: return false
        }
    }

    /// Every command word with its usage, in the order `help` lists them.
    public static let usage: [(command: String, text: String)] = [
        ("greeting", "greeting [CITY]         greeting for the time of day, e.g. 早安·北京"),
        ("time", "time [PATTERN]          current time; LDML (yyyy-MM-dd HH:mm) or strftime (%H:%M)"),
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
        ("ticker", "ticker                  rotates through live and upcoming rooms every few seconds"),
        ("live", "live add ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N]"),
        ("live", "live rm ID | live list | live show ID"),
        ("watch", "watch REQUEST           send REQUEST's answer now and whenever it changes"),
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
}
