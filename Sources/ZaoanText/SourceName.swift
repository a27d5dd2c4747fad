/// What `schedule`'s source column (and `watch events`' `source`) calls zaoan's own
/// sources: the rooms and the Chinese calendar's festivals. A calendar event's source is its
/// calendar's name, so no calendar may be shown under one of these (`CalendarNameRule.reserved`).
public enum SourceName {
    /// Rooms (`live add`), recurring ones too.
    public static let rooms = "live"
    /// The festivals `"festivals": true` adds.
    public static let festivals = "festival"
    /// Every name zaoan's own sources have; a calendar that reads as one is shown under
    /// another (`CalendarNameRule.unreserved`).
    public static let reserved = [rooms, festivals]
}
