import ZaoanProtocol

/// `privacy on` (sharing a screen): what every answer and stream shows of a room or event.
/// The title becomes the language's word for a busy block of time; the place, the
/// description, the link and the meeting link (with its provider) are left out; the ID
/// (which `live rm` and `remind` take), the times, the calendar's name and the viewers stay.
/// Applied where rooms are read for showing (`Responder.rotation`, `live list`, a room by
/// ID), so a new answer cannot forget it.
enum PrivacyMask {
    /// The word calendars show for an event whose details are hidden (free/busy): Google
    /// Calendar's and Outlook's "Busy" as each language's edition writes it.
    static func word(_ language: Language) -> String {
        switch language {
        case .zh, .zhHant: return "忙碌"
        case .en: return "Busy"
        case .ja: return "予定あり"
        case .ko: return "바쁨"
        case .de: return "Beschäftigt"
        case .fr: return "Occupé"
        case .es: return "Ocupado"
        }
    }

    static func masked(_ room: LiveRoom, language: Language) -> LiveRoom {
        var shown = room
        shown.title = word(language)
        shown.description = nil
        shown.location = nil
        shown.url = nil
        shown.join = nil
        return shown
    }
}
