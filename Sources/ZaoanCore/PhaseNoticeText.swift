/// The sentence `watch events` sends as `text` for a phase change, in the service's
/// language, so a desktop notifier shows it as the body without knowing any language:
///
/// | phase | en | zh (room) | zh (calendar event) |
/// |---|---|---|---|
/// | soon | `soon — starts at 05:42:30` | `将于 05:42:30 开播` | `将于 05:42:30 开始` |
/// | live | `live now — since 05:42:30` | `正在直播 · 05:42:30 开播` | `正在进行 · 05:42:30 开始` |
/// | ended | `ended at 06:42:30` | `已于 06:42:30 结束` | `已于 06:42:30 结束` |
///
/// `start` and `end` come already written as wall-clock times (see
/// `Responder.noticeTime`); soon and live name the start, ended the end.
public enum PhaseNoticeText {
    public static func render(_ phase: PhaseTransition.Phase, start: String, end: String,
                              calendarEvent: Bool, language: Language) -> String {
        switch (language, phase) {
        case (.en, .soon): return "soon — starts at \(start)"
        case (.en, .live): return "live now — since \(start)"
        case (.en, .ended): return "ended at \(end)"
        case (.zh, .soon): return "将于 \(start) " + (calendarEvent ? "开始" : "开播")
        case (.zh, .live): return (calendarEvent ? "正在进行 · \(start) 开始" : "正在直播 · \(start) 开播")
        case (.zh, .ended): return "已于 \(end) 结束"
        }
    }
}
