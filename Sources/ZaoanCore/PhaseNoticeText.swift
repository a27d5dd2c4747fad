/// The sentence `watch events` sends as `text` for a phase change, in the service's
/// language, so a desktop notifier shows it as the body without knowing any language:
///
/// | phase | en | zh (room) | zh (calendar event) |
/// |---|---|---|---|
/// | soon | `soon — starts at 05:42:30` | `将于 05:42:30 开播` | `将于 05:42:30 开始` |
/// | live | `live now — since 05:42:30` (an event: `in progress — since`) | `正在直播 · 05:42:30 开播` | `正在进行 · 05:42:30 开始` |
/// | ended | `ended at 06:42:30` | `已于 06:42:30 结束` | `已于 06:42:30 结束` |
///
/// zh-Hant says the zh sentences in Traditional characters (`將於 05:42:30 開播`); ja, ko,
/// de, fr and es likewise tell a room (broadcast) from a calendar event:
///
/// | phase | ja (room / event) | ko (room / event) | de | fr | es |
/// |---|---|---|---|---|---|
/// | soon | `05:42:30 に配信開始` / `05:42:30 に開始` | `05:42:30에 방송 시작` / `05:42:30에 시작` | `bald — beginnt um 05:42:30` | `bientôt — commence à 05:42:30` | `pronto — empieza a las 05:42:30` |
/// | live | `配信中 · 05:42:30 開始` / `進行中 · 05:42:30 開始` | `방송 중 · 05:42:30 시작` / `진행 중 · 05:42:30 시작` | `jetzt live — seit 05:42:30` / `läuft — seit 05:42:30` | `en direct — depuis 05:42:30` / `en cours — depuis 05:42:30` | `en directo — desde las 05:42:30` / `en curso — desde las 05:42:30` |
/// | ended | `06:42:30 に終了` | `06:42:30에 종료` | `beendet um 06:42:30` | `terminé à 06:42:30` | `terminó a las 06:42:30` |
///
/// An alarm says what it reminds of by when it fires: before the start as soon does, while
/// the event runs its end, after it that it ended. The word is the one each desktop's
/// calendar puts on its reminder notifications (GNOME Calendar's and KDE's "Reminder",
/// 提醒/提醒, リマインダー, 알림, Erinnerung, rappel, recordatorio):
///
/// | stage | en | zh | ja | de |
/// |---|---|---|---|---|
/// | before the start | `reminder — starts at 05:42:30` | `提醒 · 05:42:30 开始` | `リマインダー · 05:42:30 に開始` | `Erinnerung — beginnt um 05:42:30` |
/// | during | `reminder — ends at 06:42:30` | `提醒 · 06:42:30 结束` | `リマインダー · 06:42:30 に終了` | `Erinnerung — endet um 06:42:30` |
///
/// `before_end`'s `ending` says the end: `ending — ends at 06:42:30`, `即将结束 · 06:42:30 结束`
/// (zh-Hant 即將結束), `まもなく終了 · 06:42:30 に終了`, `곧 종료 · 06:42:30에 종료`,
/// `endet bald — endet um 06:42:30`, `bientôt fini — se termine à 06:42:30`,
/// `termina pronto — termina a las 06:42:30`.
///
/// `start` and `end` come already written as wall-clock times (see
/// `Responder.noticeTime`); soon and live name the start, ended the end.
public enum PhaseNoticeText {
    /// When an alarm fires, against its event.
    public enum Stage: Sendable {
        case beforeStart, during, afterEnd
    }

