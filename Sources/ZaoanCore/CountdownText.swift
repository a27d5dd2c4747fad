/// Renders a room's phase: `距开播 01:02:03` / `starts in 01:02:03`, with days as
/// `2天 03:04:05` / `2d 03:04:05`; `直播中 00:12:03` / `live 00:12:03`; `已结束` / `ended`.
/// The words of every language are in `CountdownText.Words`.
public enum CountdownText {
    /// The words a countdown is made of in one language.
    struct Words {
        /// Before the clock while the room has not started, and while it is live.
        let upcoming: String
        let live: String
        let ended: String
        /// After a count of days: `天`, `d` (a space follows before a clock).
        let day: String

        static func of(_ language: Language) -> Words {
            switch language {
            case .zh: return Words(upcoming: "距开播 ", live: "直播中 ", ended: "已结束", day: "天")
            case .en: return Words(upcoming: "starts in ", live: "live ", ended: "ended", day: "d")
            case .zhHant: return Words(upcoming: "距開播 ", live: "直播中 ", ended: "已結束", day: "天")
            case .ja: return Words(upcoming: "配信開始まで ", live: "配信中 ", ended: "終了", day: "日")
            case .ko: return Words(upcoming: "방송 시작까지 ", live: "방송 중 ", ended: "종료", day: "일")
            case .de: return Words(upcoming: "beginnt in ", live: "live ", ended: "beendet", day: "T")
            case .fr: return Words(upcoming: "commence dans ", live: "en direct ", ended: "terminé", day: "j")
            case .es: return Words(upcoming: "empieza en ", live: "en directo ", ended: "terminado", day: "d")
            }
        }
    }

    public static func render(_ phase: RoomPhase, language: Language) -> String {
        let words = Words.of(language)
        switch phase {
        case .upcoming(let seconds):
            return words.upcoming + clock(seconds, language: language)
        case .live(let seconds):
            return words.live + clock(seconds, language: language)
        case .ended:
            return words.ended
        }
    }

    /// The phase for a narrow bar: `-00:05:00` before the start, `+00:12:03` live, `已结束` /
    /// `ended`; days as `-2天` / `-2d`, so it stays short.
    public static func short(_ phase: RoomPhase, language: Language) -> String {
        let words = Words.of(language)
        switch phase {
        case .upcoming(let seconds):
            return seconds >= 86_400 ? "-\(seconds / 86_400)" + words.day : "-" + clock(seconds, language: language)
        case .live(let seconds):
            return seconds >= 86_400 ? "+\(seconds / 86_400)" + words.day : "+" + clock(seconds, language: language)
        case .ended:
            return words.ended
        }
    }

    /// `01:02:03`, or with whole days in front: `2天 03:04:05` / `2d 03:04:05`.
    public static func clock(_ seconds: Int, language: Language) -> String {
        let total = max(0, seconds)
        let days = total / 86_400
        let rest = total % 86_400
        let hms = "\(DurationText.twoDigits(rest / 3600)):\(DurationText.twoDigits(rest % 3600 / 60)):\(DurationText.twoDigits(rest % 60))"
        guard days > 0 else { return hms }
        return "\(days)" + Words.of(language).day + " " + hms
    }

    /// The title and the countdown, as the bar shows them: `夜读 · 距开播 01:02:03`.
    public static func titled(_ room: LiveRoom, _ phase: RoomPhase, language: Language) -> String {
        room.title.isEmpty ? render(phase, language: language) : room.title + " · " + render(phase, language: language)
    }
}
