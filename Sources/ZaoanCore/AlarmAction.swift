import ZaoanProtocol

/// What a person can do with an alarm's notice: the buttons the notifier shows (`zaoan-notify`
/// reads their words from the alarm's `watch events` line, so they are in the service's
/// language) and what each sends back (`remind snooze ID 5m`, `remind dismiss ID`, `join`).
///
/// The verbs are those the desktop calendars of each language put on a reminder (Outlook's
/// reminder window: Snooze/Dismiss, 再通知/閉じる, 다시 알림/해제, Erneut erinnern/Schließen,
/// Répéter/Ignorer, Posponer/Descartar; Teams' Join, 加入, 参加, 참가, Teilnehmen, Rejoindre,
/// Unirse), the five minutes CLDR 46's short unit pattern (`5 min`, `5 分钟`, `5 分鐘`,
/// `5 分`, `5분`, `5 Min.`).
public enum AlarmAction: String, CaseIterable, Sendable {
    case join, snooze, dismiss

    /// How long the Snooze button snoozes: five minutes, as calendar reminders offer first.
    public static let snoozeSeconds = 300

    public func label(_ language: Language) -> String {
        switch (self, language) {
        case (.join, .en): return "Join"
        case (.join, .zh), (.join, .zhHant): return "加入"
        case (.join, .ja): return "参加"
        case (.join, .ko): return "참가"
        case (.join, .de): return "Teilnehmen"
        case (.join, .fr): return "Rejoindre"
        case (.join, .es): return "Unirse"
        case (.snooze, .en): return "Snooze 5 min"
        case (.snooze, .zh): return "5 分钟后提醒"
        case (.snooze, .zhHant): return "5 分鐘後提醒"
        case (.snooze, .ja): return "5 分後に再通知"
        case (.snooze, .ko): return "5분 후 다시 알림"
        case (.snooze, .de): return "In 5 Min. erinnern"
        case (.snooze, .fr): return "Répéter dans 5 min"
        case (.snooze, .es): return "Posponer 5 min"
        case (.dismiss, .en): return "Dismiss"
        case (.dismiss, .zh): return "关闭"
        case (.dismiss, .zhHant): return "關閉"
        case (.dismiss, .ja): return "閉じる"
        case (.dismiss, .ko): return "해제"
        case (.dismiss, .de): return "Schließen"
        case (.dismiss, .fr): return "Ignorer"
        case (.dismiss, .es): return "Descartar"
        }
    }

    /// The actions an alarm's notice offers: join only when there is a link to join.
    public static func offered(hasJoinLink: Bool) -> [AlarmAction] {
        hasJoinLink ? allCases : [.snooze, .dismiss]
    }
}
