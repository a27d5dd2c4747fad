import ZaoanRecurrence

/// A scheduled live broadcast: what the radio app's "现场直播" card shows. Saved in
/// `state.json` by `StateFile`, which names the saved fields (`StateFile.Key`).
public struct LiveRoom: Equatable, Sendable {
    public var id: String
    public var title: String
    public var start: Instant
    public var end: Instant?
    public var description: String?
    public var viewers: Int?
    /// The start as written on the wall clock (local seconds), kept only when the clocks
    /// skipped or repeated it, so `live show` can say which instant was chosen.
    public var startWallClock: Int?
    /// How the room recurs (`repeat=`), as ZaoanCalendar's `RecurrenceRule` writes it
    /// (`FREQ=DAILY`): `start` is then the first occurrence, `end` gives each its length,
    /// and the occurrences keep the start's wall-clock time in the configured zone.
    public var repeatRule: String?
    /// Days (`2026-12-24`, local) a recurring room skips (`live skip`), sorted.
    public var skippedDays: [String]?
    /// Its alarms: a room's own (`alarm=`, saved), or a calendar event's VALARMs (or its
    /// calendar's default alarms), each fired for every occurrence (`Responder+Reminders`).
    public var alarms: [Alarm] = []
    /// Where a calendar event comes from (its file); nil for a room. Not saved.
    public var source: String?
    /// A calendar event's URL (checked by ZaoanCalendar against `LinkText`). Not saved.
    public var url: String?
    /// A calendar event's link to join its meeting and the service it leads to (`MeetingLink`,
    /// found and checked by ZaoanCalendar). Not saved.
    public var join: MeetingLink?
    /// A calendar event's LOCATION, one line, made safe and bounded by ZaoanCalendar. Not saved.
    public var location: String?
    /// The name of a calendar event's calendar (the config's, its `displayname` or
    /// `X-WR-CALNAME`, else its folder's or file's), safe and bounded. Not saved.
    public var calendar: String?
    /// A calendar event's calendar's `color` from the config. Not saved.
    public var color: BarColor?

    public init(id: String, title: String, start: Instant, end: Instant? = nil, description: String? = nil, viewers: Int? = nil,
                startWallClock: Int? = nil, repeatRule: String? = nil) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.description = description
        self.viewers = viewers
        self.startWallClock = startWallClock
        self.repeatRule = repeatRule
    }

    public static let maxIDLength = RoomLimits.maxIDLength
    public static let maxTitleBytes = RoomLimits.maxTitleBytes
    public static let maxDescriptionBytes = RoomLimits.maxDescriptionBytes

    public static func isValidID(_ id: String) -> Bool { RoomLimits.isValidID(id) }
}

/// Where a room stands at an instant.
public enum RoomPhase: Equatable, Sendable {
    /// Starts in this many seconds.
    case upcoming(seconds: Int)
    /// Started this many seconds ago and has not ended.
    case live(seconds: Int)
    case ended

    /// - Parameter defaultDuration: how long a room without an end is live, in seconds.
    public init(room: LiveRoom, now: Instant, defaultDuration: Int) {
        let end = room.end ?? room.start.adding(seconds: Double(defaultDuration))
        if now < room.start {
            // Round up: 0.4 s before the start still shows 00:00:01, never a premature 00:00:00.
            self = .upcoming(seconds: Int(clampingSeconds: room.start.seconds(since: now).rounded(.up)))
        } else if now < end {
            self = .live(seconds: Int(clampingSeconds: now.seconds(since: room.start)))
        } else {
            self = .ended
        }
    }

    public var isOver: Bool { self == .ended }
}
