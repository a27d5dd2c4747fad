import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// What each request is, as seen from outside the table: `help`'s exact bytes, and for one
/// request line of every kind, the properties the parser, the server and the Responder act
/// on. Written before the table existed, so it pins the behaviour the table must keep.
@Suite struct RequestTableTests {
    /// `help`'s answer, byte for byte, as it was before the table.
    static let helpText = """
        greeting [CITY|@ZONE]   greeting for the time of day, e.g. 早安·北京
        cities NAME             the cities of a name: name, country, population, zone
        time [PATTERN] [@ZONE]  current time; LDML (yyyy-MM-dd HH:mm) or strftime (%H:%M)
        time PATTERN calendar=chinese   an LDML pattern in the Chinese calendar: U年MMMd
        ago TIME                relative time, e.g. 5分钟前 / 3 hours ago
        duration SECONDS        02:05, 1:02:05
        ping                    answers pong
        version                 the service's version
        help                    this list
        session                 keep this connection open until quit
        quit                    close this connection
        reload                  re-read the config file
        stats                   uptime, connections, requests, watches, formatter cache
        countdown [ID]          距开播 01:02:03 / live 00:12:03 / ended, for a room or the next
        status [@ZONE]          greeting, time and the next room's countdown in one line
        ticker [SKIP]           rotates through live and upcoming rooms every few seconds
        ticker others [SKIP]    the ticker without the room countdown and status show
        live add ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N] [repeat=RULE] [alarm=-10m]
        live rm ID | live skip ID DATE | live list | live show ID
        remind list             pending alarms: ID, when, event and title per line
        remind snooze ALARM DURATION|start | remind dismiss ALARM
        privacy on|off          hides every title, place, description and link (sharing a screen); times stay
        event add CALENDAR WHEN [TITLE...] [end=END] [location=TEXT] [desc=TEXT] [repeat=RULE] [alarm=-10m]
        event rm UID            removes an event event add wrote (its file in the calendar's folder)
        schedule [HOURS] [calendar=NAME] [search=WORDS]   what comes next: start, end, source and title per line
        month [YYYY-MM|+N|-N] [@ZONE]   the month as a grid: week numbers, lunar days, festivals, holidays
        month [YYYY-MM|+N|-N] [@ZONE] days   a line a day: DATE, LUNAR DAY, MARKS, KIND, EVENTS
        url countdown [ID] | ticker [SKIP] | status
        join [countdown [ID] | ticker [SKIP] | status]   the meeting link of the live or next event
        watch REQUEST           send REQUEST's answer now and whenever it changes
        watch events [since=TIME]   a JSON line the second a room or event is soon, live or ended
        --format=FMT REQUEST    plain text, json (waybar), i3bar, or text for tmux or polybar
        blocks REQUEST ; ...    several requests as one i3bar line (with --format=i3bar)


        """

    @Test func helpIsByteIdentical() throws {
        let responder = Responder(settings: try makeSettings())
        let now = try instant("2026-06-15T12:00:00Z")
        let reply = responder.answer(.help, now: now, counters: ServiceFigures(startedAt: now))
        #expect(reply.bytes == Array(Self.helpText.utf8))
    }

    struct Expected: Sendable, CustomTestStringConvertible {
        let line: String
        let watchable: Bool
        let roomChange: Bool
        let word: String
        /// `Responder.renderPeriod` of the request without its format, as `answer` asks it (the
        /// test settings' `time` is `HH:mm`).
        let period: Int?
        var testDescription: String { line }
        init(_ line: String, _ watchable: Bool, _ roomChange: Bool, _ word: String, _ period: Int?) {
            (self.line, self.watchable, self.roomChange, self.word, self.period) = (line, watchable, roomChange, word, period)
        }
    }

    static let fixed = 1 << 40
    @Test(arguments: [
        Expected("greeting", true, false, "greeting", 60),
        Expected("greeting @Asia/Tokyo", true, false, "greeting", 60),
        Expected("time", true, false, "time", 60),
        Expected("time HH:mm:ss", true, false, "time", 1),
        Expected("time HH:mm:ss.SSS", true, false, "time", nil),
        Expected("time U calendar=chinese", true, false, "time", 60),
        Expected("time HH:mm @Asia/Tokyo", true, false, "time", 60),
        Expected("ago +5m", true, false, "ago", nil),
        Expected("duration 5", true, false, "duration", nil),
        Expected("ping", true, false, "ping", nil),
        Expected("version", true, false, "version", fixed),
        Expected("help", true, false, "help", fixed),
        Expected("session", false, false, "session", nil),
        Expected("quit", false, false, "quit", nil),
        Expected("reload", false, false, "reload", nil),
        Expected("stats", true, false, "stats", nil),
        Expected("countdown", true, false, "countdown", 1),
        Expected("ticker 2", true, false, "ticker", 1),
        Expected("status", true, false, "status", 1),
        Expected("status @Asia/Tokyo", true, false, "status", 1),
        Expected("live add x +1h Title", false, true, "live add", nil),
        Expected("live rm x", false, true, "live rm", nil),
        Expected("live remove x", false, true, "live rm", nil),
        Expected("live list", true, false, "live list", 1),
        Expected("live show x", true, false, "live show", 1),
        Expected("watch greeting", false, false, "watch", nil),
        Expected("--format=json greeting", true, false, "greeting", 60),
        Expected("--format=json watch greeting", false, false, "watch", nil),
        Expected("--format=i3bar blocks greeting ; time HH:mm", true, false, "blocks", 60),
        Expected("--format=i3bar blocks greeting ; time HH:mm:ss", true, false, "blocks", 1),
    ])
    func derivedProperties(_ expected: Expected) throws {
        let request = try #require(try RequestParser.parse(expected.line))
        #expect(request.isWatchable == expected.watchable)
        #expect(request.isRoomChange == expected.roomChange)
        #expect(request.commandWord == expected.word)
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        #expect(responder.renderPeriod(request.withFormat.request) == expected.period)
    }

