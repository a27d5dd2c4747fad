import ZaoanText

/// A parsed request line: a request of its own (`simple`: its row and its arguments, as the
/// row's reader read them), or one made of requests. See docs/protocol.md for each command,
/// and `RequestKind` for the table that says what each is and how to add one.
///
/// A request of its own carries its kind, so nothing here grows with the table: a new row
/// needs no case, no line in `kind` and no constructor (the named ones below are a
/// convenience for the requests code asks for by name).
public enum Request: Hashable, Sendable {
    /// `greeting Tokyo`, `countdown`, `live add ...`: the row, and the arguments its reader
    /// (`RequestDescriptor.reading`) made of the words after the command words.
    case simple(RequestKind, RequestArguments)
    indirect case watch(Request)
    /// `url countdown`: the link (a calendar event's URL) of what the inner request shows, for
    /// a bar click; an empty line when it has none.
    indirect case url(Request)
    /// `--format=json greeting`: the inner request's answer as a waybar object or i3bar block.
    indirect case formatted(OutputFormat, Request)
    /// `time HH:mm @Asia/Tokyo`, `status @东京`: `time` or `status` in another zone, named by
    /// an IANA zone or a city (built-in or from the config).
    indirect case zoned(String, Request)
    /// `--format=i3bar blocks ticker ; time HH:mm:ss`: several requests as one i3bar status
    /// line (a JSON array of blocks), so a bar watches them all on one connection and gets
    /// every second's changes in one write.
    indirect case blocks([Request])

    /// Its row in the table. `@ZONE` is an argument, not a row: a zoned request is of the
    /// kind of the request in it.
    public var kind: RequestKind {
        switch self {
        case .simple(let kind, _): return kind
        case .watch: return .watch
        case .url: return .url
        case .formatted: return .format
        case .zoned(_, let inner): return inner.kind
        case .blocks: return .blocks
        }
    }

    /// What a request of its own was asked with (`.none` for one made of requests).
    public var arguments: RequestArguments {
        switch self {
        case .simple(_, let arguments): return arguments
        case .zoned(_, let inner): return inner.arguments
        default: return .none
        }
    }

    /// Whether `watch` can stream this request's answer: its row says so, and so do the rows
    /// of every request it is made of.
    public var isWatchable: Bool {
        guard kind.descriptor.isWatchable else { return false }
        switch self {
        case .formatted(_, let inner), .zoned(_, let inner): return inner.isWatchable
        case .blocks(let parts): return parts.allSatisfy(\.isWatchable)
        default: return true
        }
    }

    /// The room a `live add` or `live skip` makes or alters (one that may need expanding).
    public var changedRoomID: String? {
        switch self {
        case .simple(.liveAdd, .room(let draft)): return draft.id
        case .simple(.liveSkip, .pair(let id, _)): return id
        default: return nil
        }
    }

    /// The command as the user would type it, for logs and errors. `--format` is an option:
    /// the request after it is the one named.
    public var commandWord: String {
        if case .formatted(_, let inner) = self { return inner.commandWord }
        return kind.descriptor.words
    }

    /// `live add` and `live rm`: saved to disk before they are answered, several read in one
    /// loop turn with one write (the server's group commit).
    public var isRoomChange: Bool {
        kind.descriptor.effect == .changesRooms
    }
}

/// What a request of its own was asked with: the few shapes every row's arguments take, so
/// that a new row reuses one rather than adding a case to `Request`. The row's reader makes
/// them and its answer function reads them (`text`, `number`, ...); the row's `arguments`
/// says in `help`'s notation what they mean.
public enum RequestArguments: Hashable, Sendable {
    case none
    /// One text or none: a city, a pattern, a room ID, a time, a number of seconds as typed.
    case text(String?)
    /// A whole number, checked by the reader: `ticker SKIP`.
    case number(Int)
    /// A number and a text or none: `schedule HOURS calendar=NAME`.
    case numberAndText(Int, String?)
    /// Two texts: `live skip ID DATE`.
    case pair(String, String)
    /// `live add`'s room as sent.
    case room(LiveRoomDraft)

    /// The text of `.text` and `.numberAndText`, the first of `.pair`; nil otherwise.
    @inlinable public var text: String? {
        switch self {
        case .text(let text), .numberAndText(_, let text): return text
        case .pair(let first, _): return first
        default: return nil
        }
    }

    /// The number of `.number` and `.numberAndText`; 0 otherwise.
    @inlinable public var number: Int {
        switch self {
        case .number(let number), .numberAndText(let number, _): return number
        default: return 0
        }
    }
}