    public static func render(_ phase: PhaseTransition.Phase, start: String, end: String,
                              calendarEvent: Bool, language: Language, stage: Stage = .beforeStart) -> String {
        let event = calendarEvent
        if phase == .alarm { return reminder(stage, start: start, end: end, calendarEvent: event, language: language) }
        switch (language, phase) {
        case (.en, .soon): return "soon — starts at \(start)"
        case (.en, .live): return (event ? "in progress" : "live now") + " — since \(start)"
        case (.en, .ended): return "ended at \(end)"
        case (.zh, .soon): return "将于 \(start) " + (event ? "开始" : "开播")
        case (.zh, .live): return (event ? "正在进行 · \(start) 开始" : "正在直播 · \(start) 开播")
        case (.zh, .ended): return "已于 \(end) 结束"
        case (.zhHant, .soon): return "將於 \(start) " + (event ? "開始" : "開播")
        case (.zhHant, .live): return (event ? "正在進行 · \(start) 開始" : "正在直播 · \(start) 開播")
        case (.zhHant, .ended): return "已於 \(end) 結束"
        case (.ja, .soon): return "\(start) に" + (event ? "開始" : "配信開始")
        case (.ja, .live): return (event ? "進行中" : "配信中") + " · \(start) 開始"
        case (.ja, .ended): return "\(end) に終了"
        case (.ko, .soon): return "\(start)에 " + (event ? "시작" : "방송 시작")
        case (.ko, .live): return (event ? "진행 중" : "방송 중") + " · \(start) 시작"
        case (.ko, .ended): return "\(end)에 종료"
        case (.de, .soon): return "bald — beginnt um \(start)"
        case (.de, .live): return (event ? "läuft" : "jetzt live") + " — seit \(start)"
        case (.de, .ended): return "beendet um \(end)"
        case (.fr, .soon): return "bientôt — commence à \(start)"
        case (.fr, .live): return (event ? "en cours" : "en direct") + " — depuis \(start)"
        case (.fr, .ended): return "terminé à \(end)"
        case (.es, .soon): return "pronto — empieza a las \(start)"
        case (.es, .live): return (event ? "en curso" : "en directo") + " — desde las \(start)"
        case (.es, .ended): return "terminó a las \(end)"
        case (_, .alarm): return reminder(stage, start: start, end: end, calendarEvent: event, language: language)
        case (_, .ending): return ending(end: end, language: language)
        }
    }

    /// `before_end`'s notice: when it ends, as the reminder during an event says it.
    private static func ending(end: String, language: Language) -> String {
        switch language {
        case .en: return "ending — ends at \(end)"
        case .zh: return "即将结束 · \(end) 结束"
        case .zhHant: return "即將結束 · \(end) 結束"
        case .ja: return "まもなく終了 · \(end) に終了"
        case .ko: return "곧 종료 · \(end)에 종료"
        case .de: return "endet bald — endet um \(end)"
        case .fr: return "bientôt fini — se termine à \(end)"
        case .es: return "termina pronto — termina a las \(end)"
        }
    }

    private static func reminder(_ stage: Stage, start: String, end: String, calendarEvent event: Bool, language: Language) -> String {
        switch (language, stage) {
        case (.en, .beforeStart): return "reminder — starts at \(start)"
        case (.en, .during): return "reminder — ends at \(end)"
        case (.en, .afterEnd): return "reminder — ended at \(end)"
        case (.zh, .beforeStart): return "提醒 · \(start) " + (event ? "开始" : "开播")
        case (.zh, .during): return "提醒 · \(end) 结束"
        case (.zh, .afterEnd): return "提醒 · 已于 \(end) 结束"
        case (.zhHant, .beforeStart): return "提醒 · \(start) " + (event ? "開始" : "開播")
        case (.zhHant, .during): return "提醒 · \(end) 結束"
        case (.zhHant, .afterEnd): return "提醒 · 已於 \(end) 結束"
        case (.ja, .beforeStart): return "リマインダー · \(start) に" + (event ? "開始" : "配信開始")
        case (.ja, .during): return "リマインダー · \(end) に終了"
        case (.ja, .afterEnd): return "リマインダー · \(end) に終了しました"
        case (.ko, .beforeStart): return "알림 · \(start)에 " + (event ? "시작" : "방송 시작")
        case (.ko, .during): return "알림 · \(end)에 종료"
        case (.ko, .afterEnd): return "알림 · \(end)에 종료됨"
        case (.de, .beforeStart): return "Erinnerung — beginnt um \(start)"
        case (.de, .during): return "Erinnerung — endet um \(end)"
        case (.de, .afterEnd): return "Erinnerung — beendet um \(end)"
        case (.fr, .beforeStart): return "rappel — commence à \(start)"
        case (.fr, .during): return "rappel — se termine à \(end)"
        case (.fr, .afterEnd): return "rappel — terminé à \(end)"
        case (.es, .beforeStart): return "recordatorio — empieza a las \(start)"
        case (.es, .during): return "recordatorio — termina a las \(end)"
        case (.es, .afterEnd): return "recordatorio — terminó a las \(end)"
        }
    }

