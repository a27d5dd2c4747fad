/// Renders a room's phase: `距开播 01:02:03` / `starts in 01:02:03`, with days as
/// `2天 03:04:05` / `2d 03:04:05`; `直播中 00:12:03` / `live 00:12:03`; `已结束` / `ended`.
public enum CountdownText {
    public static func render(_ phase: RoomPhase, language: Language) -> String {
        switch phase {
        case .upcoming(let seconds):
            return (language == .zh ? "距开播 " : "starts in ") + clock(seconds, language: language)
        case .live(let seconds):
            return (language == .zh ? "直播中 " : "live ") + clock(seconds, language: language)
        case .ended:
            return language == .zh ? "已结束" : "ended"
        }
    }

    /// The phase for a narrow bar: `-00:05:00` before the start, `+00:12:03` live, `已结束` /
    /// `ended`; days as `-2天` / `-2d`, so it stays short.
    public static func short(_ phase: RoomPhase, language: Language) -> String {
        switch phase {
        case .upcoming(let seconds):
            return seconds >= 86_400 ? "-\(seconds / 86_400)" + (language == .zh ? "天" : "d") : "-" + clock(seconds, language: language)
        case .live(let seconds):
            return seconds >= 86_400 ? "+\(seconds / 86_400)" + (language == .zh ? "天" : "d") : "+" + clock(seconds, language: language)
        case .ended:
            return language == .zh ? "已结束" : "ended"
        }
    }

    /// `01:02:03`, or with whole days in front: `2天 03:04:05` / `2d 03:04:05`.
    public static func clock(_ seconds: Int, language: Language) -> String {
        let total = max(0, seconds)
        let days = total / 86_400
        let rest = total % 86_400
        let hms = "\(DurationText.twoDigits(rest / 3600)):\(DurationText.twoDigits(rest % 3600 / 60)):\(DurationText.twoDigits(rest % 60))"
        guard days > 0 else { return hms }
        return "\(days)" + (language == .zh ? "天 " : "d ") + hms
    }

    /// The title and the countdown, as the bar shows them: `夜读 · 距开播 01:02:03`.
    public static func titled(_ room: LiveRoom, _ phase: RoomPhase, language: Language) -> String {
        room.title.isEmpty ? render(phase, language: language) : room.title + " · " + render(phase, language: language)
    }
}
