/// Which request: one case per row of the table below, declared in the order `help` lists them.
///
/// To add a request (docs/development.md, "Adding a request", walks through one): a case
/// here and its row in `row` (the compiler asks for it), which says how its arguments are
/// read (`reads:`, a function of `ReadArguments` making its `Request` in one of six shapes;
/// none by default), and the one function that answers it, on its line of the Responder's
/// answer table (`Responder.answer(_:_:counters:)`; the compiler asks for that too). The
/// completions and docs/protocol.md then fail RequestTableFilesTests until they offer it.
///
/// Combinators (`watch REQUEST`, `blocks REQUEST ; ...`) and the option `--format=FMT
/// REQUEST` are rows too: they have words, a help line and a place in the completions. What
/// they are made of decides the rest (`Request.isWatchable`, the Responder's render period).
/// `@ZONE` is not a row: it is an argument of the rows that take it (`time`, `status`;
/// `greeting` takes a zone as its city), so a `Request.zoned` is of its inner request's kind.
public enum RequestKind: UInt8, CaseIterable, Hashable, Sendable {
    case greeting, cities, time, chineseTime, ago, duration
    case ping, version, help, session, quit, reload, stats
    case countdown, status, ticker, tickerOthers
    case liveAdd, liveRemove, liveSkip, liveList, liveShow
    case remindList, remindSnooze, remindDismiss, privacy
    case eventAdd, eventRemove
    case schedule, month, monthDays, url, join
    case watch, watchEvents, format, blocks

