/// The words of `RelativeTimeText` in each language: a count and a unit, before or after now.
///
/// | language | past | future | now |
/// |---|---|---|---|
/// | zh | `5分钟前` | `5分钟后` | `刚刚` |
/// | zh-Hant | `5分鐘前` | `5分鐘後` | `剛剛` |
/// | en | `5 minutes ago` | `in 5 minutes` | `just now` |
/// | ja | `5分前` | `あと5分` | `たった今` |
/// | ko | `5분 전` | `5분 후` | `방금` |
/// | de | `vor 5 Min.` | `in 5 Min.` | `gerade eben` |
/// | fr | `il y a 5 min` | `dans 5 min` | `à l’instant` |
/// | es | `hace 5 min` | `en 5 min` | `ahora mismo` |
///
/// Seconds, minutes and hours are abbreviated in de, fr and es, as their short relative
/// forms are; days, weeks, months and years are words, singular for 1 (German in the
/// dative both ways: `vor 2 Tagen`, `in 2 Tagen`).
enum RelativeTimeWords {
    typealias Unit = RelativeTimeText.Unit

    static func now(_ language: Language) -> String {
        switch language {
        case .zh: return "刚刚"
        case .zhHant: return "剛剛"
        case .en: return "just now"
        case .ja: return "たった今"
        case .ko: return "방금"
        case .de: return "gerade eben"
        case .fr: return "à l’instant"
        case .es: return "ahora mismo"
        }
    }

    static func phrase(_ count: UInt, _ unit: Unit, future: Bool, language: Language) -> String {
        let one = count == 1
        switch language {
        case .zh:
            return "\(count)\(chinese(unit))\(future ? "后" : "前")"
        case .zhHant:
            return "\(count)\(traditionalChinese(unit))\(future ? "後" : "前")"
        case .en:
            let phrase = "\(count) \(english(unit))\(one ? "" : "s")"
            return future ? "in \(phrase)" : "\(phrase) ago"
        case .ja:
            return future ? "あと\(count)\(japanese(unit))" : "\(count)\(japanese(unit))前"
        case .ko:
            return "\(count)\(korean(unit)) \(future ? "후" : "전")"
        case .de:
            let phrase = "\(count) \(german(unit, one: one))"
            return future ? "in \(phrase)" : "vor \(phrase)"
        case .fr:
            let phrase = "\(count) \(french(unit, one: one))"
            return future ? "dans \(phrase)" : "il y a \(phrase)"
        case .es:
            let phrase = "\(count) \(spanish(unit, one: one))"
            return future ? "en \(phrase)" : "hace \(phrase)"
        }
    }

    static func chinese(_ unit: Unit) -> String {
        ["秒钟", "分钟", "小时", "天", "周", "个月", "年"][unit.rawValue]
    }

    static func traditionalChinese(_ unit: Unit) -> String {
        ["秒鐘", "分鐘", "小時", "天", "週", "個月", "年"][unit.rawValue]
    }

    static func english(_ unit: Unit) -> String {
        ["second", "minute", "hour", "day", "week", "month", "year"][unit.rawValue]
    }

    static func japanese(_ unit: Unit) -> String {
        ["秒", "分", "時間", "日", "週間", "か月", "年"][unit.rawValue]
    }

    /// Counted with Sino-Korean numbers, so `개월` for months, `년` for years.
    static func korean(_ unit: Unit) -> String {
        ["초", "분", "시간", "일", "주", "개월", "년"][unit.rawValue]
    }

    static func german(_ unit: Unit, one: Bool) -> String {
        switch unit {
        case .second: return "Sek."
        case .minute: return "Min."
        case .hour: return "Std."
        case .day: return one ? "Tag" : "Tagen"
        case .week: return one ? "Woche" : "Wochen"
        case .month: return one ? "Monat" : "Monaten"
        case .year: return one ? "Jahr" : "Jahren"
        }
    }

    static func french(_ unit: Unit, one: Bool) -> String {
        switch unit {
        case .second: return "s"
        case .minute: return "min"
        case .hour: return "h"
        case .day: return one ? "jour" : "jours"
        case .week: return one ? "semaine" : "semaines"
        case .month: return "mois"
        case .year: return one ? "an" : "ans"
        }
    }

    static func spanish(_ unit: Unit, one: Bool) -> String {
        switch unit {
        case .second: return "s"
        case .minute: return "min"
        case .hour: return "h"
        case .day: return one ? "día" : "días"
        case .week: return one ? "semana" : "semanas"
        case .month: return one ? "mes" : "meses"
        case .year: return one ? "año" : "años"
        }
    }
}
