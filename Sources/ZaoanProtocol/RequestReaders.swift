import ZaoanText

/// The words after a row's command words, as its reader gets them.
public struct RequestWords: Sendable {
    /// The row being read.
    public let kind: RequestKind
    public let words: [String]
    /// Which words began with a quote (`live add` keeps a quoted `key=value` word in its title).
    let quoted: [Int]
    /// The first word as typed, lowercased: an option's value is in it (`--format=json`).
    let command: String

    /// The words joined by one space; nil for none.
    var joined: String? { words.isEmpty ? nil : words.joined(separator: " ") }

    /// Refuses any word: `status` without `@ZONE`.
    func checkEmpty() throws(ProtocolError) {
        guard words.isEmpty else { throw ProtocolError(.badArgument, "\(kind.descriptor.words) takes no arguments") }
    }

}

/// How each row's arguments are read: the functions the rows name (`RequestDescriptor.reading`),
/// one per row whose arguments are more than none; each makes the row's request in the
/// shape its arguments have (`Request.text(kind, ...)`, `.number`, ...). Each checks what can be checked without
/// the clock, the rooms or the settings, with an error that says what to send instead; the
/// Responder checks the rest when it answers.
enum ReadArguments {
    /// `greeting [CITY|@ZONE]`: `greeting @Tokyo` is `greeting Tokyo`, a city or a zone either way.
    static func greeting(_ words: RequestWords) throws(ProtocolError) -> Request {
        if words.words.count == 1, let zone = try RequestParser.zoneWord(words.words[0]) { return .text(words.kind, zone) }
        return .text(words.kind, words.joined)
    }

    /// `cities NAME`: the name as typed, words joined by one space.
    static func cities(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard let joined = words.joined else { throw ProtocolError(.badArgument, "cities needs a NAME, e.g. cities Springfield") }
        return .text(words.kind, joined)
    }

    /// `time [PATTERN] [@ZONE]`, and `time PATTERN calendar=chinese`.
    static func time(_ arguments: RequestWords) throws(ProtocolError) -> Request {
        var words = arguments.words
        var zone: String?
        if let last = words.last, let name = try RequestParser.zoneWord(last) {
            zone = name
            words.removeLast()
        }
        let chinese = words.contains { $0.lowercased() == "calendar=chinese" }
        words.removeAll { $0.lowercased() == "calendar=chinese" }
        let pattern = words.isEmpty ? nil : words.joined(separator: " ")
        if chinese, let pattern, pattern.utf8.contains(UInt8(ascii: "%")) {
            throw ProtocolError(.badArgument, "calendar=chinese takes an LDML pattern such as U年MMMd or r年MMMd, not strftime")
        }
        let time = Request.text(chinese ? .chineseTime : .time, pattern)
        return zone.map { .zoned($0, time) } ?? time
    }

    static func ago(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard let joined = words.joined else { throw ProtocolError(.badArgument, "ago needs a TIME, e.g. ago 2026-12-01T08:00+08:00") }
        return .text(words.kind, joined)
    }

    static func duration(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard words.words.count == 1 else {
            throw ProtocolError(.badArgument, "duration needs one argument, a number of seconds, e.g. duration 125")
        }
        return .text(words.kind, words.words[0])
    }

    /// `countdown [ID] [format=NAME]`.
    static func countdown(_ words: RequestWords) throws(ProtocolError) -> Request {
        var rest = words.words
        let format = try countdownFormat(&rest, of: words.kind)
        guard rest.count <= 1 else { throw ProtocolError(.badArgument, "countdown takes at most one room ID, and format=NAME") }
        return withCountdownFormat(format, .text(words.kind, rest.first))
    }

    /// `ticker [others] [SKIP] [format=NAME]`: with `others`, the row `tickerOthers`.
    static func ticker(_ words: RequestWords) throws(ProtocolError) -> Request {
        var rest = words.words
        let format = try countdownFormat(&rest, of: words.kind)
        var kind = RequestKind.ticker
        if rest.first == "others" {
            kind = .tickerOthers
            rest.removeFirst()
        }
        guard rest.count <= 1 else { throw ProtocolError(.badArgument, "ticker takes at most others, one number, SKIP, and format=NAME") }
        guard let skip = rest.isEmpty ? 0 : Int(rest[0]), skip >= 0, skip < 1_000_000 else {
            throw ProtocolError(.badArgument, "ticker SKIP must be a whole number from 0, e.g. ticker 1 for the next room")
        }
        return withCountdownFormat(format, .number(kind, skip))
    }