    /// The row: one entry for everything the service, `help`, the completions and the docs
    /// need to know about this kind. Rows with the same words (`time`, and `time ...
    /// calendar=chinese`) are told apart by their arguments: the first row's parser decides.
    private var row: RequestDescriptor {
        switch self {
        case .greeting:
            RequestDescriptor(self, "greeting", "[CITY|@ZONE]", reads: .words(ReadArguments.greeting), watchable: true, changes: .everyMinute,
                              help: .line("greeting for the time of day, e.g. 早安·北京"))
        case .cities:
            RequestDescriptor(self, "cities", "NAME", reads: .words(ReadArguments.cities), watchable: false, changes: .withSettings,
                              help: .line("the cities of a name: name, country, population, zone"))
        case .time:
            RequestDescriptor(self, "time", "[PATTERN] [@ZONE]", reads: .words(ReadArguments.time), watchable: true, changes: .byArguments,
                              help: .line("current time; LDML (yyyy-MM-dd HH:mm) or strftime (%H:%M)"))
        case .chineseTime:
            RequestDescriptor(self, "time", "PATTERN calendar=chinese", reads: .words(ReadArguments.time), watchable: true, changes: .byArguments,
                              help: .line("an LDML pattern in the Chinese calendar: U年MMMd"))
        case .ago:
            RequestDescriptor(self, "ago", "TIME", reads: .words(ReadArguments.ago), watchable: true, changes: .everyRequest,
                              help: .line("relative time, e.g. 5分钟前 / 3 hours ago"))
        case .duration:
            RequestDescriptor(self, "duration", "SECONDS", reads: .words(ReadArguments.duration), watchable: true, changes: .everyRequest,
                              help: .line("02:05, 1:02:05"))
        case .ping:
            RequestDescriptor(self, "ping", watchable: true, changes: .everyRequest, help: .line("answers pong"))
        case .version:
            RequestDescriptor(self, "version", watchable: true, changes: .withSettings, help: .line("the service's version"))
        case .help:
            RequestDescriptor(self, "help", watchable: true, changes: .withSettings, help: .line("this list"))
        case .session:
            RequestDescriptor(self, "session", effect: .entersSession, watchable: false, changes: .everyRequest,
                              help: .line("keep this connection open until quit"))
        case .quit:
            RequestDescriptor(self, "quit", effect: .endsConnection, watchable: false, changes: .everyRequest,
                              help: .line("close this connection"))
        case .reload:
            RequestDescriptor(self, "reload", effect: .reloadsSettings, watchable: false, changes: .everyRequest,
                              help: .line("re-read the config file"))
        case .stats:
            RequestDescriptor(self, "stats", watchable: true, changes: .everyRequest,
                              help: .line("uptime, connections, requests, watches, formatter cache"))
        case .countdown:
            RequestDescriptor(self, "countdown", "[ID]", reads: .words(ReadArguments.countdown), watchable: true, changes: .everySecond,
                              help: .line("距开播 01:02:03 / live 00:12:03 / ended, for a room or the next"))
        case .status:
            RequestDescriptor(self, "status", "[@ZONE]", reads: .words(ReadArguments.status), watchable: true, changes: .everySecond,
                              help: .line("greeting, time and the next room's countdown in one line"))
        case .ticker:
            RequestDescriptor(self, "ticker", "[SKIP]", reads: .words(ReadArguments.ticker), watchable: true, changes: .everySecond,
                              help: .line("rotates through live and upcoming rooms every few seconds"))
        case .tickerOthers:
            // A bar with a countdown or status beside its ticker (the default bar) shows each room once.
            RequestDescriptor(self, "ticker", "others [SKIP]", reads: .words(ReadArguments.ticker), watchable: true, changes: .everySecond,
                              help: .line("the ticker without the room countdown and status show"))
        case .liveAdd:
            RequestDescriptor(self, "live add", "ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N] [repeat=RULE] [alarm=-10m]", reads: .words(ReadArguments.liveAdd),
                              effect: .changesRooms, watchable: false, changes: .everyRequest, help: .usageOnly)
        case .liveRemove:
            RequestDescriptor(self, "live rm", "ID", aliases: ["live remove", "live del"], reads: .words(ReadArguments.liveRemove),
                              effect: .changesRooms, watchable: false, changes: .everyRequest, help: .usageOnly)
        case .liveSkip:
            RequestDescriptor(self, "live skip", "ID DATE", reads: .words(ReadArguments.liveSkip), effect: .changesRooms, watchable: false, changes: .everyRequest,
                              help: .sameLineAsAbove)
        case .liveList:
            // Over 1,000 rooms it takes milliseconds: a client asking in a loop costs one
            // rendering a second.
            RequestDescriptor(self, "live list", watchable: true, changes: .everySecond, help: .sameLineAsAbove)
        case .liveShow:
            RequestDescriptor(self, "live show", "ID", reads: .words(ReadArguments.liveShow), watchable: true, changes: .everySecond, help: .sameLineAsAbove)
        case .remindList:
            RequestDescriptor(self, "remind list", watchable: true, changes: .everySecond,
                              help: .line("pending alarms: ID, when, event and title per line"))
        case .remindSnooze:
            RequestDescriptor(self, "remind snooze", "ALARM DURATION|start", reads: .words(ReadArguments.remindSnooze),
                              effect: .changesRooms, watchable: false, changes: .everyRequest, help: .usageOnly)
        case .remindDismiss:
            RequestDescriptor(self, "remind dismiss", "ALARM", reads: .words(ReadArguments.remindDismiss),
                              effect: .changesRooms, watchable: false, changes: .everyRequest, help: .sameLineAsAbove)
        case .privacy:
            RequestDescriptor(self, "privacy", "on|off", reads: .words(ReadArguments.privacy),
                              effect: .changesRooms, watchable: false, changes: .everyRequest,
                              help: .line("hides every title, place, description and link (sharing a screen); times stay"))
        case .eventAdd:
            RequestDescriptor(self, "event add", "CALENDAR WHEN [TITLE...] [end=END] [location=TEXT] [desc=TEXT] [repeat=RULE] [alarm=-10m]",
                              reads: .words(ReadArguments.eventAdd), effect: .writesCalendars, watchable: false, changes: .everyRequest, help: .usageOnly)
        case .eventRemove:
            RequestDescriptor(self, "event rm", "UID", aliases: ["event remove", "event del"], reads: .words(ReadArguments.eventRemove),
                              effect: .writesCalendars, watchable: false, changes: .everyRequest,
                              help: .line("removes an event event add wrote (its file in the calendar's folder)"))
        case .schedule:
            RequestDescriptor(self, "schedule", "[HOURS] [calendar=NAME] [search=WORDS]", reads: .words(ReadArguments.schedule), watchable: true, changes: .everySecond,
                              help: .line("what comes next: start, end, source and title per line"))
        case .month:
            RequestDescriptor(self, "month", "[YYYY-MM|+N|-N] [@ZONE]", reads: .words(ReadArguments.month), watchable: true, changes: .everyMinute,
                              help: .line("the month as a grid: week numbers, lunar days, festivals, holidays"))
        case .monthDays:
            RequestDescriptor(self, "month", "[YYYY-MM|+N|-N] [@ZONE] days", reads: .words(ReadArguments.month), watchable: true, changes: .everyMinute,
                              help: .line("a line a day: DATE, LUNAR DAY, MARKS, KIND, EVENTS"))
        case .url:
            RequestDescriptor(self, "url", "countdown [ID] | ticker [SKIP] | status", reads: .words(ReadArguments.url), watchable: false, changes: .everyRequest,
                              help: .usageOnly)
        case .join:
            RequestDescriptor(self, "join", "[countdown [ID] | ticker [SKIP] | status]", reads: .words(ReadArguments.join), watchable: false, changes: .everyRequest,
                              help: .line("the meeting link of the live or next event"))
        case .watch:
            RequestDescriptor(self, "watch", "REQUEST", reads: .words(ReadArguments.watch), shape: .combinator, watchable: false, changes: .byArguments,
                              help: .line("send REQUEST's answer now and whenever it changes"))
        case .watchEvents:
            // A stream of moments, not a state: nothing on subscribing, nothing to cache.
            RequestDescriptor(self, "watch events", "[since=TIME]", reads: .words(ReadArguments.watchEvents), watchable: false, changes: .everyRequest,
                              help: .line("a JSON line the second a room or event is soon, live or ended"))
        case .format:
            RequestDescriptor(self, "--format", "FMT REQUEST", reads: .words(ReadArguments.format), shape: .option, watchable: true, changes: .byArguments,
                              help: .line("plain text, json (waybar), i3bar, or text for tmux or polybar"))
        case .blocks:
            RequestDescriptor(self, "blocks", "REQUEST ; ...", reads: .words(ReadArguments.blocks), shape: .combinator, watchable: true, changes: .byArguments,
                              help: .line("several requests as one i3bar line (with --format=i3bar)"))
        }
    }

    /// Every row, in `help`'s order, made once.
    public static let table: [RequestDescriptor] = allCases.map(\.row)

    /// This kind's row: an array read, cheap enough for every request.
    @inline(__always)
    public var descriptor: RequestDescriptor { Self.table[Int(rawValue)] }

    /// Every row's effect, by kind: what the dispatcher routes every request by, read
    /// without a reference to the row (no retain and release per request).
    private static let effects: [RequestDescriptor.Effect] = table.map(\.effect)

    /// What this kind's requests do (`descriptor.effect`).
    @inline(__always)
    public var effect: RequestDescriptor.Effect { Self.effects[Int(rawValue)] }
}
