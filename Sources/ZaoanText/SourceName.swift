/// What `schedule`'s source column (and `watch events`' `source`) calls zaoan's own
/// sources: the rooms, the Chinese calendar's festivals and China's holidays. A calendar event's source is its
/// calendar's name, so no calendar may be shown under one of these (`CalendarNameRule.reserved`).
public enum SourceName {
    /// Rooms (`live add`), recurring ones too.
    public static let rooms = "live"
    /// The festivals `"festivals": true` adds.
    public static let festivals = "festival"
    /// China's public holidays, with `"workdays": "cn"`, in `schedule`.
    public static let holidays = "holiday-cn"
    /// Every name zaoan's own sources have; a calendar that reads as one is shown under
    /// another (`CalendarNameRule.unreserved`).
    public static let reserved = [rooms, festivals, holidays]

    /// Whose source a reserved name is, for messages: `the festivals'`.
    public static func whose(_ reserved: String) -> String {
        switch reserved {
        case festivals: return "the festivals'"
        case holidays: return "China's holidays'"
        default: return "the rooms'"
        }
    }
}