    /// The `text` of a "more" line (`EventFiring`): how many more moments of `phase` the
    /// firing left out, with the request that lists what is coming. `count` is at least 2, so
    /// every language's plural (CLDR's "other") is the one written; digits without grouping,
    /// as the counts in GNOME's and KDE's notification texts are written.
    ///
    /// | phase | en | zh | ja | de |
    /// |---|---|---|---|---|
    /// | soon | `and 2992 more start soon — zaoan ask schedule` | `另有 2992 项即将开始 — zaoan ask schedule` | `ほか 2992 件がまもなく開始 — zaoan ask schedule` | `und 2992 weitere beginnen bald — zaoan ask schedule` |
    public static func more(_ count: Int, _ phase: PhaseTransition.Phase, language: Language) -> String {
        let hint = " — zaoan ask schedule"
        switch (language, phase) {
        case (.en, .soon): return "and \(count) more start soon" + hint
        case (.en, .live): return "and \(count) more are live now" + hint
        case (.en, .ended): return "and \(count) more ended"
        case (.zh, .soon): return "另有 \(count) 项即将开始" + hint
        case (.zh, .live): return "另有 \(count) 项正在进行" + hint
        case (.zh, .ended): return "另有 \(count) 项已结束"
        case (.zhHant, .soon): return "另有 \(count) 項即將開始" + hint
        case (.zhHant, .live): return "另有 \(count) 項正在進行" + hint
        case (.zhHant, .ended): return "另有 \(count) 項已結束"
        case (.ja, .soon): return "ほか \(count) 件がまもなく開始" + hint
        case (.ja, .live): return "ほか \(count) 件が進行中" + hint
        case (.ja, .ended): return "ほか \(count) 件が終了"
        case (.ko, .soon): return "외 \(count)건 곧 시작" + hint
        case (.ko, .live): return "외 \(count)건 진행 중" + hint
        case (.ko, .ended): return "외 \(count)건 종료"
        case (.de, .soon): return "und \(count) weitere beginnen bald" + hint
        case (.de, .live): return "und \(count) weitere laufen jetzt" + hint
        case (.de, .ended): return "und \(count) weitere sind beendet"
        case (.fr, .soon): return "et \(count) autres commencent bientôt" + hint
        case (.fr, .live): return "et \(count) autres sont en cours" + hint
        case (.fr, .ended): return "et \(count) autres sont terminés"
        case (.es, .soon): return "y \(count) más empiezan pronto" + hint
        case (.es, .live): return "y \(count) más están en curso" + hint
        case (.es, .ended): return "y \(count) más han terminado"
        case (.en, .alarm): return "and \(count) more reminders — zaoan ask remind list"
        case (.zh, .alarm): return "另有 \(count) 条提醒 — zaoan ask remind list"
        case (.zhHant, .alarm): return "另有 \(count) 則提醒 — zaoan ask remind list"
        case (.ja, .alarm): return "ほか \(count) 件のリマインダー — zaoan ask remind list"
        case (.ko, .alarm): return "외 알림 \(count)건 — zaoan ask remind list"
        case (.de, .alarm): return "und \(count) weitere Erinnerungen — zaoan ask remind list"
        case (.fr, .alarm): return "et \(count) autres rappels — zaoan ask remind list"
        case (.es, .alarm): return "y \(count) recordatorios más — zaoan ask remind list"
        case (.en, .ending): return "and \(count) more end soon" + hint
        case (.zh, .ending): return "另有 \(count) 项即将结束" + hint
        case (.zhHant, .ending): return "另有 \(count) 項即將結束" + hint
        case (.ja, .ending): return "ほか \(count) 件がまもなく終了" + hint
        case (.ko, .ending): return "외 \(count)건 곧 종료" + hint
        case (.de, .ending): return "und \(count) weitere enden bald" + hint
        case (.fr, .ending): return "et \(count) autres se terminent bientôt" + hint
        case (.es, .ending): return "y \(count) más terminan pronto" + hint
        }
    }
}
