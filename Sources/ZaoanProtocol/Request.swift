import ZaoanText

/// A parsed request line: a request of its own, its row (`RequestKind`) with its arguments
/// in one of six shapes, or one made of requests. See docs/protocol.md for each command, and
/// `RequestKind` for the table that says what each is and how to add one.
///
/// A request of its own carries its kind, so nothing here grows with the table: a new row
/// takes the shape its arguments have (its reader, `RequestDescriptor.reading`, makes it) and
/// needs no case, no line in `kind` and no constructor (the named ones below are a
/// convenience for the requests code asks for by name). One enum, not a kind beside an enum
/// of arguments: a request is copied several times on its way, and one level of payload
/// copies as cheaply as the case per request it replaced (a nested enum of arguments did
/// not).
public enum Request: Hashable, Sendable {
    /// No arguments: `ping`, `live list`, `status`.
    case plain(RequestKind)
    /// One text or none: a city, a pattern, a room ID, a time, a number of seconds as typed.
    case text(RequestKind, String?)
    /// A whole number, checked by the reader: `ticker SKIP`.
    case number(RequestKind, Int)
    /// `schedule`'s hours, calendar and words to search for. Boxed, as `.room` is: inline,
    /// its three fields would make every request larger to copy.
    indirect case query(RequestKind, ScheduleQuery)
    /// Two texts: `live skip ID DATE`.
    case pair(RequestKind, String, String)
    /// `live add`'s room as sent. Boxed: inline, its seven fields would make every request
    /// as large as a `live add` to copy.
    indirect case room(RequestKind, LiveRoomDraft)

    indirect case watch(Request)
    /// `url countdown`: the link (a calendar event's URL) of what the inner request shows, for
    /// a bar click; an empty line when it has none.
    indirect case url(Request)
    /// `join countdown`: the link to join the meeting (a calendar event's `MeetingLink`) of
    /// what the inner request shows (`countdown` when none is named: the live or next room or
    /// event), for `zaoan join` and a bar click; an empty line when it has none.
    indirect case join(Request)
    /// `--format=json greeting`: the inner request's answer as a waybar object or i3bar block.
    indirect case formatted(OutputFormat, Request)
    /// `time HH:mm @Asia/Tokyo`, `status @东京`: `time` or `status` in another zone, named by
    /// an IANA zone or a city (built-in or from the config).
    indirect case zoned(String, Request)
    /// `countdown format=compact`, `status format=compact`: the countdown said with the
    /// named set of templates of `countdown_formats` (an argument of the rows that show a
    /// countdown, as `@ZONE` is of those that show a time), around the request without it.
    indirect case countdownFormat(String, Request)
    /// `--format=i3bar blocks ticker ; time HH:mm:ss`: several requests as one i3bar status
    /// line (a JSON array of blocks), so a bar watches them all on one connection and gets
    /// every second's changes in one write.
    indirect case blocks([Request])

    /// Its row in the table. `@ZONE` is an argument, not a row: a zoned request is of the
    /// kind of the request in it.
    public var kind: RequestKind {
        switch self {
        case .plain(let kind), .text(let kind, _), .number(let kind, _), .query(let kind, _),
             .pair(let kind, _, _), .room(let kind, _):
            return kind
        case .watch: return .watch
        case .url: return .url
        case .join: return .join
        case .formatted: return .format
        case .zoned(_, let inner), .countdownFormat(_, let inner): return inner.kind
        case .blocks: return .blocks
        }
    }

    /// Whether it is a request of its own (one of the six shapes), not one made of requests.
    public var isOfItsOwn: Bool {
        switch self {
        case .plain, .text, .number, .query, .pair, .room: return true
        case .watch, .url, .join, .formatted, .zoned, .countdownFormat, .blocks: return false
        }
    }

    /// The text of `.text`, the first of `.pair`, `.query`'s calendar; nil otherwise.
    public var text: String? {
        switch self {
        case .text(_, let text): return text
        case .query(_, let query): return query.calendar
        case .pair(_, let first, _): return first
        default: return nil
        }
    }

    /// The number of `.number`, `.query`'s hours; 0 otherwise.
    public var number: Int {
        switch self {
        case .number(_, let number): return number
        case .query(_, let query): return query.hours
        default: return 0
        }
    }

    /// `schedule`'s query; nil for any other request.
    public var scheduleQuery: ScheduleQuery? {
        if case .query(_, let query) = self { return query }
        return nil
    }

    /// Whether `watch` can stream this request's answer: its row says so, and so do the rows
    /// of every request it is made of.
    public var isWatchable: Bool {
        guard kind.descriptor.isWatchable else { return false }
        switch self {
        case .formatted(_, let inner), .zoned(_, let inner), .countdownFormat(_, let inner): return inner.isWatchable
        case .blocks(let parts): return parts.allSatisfy(\.isWatchable)
        default: return true
        }
    }