    /// The parser finds rows by the table's words: two-word rows through their first word,
    /// aliases, options through their `=`, and nothing by a word that only looks alike.
    @Test(arguments: [
        ("LIVE LIST", Request.liveList),
        ("live DEL x", .liveRemove(id: "x")),
        ("live remove x", .liveRemove(id: "x")),
        ("--FORMAT=JSON ping", .formatted(.json, .ping)),
        ("--format=plain ping", .ping),
        ("watch live show x", .watch(.liveShow(id: "x"))),
    ])
    func dispatch(line: String, expected: Request) throws {
        #expect(try RequestParser.parse(line) == expected)
    }

    @Test(arguments: [
        ("live", ProtocolError.Code.badArgument, "live needs add, rm, skip, list or show; send help"),
        ("live frob", .unknownCommand, "unknown live command 'frob'; use live add, rm, skip, list or show"),
        ("live list x", .badArgument, "live list takes no arguments"),
        ("live rm", .badArgument, "usage: live rm ID"),
        ("live show a b", .badArgument, "usage: live show ID"),
        ("live add x", .badArgument, "usage: live add ID START [TITLE...] [end=END] [desc=TEXT] [viewers=N] [repeat=RULE]"),
        ("ping\u{0}", .unknownCommand, "unknown command 'ping?'"),
        ("pin", .unknownCommand, "unknown command 'pin'"),
        ("add", .unknownCommand, "unknown command 'add'"),
        ("--format", .unknownCommand, "unknown command '--format'"),
        ("--format= ping", .badArgument, "unknown format ''"),
        ("--format=json session", .badArgument, "session has no formats"),
        ("--format=json live rm x", .badArgument, "live rm has no formats"),
        ("-x=y ping", .unknownCommand, "unknown command '-x=y'"),
        ("countdowncountdowncountdown", .unknownCommand, "unknown command 'countdowncountdowncountdown'"),
    ])
    func dispatchErrors(line: String, code: ProtocolError.Code, message: String) {
        let error = protocolError { () throws(ProtocolError) in try RequestParser.parse(line) }
        #expect(error?.code == code)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    /// A mistyped word names the request it most likely meant (issue 18), by the table's
    /// words; nothing when nothing is close. The code and the start of the message stay.
    @Test(arguments: [
        ("greting", "unknown command 'greting' (did you mean 'greeting'?); send help for the list"),
        ("GRETING Tokyo", "unknown command 'greting' (did you mean 'greeting'?); send help for the list"),
        ("pin", "unknown command 'pin' (did you mean 'ping'?); send help for the list"),
        ("sttus", "unknown command 'sttus' (did you mean 'status'?); send help for the list"),
        ("stauts", "unknown command 'stauts' (did you mean 'stats'?); send help for the list"),  // as near to status: the table's first
        // `add` leads both `live add` and `event add`: no one guess.
        ("add x +1h t", "unknown command 'add'; send help for the list"),
        ("skip x 2026-12-24", "unknown command 'skip' (did you mean 'live skip'?); send help for the list"),
        ("events", "unknown command 'events' (did you mean 'watch events'?); send help for the list"),
        ("--fromat=json ping", "unknown command '--fromat=json' (did you mean '--format=json'?); send help for the list"),
        ("frobnicate", "unknown command 'frobnicate'; send help for the list"),
        ("x", "unknown command 'x'; send help for the list"),
        ("live ad x +1h t", "unknown live command 'ad'; use live add, rm, skip, list or show; did you mean 'live add'?"),
        ("live frob", "unknown live command 'frob'; use live add, rm, skip, list or show"),
    ])
    func suggestions(line: String, message: String) {
        let error = protocolError { () throws(ProtocolError) in try RequestParser.parse(line) }
        #expect(error?.code == .unknownCommand)
        #expect(error?.message == message, "\(String(describing: error))")
    }
}
