/// Renders a phase: a room's (a broadcast) `距开播 01:02:03` / `starts in 01:02:03`,
/// `直播中 00:12:03` / `live 00:12:03`, `已结束` / `ended`; a calendar event's or festival's
/// `距开始 01:02:03`, `进行中 00:12:03` / `in progress 00:12:03`; days as `2天 03:04:05` /
/// `2d 03:04:05` (the day unit is CLDR's, `CLDRWords.countdownDay`: `2 T` in German). The words of every
/// language are in `CountdownText.Words`; docs/languages.md says where each comes from.
public enum CountdownText {
    /// What counts down: a room is a broadcast; a calendar event or festival is not, and
    /// says the neutral words a calendar says.
    public enum Kind: Sendable {
        case room, event

        /// A calendar event's or festival's (it has a `source`) or a room's.
        public init(_ room: LiveRoom) { self = room.source == nil ? .room : .event }
    }

    /// The words a countdown is made of in one language.
    struct Words {
        /// Before the clock while it has not started, and while it runs.
        let upcoming: String
        let live: String
        let ended: String

        static func of(_ language: Language, _ kind: Kind) -> Words {
            switch (language, kind) {
            case (.zh, .room): return Words(upcoming: "距开播 ", live: "直播中 ", ended: "已结束")
            case (.zh, .event): return Words(upcoming: "距开始 ", live: "进行中 ", ended: "已结束")
            case (.en, .room): return Words(upcoming: "starts in ", live: "live ", ended: "ended")
            case (.en, .event): return Words(upcoming: "starts in ", live: "in progress ", ended: "ended")
            case (.zhHant, .room): return Words(upcoming: "距開播 ", live: "直播中 ", ended: "已結束")
            case (.zhHant, .event): return Words(upcoming: "距開始 ", live: "進行中 ", ended: "已結束")
            case (.ja, .room): return Words(upcoming: "配信開始まで ", live: "配信中 ", ended: "終了")
            case (.ja, .event): return Words(upcoming: "開始まで ", live: "進行中 ", ended: "終了")
            case (.ko, .room): return Words(upcoming: "방송 시작까지 ", live: "방송 중 ", ended: "종료")
            case (.ko, .event): return Words(upcoming: "시작까지 ", live: "진행 중 ", ended: "종료")
            case (.de, .room): return Words(upcoming: "beginnt in ", live: "live ", ended: "beendet")
            case (.de, .event): return Words(upcoming: "beginnt in ", live: "läuft ", ended: "beendet")
            case (.fr, .room): return Words(upcoming: "commence dans ", live: "en direct ", ended: "terminé")
            case (.fr, .event): return Words(upcoming: "commence dans ", live: "en cours ", ended: "terminé")
            case (.es, .room): return Words(upcoming: "empieza en ", live: "en directo ", ended: "terminado")
            case (.es, .event): return Words(upcoming: "empieza en ", live: "en curso ", ended: "terminado")
            }
        }
    }

    /// `room`'s phase in the words of its kind.
    public static func render(_ phase: RoomPhase, of room: LiveRoom, language: Language) -> String {
        render(phase, kind: Kind(room), language: language)
    }

    public static func render(_ phase: RoomPhase, kind: Kind = .room, language: Language) -> String {
        let words = Words.of(language, kind)
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
    public static func short(_ phase: RoomPhase, kind: Kind = .room, language: Language) -> String {
        switch phase {
        case .upcoming(let seconds):
            return seconds >= 86_400 ? "-" + days(seconds / 86_400, language: language) : "-" + clock(seconds, language: language)
        case .live(let seconds):
            return seconds >= 86_400 ? "+" + days(seconds / 86_400, language: language) : "+" + clock(seconds, language: language)
        case .ended:
            return Words.of(language, kind).ended
        }
    }

    /// `01:02:03`, or with whole days in front: `2天 03:04:05` / `2d 03:04:05`.
    public static func clock(_ seconds: Int, language: Language) -> String {
        let total = max(0, seconds)
        let days = total / 86_400
        let rest = total % 86_400
        let hms = "\(DurationText.twoDigits(rest / 3600)):\(DurationText.twoDigits(rest % 3600 / 60)):\(DurationText.twoDigits(rest % 60))"
        guard days > 0 else { return hms }
        return Self.days(days, language: language) + " " + hms
    }

    /// A count of days as CLDR's duration unit writes it: `2天`, `2d`, `2 T`, `2j`.
    static func days(_ count: Int, language: Language) -> String {
        CLDRWords.countdownDay(language).replacing("{0}", with: "\(count)")
    }

    /// The title and the countdown, as the bar shows them: `夜读 · 距开播 01:02:03`.
    public static func titled(_ room: LiveRoom, _ phase: RoomPhase, language: Language) -> String {
        let text = render(phase, of: room, language: language)
        return room.title.isEmpty ? text : room.title + " · " + text
    }
}