    /// The room a `live add` or `live skip` makes or alters (one that may need expanding).
    public var changedRoomID: String? {
        switch self {
        case .room(.liveAdd, let draft): return draft.id
        case .pair(.liveSkip, let id, _): return id
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

/// The requests other code asks for by name (the server, the bar, the tests): each is
/// its row with its arguments, and matches as a pattern too (`case .session:`).
extension Request {
    /// `case .session:` in a `switch` over requests. A request without arguments, as every
    /// pattern of this kind is, is compared by its kind: the server's switch tries several
    /// on every request, and the derived `==` through the generic `~=` copied and compared
    /// the whole request each time.
    @inlinable public static func ~= (pattern: Request, request: Request) -> Bool {
        guard case .plain(let kind) = pattern else { return pattern == request }
        guard case .plain(kind) = request else { return false }
        return true
    }

    @inlinable public static var ping: Request { .plain(.ping) }
    @inlinable public static var version: Request { .plain(.version) }
    @inlinable public static var help: Request { .plain(.help) }
    @inlinable public static var session: Request { .plain(.session) }
    @inlinable public static var quit: Request { .plain(.quit) }
    @inlinable public static var reload: Request { .plain(.reload) }
    @inlinable public static var stats: Request { .plain(.stats) }
    @inlinable public static var status: Request { .plain(.status) }
    @inlinable public static var liveList: Request { .plain(.liveList) }
    /// `watch events`: one JSON line per phase change of a room or calendar event.
    @inlinable public static var watchEvents: Request { .plain(.watchEvents) }
    /// The longest TIME of `watch events since=TIME`.
    public static let maxSinceBytes = 64
    public static func greeting(city: String?) -> Request { .text(.greeting, city) }
    public static func time(pattern: String?) -> Request { .text(.time, pattern) }
    /// `time U年MMMd calendar=chinese`: an LDML pattern in the Chinese lunisolar calendar.
    public static func chineseTime(pattern: String?) -> Request { .text(.chineseTime, pattern) }
    public static func ago(_ time: String) -> Request { .text(.ago, time) }
    public static func duration(_ seconds: String) -> Request { .text(.duration, seconds) }
    public static func countdown(id: String?) -> Request { .text(.countdown, id) }
    /// `ticker [SKIP]`: SKIP shows the room that many places further on (a bar's click).
    public static func ticker(skip: Int) -> Request { .number(.ticker, skip) }
    public static func liveAdd(_ draft: LiveRoomDraft) -> Request { .room(.liveAdd, draft) }
    public static func liveRemove(id: String) -> Request { .text(.liveRemove, id) }
    /// `live skip ID DATE`: a recurring room does not take place on DATE (YYYY-MM-DD).
    public static func liveSkip(id: String, date: String) -> Request { .pair(.liveSkip, id, date) }
    public static func liveShow(id: String) -> Request { .text(.liveShow, id) }
    /// `schedule [HOURS] [calendar=NAME] [search=WORDS]`: rooms and calendar events live now
    /// or starting within HOURS; with a calendar, that calendar's events alone; with words,
    /// those that hold every word.
    public static func schedule(hours: Int, calendar: String?, search: [String] = []) -> Request {
        .query(.schedule, ScheduleQuery(hours: hours, calendar: calendar, search: search))
    }
}
/// `live add` as sent: times are still text, resolved against the clock and zone when the
/// request is answered. `event add` sends the same words: its `id` is the calendar's name.
public struct LiveRoomDraft: Hashable, Sendable {
    public var id: String
    public var start: String
    public var title: String
    public var end: String?
    public var description: String?
    public var viewers: Int?
    /// `repeat=`: daily, weekdays, weekly or an RRULE value, checked when answered.
    public var repeatRule: String?
    /// `alarm=-10m,-1m`: offsets from the start, checked when answered.
    public var alarms: [String]?
    /// `location=` (`event add` only): the event's LOCATION.
    public var location: String?

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
    public static let maxScheduleHours = ScheduleDefaults.maxHours
    /// `countdown format=NAME`'s word, and the names a set of `countdown_formats` may have:
    /// 1 to `maxCountdownFormatName` of A-Z a-z 0-9 _ -.
    public static let countdownFormatPrefix = "format="
    public static let maxCountdownFormatName = 32

    public static func isCountdownFormatName(_ name: String) -> Bool {
        RoomLimits.isName(name, maxBytes: maxCountdownFormatName)
    }

    /// `live show calendar:UID`: a calendar event's ID, as `watch events` gives it.
    public static let calendarEventPrefix = "calendar:"
    /// An event's ID holds its UID's first Characters, this many...
    public static let calendarEventUIDCharacters = 48
    /// ...so the longest ID `live show` takes is the prefix and a UID as the service keeps it
    /// (`calendarEventUIDCharacters` of at most `TextLimits.uidBytes`).
    public static let maxCalendarEventIDBytes = calendarEventPrefix.utf8.count + TextLimits.uidBytes

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