    /// `status [@ZONE] [format=NAME]`: the row's request, zoned when a zone is named.
    static func status(_ words: RequestWords) throws(ProtocolError) -> Request {
        var rest = words.words
        let format = try countdownFormat(&rest, of: words.kind)
        let plain = try optionalZone(RequestWords(kind: words.kind, words: rest, quoted: [], command: words.command))
        return withCountdownFormat(format, plain)
    }

    /// `[@ZONE]` and nothing else: the row's request, zoned when a zone is named.
    static func optionalZone(_ words: RequestWords) throws(ProtocolError) -> Request {
        if words.words.count == 1, let zone = try RequestParser.zoneWord(words.words[0]) { return .zoned(zone, .plain(words.kind)) }
        try words.checkEmpty()
        return .plain(words.kind)
    }

    /// Takes a `format=NAME` word out of `words` (at most one), checking NAME's spelling;
    /// whether `countdown_formats` has it the Responder says.
    private static func countdownFormat(_ words: inout [String], of kind: RequestKind) throws(ProtocolError) -> String? {
        let prefix = Request.countdownFormatPrefix
        let found = words.indices.filter { words[$0].lowercased().hasPrefix(prefix) }
        guard let index = found.first else { return nil }
        guard found.count == 1 else { throw ProtocolError(.badArgument, "give format=NAME once") }
        let name = String(words[index].dropFirst(prefix.count))
        guard Request.isCountdownFormatName(name) else {
            throw ProtocolError(.badArgument, "format=\(RequestParser.shorten(name)): a name of countdown_formats is 1 to \(Request.maxCountdownFormatName) of A-Z a-z 0-9 _ -")
        }
        words.remove(at: index)
        return name
    }

    private static func withCountdownFormat(_ name: String?, _ request: Request) -> Request {
        name.map { .countdownFormat($0, request) } ?? request
    }

    /// `remind snooze ALARM DURATION`: the ID as `remind list` and `watch events` give it;
    /// DURATION (`5m`, `start`) is read by the Responder, which knows the event.
    static func remindSnooze(_ words: RequestWords) throws(ProtocolError) -> Request {
        let arguments = words.words
        guard arguments.count == 2 else { throw ProtocolError(.badArgument, "usage: \(words.kind.descriptor.usage) (5m, 1h, 30s, or start)") }
        return .pair(words.kind, try alarmID(arguments[0]), arguments[1])
    }

    static func remindDismiss(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard words.words.count == 1 else { throw ProtocolError(.badArgument, "usage: \(words.kind.descriptor.usage)") }
        return .text(words.kind, try alarmID(words.words[0]))
    }

    /// `privacy on` or `privacy off` (any case).
    static func privacy(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard words.words.count == 1, let word = ["on", "off"].first(where: { $0 == words.words[0].lowercased() }) else {
            throw ProtocolError(.badArgument, "usage: \(words.kind.descriptor.usage) (on hides titles, places, descriptions and links; off shows them again)")
        }
        return .text(words.kind, word)
    }

