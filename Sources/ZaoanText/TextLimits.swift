/// Limits on text a user or a calendar file hands zaoan, written once for the protocol's
/// rooms (`RoomLimits`) and the recurrence engine (`CalendarLimits`), which must agree: a
/// recurring room's rule is read by the same engine as a calendar file's, and a room's title
/// and an event's are shown in the same bar block. docs/limits.md lists them.
public enum TextLimits {
    /// A title (a room's, or a calendar event's summary or location), in bytes of UTF-8.
    public static let titleBytes = 256
    /// A recurrence rule as a user types it (`repeat=`, an RRULE value).
    public static let ruleBytes = 256
    /// A URL (a calendar event's, kept raw; one a bar click opens).
    public static let urlBytes = 2048
    /// A calendar event's UID, as the service keeps it and `live show calendar:UID` takes it.
    public static let uidBytes = 512
}

/// How far ahead calendar events are expanded: the default of `calendar_window_hours`
/// (ZaoanProtocol's `ConfigKey`), which the recurrence engine (`CalendarLimits`) and the
/// settings start from too, and the most any window or `schedule HOURS` may cover. Here
/// because both sides must agree and neither imports the other.
public enum ScheduleDefaults {
    public static let calendarWindowHours = 48
    /// The longest `schedule HOURS` and `calendar_window_hours`: 31 days.
    public static let maxHours = 744
}
