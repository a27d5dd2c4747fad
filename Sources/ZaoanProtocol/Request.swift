import ZaoanText

/// A parsed request line. See docs/protocol.md for each command, and `RequestKind` for the
/// table that says what each is (`kind`) and how to add one.
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
    /// `live skip ID DATE`: a recurring room does not take place on DATE (YYYY-MM-DD).
    case liveSkip(id: String, date: String)
    case liveList
    case liveShow(id: String)
    /// `schedule [HOURS] [calendar=NAME]`: rooms and calendar events live now or starting
    /// within HOURS; with a calendar, that calendar's events alone.
    case schedule(hours: Int, calendar: String?)
    case status
    indirect case watch(Request)
    /// `url countdown`: the link (a calendar event's URL) of what the inner request shows, for
    /// a bar click; an empty line when it has none.
    indirect case url(Request)
    /// `watch events`: one JSON line per phase change of a room or calendar event.
    case watchEvents
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
        case .greeting: return .greeting
        case .time: return .time
        case .chineseTime: return .chineseTime
        case .ago: return .ago
        case .duration: return .duration
        case .ping: return .ping
        case .version: return .version
        case .help: return .help
        case .session: return .session
        case .quit: return .quit
        case .reload: return .reload
        case .stats: return .stats
        case .countdown: return .countdown
        case .ticker: return .ticker
        case .liveAdd: return .liveAdd
        case .liveRemove: return .liveRemove
        case .liveSkip: return .liveSkip
        case .liveList: return .liveList
        case .liveShow: return .liveShow
        case .schedule: return .schedule
        case .watchEvents: return .watchEvents
        case .url: return .url
        case .status: return .status
        case .watch: return .watch
        case .formatted: return .format
        case .zoned(_, let inner): return inner.kind
        case .blocks: return .blocks
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

    /// The command as the user would type it, for logs and errors. `--format` is an option:
    /// the request after it is the one named.
    /// The room a `live add` or `live skip` makes or alters (one that may need expanding).
    public var changedRoomID: String? {
        switch self {
        case .liveAdd(let draft): return draft.id
        case .liveSkip(let id, _): return id
        default: return nil
        }
    }

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