/// The requests other code asks for by name (the server, the bar, the tests): each is
/// `simple` with its row and arguments, and matches as a pattern too (`case .session:`).
extension Request {
    @inlinable public static var ping: Request { .simple(.ping, .none) }
    @inlinable public static var version: Request { .simple(.version, .none) }
    @inlinable public static var help: Request { .simple(.help, .none) }
    @inlinable public static var session: Request { .simple(.session, .none) }
    @inlinable public static var quit: Request { .simple(.quit, .none) }
    @inlinable public static var reload: Request { .simple(.reload, .none) }
    @inlinable public static var stats: Request { .simple(.stats, .none) }
    @inlinable public static var status: Request { .simple(.status, .none) }
    @inlinable public static var liveList: Request { .simple(.liveList, .none) }
    /// `watch events`: one JSON line per phase change of a room or calendar event.
    @inlinable public static var watchEvents: Request { .simple(.watchEvents, .none) }
    public static func greeting(city: String?) -> Request { .simple(.greeting, .text(city)) }
    public static func time(pattern: String?) -> Request { .simple(.time, .text(pattern)) }
    /// `time U年MMMd calendar=chinese`: an LDML pattern in the Chinese lunisolar calendar.
    public static func chineseTime(pattern: String?) -> Request { .simple(.chineseTime, .text(pattern)) }
    public static func ago(_ time: String) -> Request { .simple(.ago, .text(time)) }
    public static func duration(_ seconds: String) -> Request { .simple(.duration, .text(seconds)) }
    public static func countdown(id: String?) -> Request { .simple(.countdown, .text(id)) }
    /// `ticker [SKIP]`: SKIP shows the room that many places further on (a bar's click).
    public static func ticker(skip: Int) -> Request { .simple(.ticker, .number(skip)) }
    public static func liveAdd(_ draft: LiveRoomDraft) -> Request { .simple(.liveAdd, .room(draft)) }
    public static func liveRemove(id: String) -> Request { .simple(.liveRemove, .text(id)) }
    /// `live skip ID DATE`: a recurring room does not take place on DATE (YYYY-MM-DD).
    public static func liveSkip(id: String, date: String) -> Request { .simple(.liveSkip, .pair(id, date)) }
    public static func liveShow(id: String) -> Request { .simple(.liveShow, .text(id)) }
    /// `schedule [HOURS] [calendar=NAME]`: rooms and calendar events live now or starting
    /// within HOURS; with a calendar, that calendar's events alone.
    public static func schedule(hours: Int, calendar: String?) -> Request { .simple(.schedule, .numberAndText(hours, calendar)) }
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
    /// `repeat=`: daily, weekdays, weekly or an RRULE value, checked when answered.
    public var repeatRule: String?

    public init(id: String, start: String, title: String, end: String? = nil, description: String? = nil, viewers: Int? = nil,
                repeatRule: String? = nil) {
        self.id = id
        self.start = start
        self.title = title
        self.end = end
        self.description = description
        self.viewers = viewers
        self.repeatRule = repeatRule
    }
}

extension Request {
    /// The request without `--format`, and the format asked for.
    public var withFormat: (request: Request, format: OutputFormat) {
        if case .formatted(let format, let inner) = self { return (inner, format) }
        return (self, .plain)
    }

    /// The service's answer to a bar's watch when it takes the bar's pipe (SCM_RIGHTS) and
    /// writes the status lines into it; the bar (`zaoan bar`) waits for exactly this line.
    public static let barOutputTaken = "ok writing to the bar's output"

    /// `schedule` without HOURS, and the most it takes (a calendar window is at most 31 days).
    public static let defaultScheduleHours = 24
    public static let maxScheduleHours = 744
    /// `schedule ... calendar=NAME`'s word.
    public static let scheduleCalendarPrefix = "calendar="
    /// `live show calendar:UID`: a calendar event's ID, as `watch events` gives it.
    public static let calendarEventPrefix = "calendar:"
    /// The longest calendar event ID `live show` takes: the prefix and a UID's 48 first
    /// Characters (ZaoanCalendar keeps at most 512 bytes of a UID).
    public static let maxCalendarEventIDBytes = 9 + 512

    /// The period of an answer the clock never changes (a row that changes
    /// `.withSettings`): it is re-rendered only when the settings change, and a watch of it
    /// needs no timer.
    package static let fixedRenderPeriod = 1 << 40

    /// For answers that depend only on the clock and the rooms: how many seconds one
    /// rendering stays good, as its row says (`RequestDescriptor.Changes`). nil for a row
    /// that renders for every request, and for one that changes `.byArguments`: the
    /// Responder decides those (`time` by its pattern, `blocks` by its parts).
    package var renderPeriod: Int? {
        kind.descriptor.changes.seconds
    }
}