    private static func alarmID(_ word: String) throws(ProtocolError) -> String {
        guard RoomLimits.isAlarmID(word) else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(word))' is not an alarm ID; remind list and watch events give them (12 of 0-9 a-f)")
        }
        return word
    }

    static func liveAdd(_ words: RequestWords) throws(ProtocolError) -> Request {
        .room(words.kind, try LiveCommandParser.draft(words.words, quoted: Set(words.quoted)))
    }

    /// `event add CALENDAR WHEN [TITLE...] [options]`: `live add`'s words, a calendar's name
    /// in place of the room's ID (`LiveCommandParser`).
    static func eventAdd(_ words: RequestWords) throws(ProtocolError) -> Request {
        .room(words.kind, try LiveCommandParser.draft(words.words, quoted: Set(words.quoted), for: .eventAdd))
    }

    /// `event rm UID`: a UID `event add` made (`EventUID`), or the ID `watch events` gives
    /// its event (`calendar:` and the UID).
    static func eventRemove(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard words.words.count == 1 else { throw ProtocolError(.badArgument, "usage: \(words.kind.descriptor.usage)") }
        var uid = words.words[0]
        if uid.hasPrefix(Request.calendarEventPrefix) { uid = String(uid.dropFirst(Request.calendarEventPrefix.count)) }
        guard EventUID.isMade(uid) else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(uid))' is not a UID event add made (\(EventUID.shape)); event rm removes only the events zaoan wrote")
        }
        return .text(words.kind, uid)
    }

    static func liveRemove(_ words: RequestWords) throws(ProtocolError) -> Request {
        .text(words.kind, try LiveCommandParser.singleID(words.words, of: words.kind))
    }

    static func liveSkip(_ words: RequestWords) throws(ProtocolError) -> Request {
        let arguments = words.words
        guard arguments.count == 2 else { throw ProtocolError(.badArgument, "usage: \(words.kind.descriptor.usage)") }
        try LiveCommandParser.checkID(arguments[0])
        guard RoomLimits.isDate(arguments[1]) else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(arguments[1]))' is not a date; write it as 2026-12-24")
        }
        return .pair(words.kind, arguments[0], arguments[1])
    }

    /// `live show ID`, or a calendar event by the ID `watch events` gives it, `calendar:` and its UID.
    static func liveShow(_ words: RequestWords) throws(ProtocolError) -> Request {
        if words.words.count == 1, words.words[0].hasPrefix(Request.calendarEventPrefix) {
            let id = words.words[0]
            guard id.utf8.count > Request.calendarEventPrefix.utf8.count, id.utf8.count <= Request.maxCalendarEventIDBytes else {
                throw ProtocolError(.badArgument, "a calendar event's ID is calendar: and its UID, at most \(Request.maxCalendarEventIDBytes) bytes, as watch events gives it")
            }
            return .text(words.kind, id)
        }
        return .text(words.kind, try LiveCommandParser.singleID(words.words, of: words.kind))
    }

    /// `month [YYYY-MM|+N|-N] [@ZONE] [days]`, in any order, each once: the grid, or with
    /// `days` a line a day (`.monthDays`); the month's word as `MonthSelector` writes it.
    static func month(_ arguments: RequestWords) throws(ProtocolError) -> Request {
        var selector: MonthSelector?
        var zone: String?
        var days = false
        for word in arguments.words {
            if word.lowercased() == "days" {
                guard !days else { throw ProtocolError(.badArgument, "usage: month [YYYY-MM|+N|-N] [@ZONE] [days], each at most once") }
                days = true
            } else if zone == nil, let name = try RequestParser.zoneWord(word) {
                zone = name
            } else if selector == nil, !word.hasPrefix("@") {
                selector = try MonthSelector(word: word)
            } else {
                throw ProtocolError(.badArgument, "usage: month [YYYY-MM|+N|-N] [@ZONE] [days], each at most once")
            }
        }
        let month = Request.text(days ? .monthDays : .month, selector.map(\.word))
        return zone.map { .zoned($0, month) } ?? month
    }

    /// `schedule [HOURS] [calendar=NAME] [search=WORDS]`, keys in any order (`ScheduleQuery`).
    static func schedule(_ arguments: RequestWords) throws(ProtocolError) -> Request {
        .query(arguments.kind, try ScheduleQuery.read(arguments.words))
    }

    // MARK: - Rows made of requests

    /// `url countdown [ID] | ticker [SKIP] | status`: the requests that show a room or event.
    static func url(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard !words.words.isEmpty else { throw ProtocolError(.badArgument, "usage: url \(words.kind.descriptor.arguments)") }
        return .url(try shownRequest(words))
    }

    /// `join [countdown [ID] | ticker [SKIP] | status]`: `countdown` when nothing is named.
    static func join(_ words: RequestWords) throws(ProtocolError) -> Request {
        guard !words.words.isEmpty else { return .join(.text(.countdown, nil)) }
        return .join(try shownRequest(words))
    }

    /// The request `url` or `join` takes: one that shows a room or event.
    private static func shownRequest(_ words: RequestWords) throws(ProtocolError) -> Request {
        let word = words.kind.descriptor.words
        guard let first = words.words.first else { throw ProtocolError(.badArgument, "usage: \(word) \(words.kind.descriptor.arguments)") }
        var inner = try RequestParser.request(command: first.lowercased(), arguments: Array(words.words.dropFirst()))
        // A link is the same whatever words the countdown is said in: `url countdown format=compact`
        // (a bar's block with a format) is `url countdown`.
        if case .countdownFormat(_, let plain) = inner { inner = plain }
        switch inner {
        case .text(.countdown, _), .number(.ticker, _), .number(.tickerOthers, _), .plain(.status): return inner
        default: throw ProtocolError(.badArgument, "\(word) takes countdown, ticker or status, the requests that show a room or event")
        }
    }

    static func watch(_ words: RequestWords) throws(ProtocolError) -> Request {
        let arguments = words.words
        guard let first = arguments.first else {
            throw ProtocolError(.badArgument, "watch needs a request, e.g. watch countdown or watch time HH:mm:ss")
        }
        if arguments.count >= 2, arguments[1].lowercased() == "events", first.lowercased().hasPrefix("--format=") {
            // `watch events` is JSON lines already: --format=json is allowed, no other.
            guard first.lowercased() == "--format=json" else {
                throw ProtocolError(.badArgument, "watch events streams JSON lines only; leave out \(RequestParser.shorten(first))")
            }
            return try eventStream(since: Array(arguments.dropFirst(2)))
        }
        let inner = try RequestParser.request(command: first.lowercased(), arguments: Array(arguments.dropFirst()))
        guard inner.isWatchable else {
            throw ProtocolError(.notWatchable, "'\(RequestParser.shorten(first))' cannot be watched; watch greeting, time, countdown, ticker, stats, live list ...")
        }
        return .watch(inner)
    }

    /// `watch events [since=TIME]`.
    static func watchEvents(_ words: RequestWords) throws(ProtocolError) -> Request {
        try eventStream(since: words.words)
    }

    /// The words after `watch events`: nothing, or `since=TIME`, the moments after TIME
    /// replayed first (the `at` of the last line a subscriber read, when it comes back).
    private static func eventStream(since words: [String]) throws(ProtocolError) -> Request {
        guard let word = words.first else { return .watchEvents }
        guard words.count == 1, word.lowercased().hasPrefix("since="), word.utf8.count > 6, word.utf8.count <= 6 + Request.maxSinceBytes else {
            throw ProtocolError(.badArgument, "watch events takes since=TIME only (the at of the last line read, e.g. since=2026-12-01T08:00:00+08:00)")
        }
        return .text(.watchEvents, String(word.dropFirst(6)))
    }

    /// `--format=FMT REQUEST...`; `--format=json watch X` means `watch --format=json X`.
    static func format(_ words: RequestWords) throws(ProtocolError) -> Request {
        // The value follows the option's word and its `=`.
        let name = String(Substring(words.command.utf8.dropFirst(words.kind.descriptor.words.utf8.count + 1)))
        guard let format = OutputFormat(rawValue: name.lowercased()) else {
            throw ProtocolError(.badArgument, "unknown format '\(RequestParser.shorten(name))'; use --format= with \(OutputFormat.names)")
        }
        guard let first = words.words.first else {
            throw ProtocolError(.badArgument, "--format=\(format.rawValue) needs a request after it, e.g. --format=\(format.rawValue) greeting")
        }
        let inner = try RequestParser.request(command: first.lowercased(), arguments: Array(words.words.dropFirst()))
        switch inner {
        case .watch(let watched):
            return .watch(.formatted(format, watched))
        case .formatted:
            throw ProtocolError(.badArgument, "give --format once")
        case _ where inner.kind.descriptor.effect != .readsOnly:
            throw ProtocolError(.badArgument, "\(inner.commandWord) has no formats; send it without --format")
        default:
            return format == .plain ? inner : .formatted(format, inner)
        }
    }

    /// `blocks REQUEST ; REQUEST ...`: each part a watchable request without a format of
    /// its own. A word that is `;` (quoted or not) always separates parts.
    static func blocks(_ words: RequestWords) throws(ProtocolError) -> Request {
        var parts: [Request] = []
        var current: [String] = []
        func finish() throws(ProtocolError) {
            guard let first = current.first else {
                throw ProtocolError(.badArgument, "blocks needs requests separated by ' ; ', e.g. blocks ticker ; time HH:mm:ss")
            }
            let part = try RequestParser.request(command: first.lowercased(), arguments: Array(current.dropFirst()))
            switch part {
            case .blocks, .watch, .formatted, .plain(.stats):
                throw ProtocolError(.badArgument, "a part of blocks is a plain request (not stats), without blocks, watch or --format")
            default:
                guard part.isWatchable, !part.isRoomChange else {
                    throw ProtocolError(.badArgument, "'\(RequestParser.shorten(first))' cannot be a block; use greeting, time, countdown, ticker, status ...")
                }
            }
            parts.append(part)
            guard parts.count <= RequestParser.maxBlocks else {
                throw ProtocolError(.badArgument, "blocks takes at most \(RequestParser.maxBlocks) requests")
            }
            current.removeAll()
        }
        for word in words.words {
            if word == ";" { try finish() } else { current.append(word) }
        }
        try finish()
        return .blocks(parts)
    }
}
