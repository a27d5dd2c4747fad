/// A parsed request line. See docs/protocol.md for each command.
public enum Request: Equatable, Sendable {
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
        ("stats", "stats                   uptime, connections, requests, formatter cache"),
    ]
}
