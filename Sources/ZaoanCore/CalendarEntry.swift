import ZaoanRecurrence

/// One entry of the config's `calendars`: a path (`"/home/me/holidays.ics"`), or a path with
/// the name it is shown and filtered by (`{"path": "...", "name": "Work"}`), which stands
/// over the name the calendar gives itself (`displayname`, `X-WR-CALNAME`), and a colour.
public struct CalendarEntry: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var path: String
    /// One line, no control or format character, at most `CalendarNameRule.maxBytes`
    /// (`Settings` checks it).
    public var name: String?
    /// `"alarms": ["-10m"]`: alarms for its events that have no VALARM of their own.
    public var alarms: [Alarm]
    /// `"color": "#3366cc"`: its events' colour in bars, the agenda and the month.
    public var color: BarColor?

    public init(path: String, name: String? = nil, alarms: [Alarm] = [], color: BarColor? = nil) {
        self.path = path
        self.name = name
        self.alarms = alarms
        self.color = color
    }

    public init(stringLiteral path: String) {
        self.init(path: path)
    }

    public var description: String { name.map { "\(path) (\($0))" } ?? path }
}
