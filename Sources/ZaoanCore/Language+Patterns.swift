/// The LDML patterns and short phrases answers use, per language (rendered by ZaoanTime's
/// LDML engine in the language's CLDR words).
extension Language {
    /// The greeting's tooltip date, its clock in `cycle`: `2026年11月18日 星期三 11:06`,
    /// `Wednesday, November 18, 2026 11:06 AM`, `Mittwoch, 18. November 2026 11:06`, ...
    func longDatePattern(_ cycle: HourCycle) -> String {
        String(longDatePattern24.dropLast("HH:mm".count)) + cycle.clockPattern(self)
    }

    private var longDatePattern24: String {
        switch self {
        case .zh, .zhHant, .ja: return "yyyy年M月d日 EEEE HH:mm"
        case .en: return "EEEE, MMMM d, yyyy HH:mm"
        case .ko: return "yyyy년 M월 d일 EEEE HH:mm"
        case .de: return "EEEE, d. MMMM yyyy HH:mm"
        case .fr: return "EEEE d MMMM yyyy HH:mm"
        case .es: return "EEEE, d 'de' MMMM 'de' yyyy HH:mm"
        }
    }

    /// The day in front of a notice's time on another day: `12月2日`, `Dec 2,`, `2. Dez.`.
    var noticeDayPattern: String {
        switch self {
        case .zh, .zhHant, .ja: return "M月d日"
        case .en: return "MMM d,"
        case .ko: return "M월 d일"
        case .de: return "d. MMM"
        case .fr, .es: return "d MMM"
        }
    }

    /// `time calendar=chinese` without a pattern: `丙午年十月十二`,
    /// `Year of bing-wu, month 10, day 12`, `丙午年10月12日`, `병오년 10월 12일`, ...
    var chineseDatePattern: String {
        switch self {
        case .zh, .zhHant: return "U年MMMd"
        case .en: return "'Year of' U, 'month' M, 'day' d"
        case .ja: return "U年M月d日"
        case .ko: return "U년 M월 d일"
        case .de: return "'Jahr' U, 'Monat' M, 'Tag' d"
        case .fr: return "'année' U, 'mois' M, 'jour' d"
        case .es: return "'año' U, 'mes' M, 'día' d"
        }
    }

    /// A live room's viewers in its tooltip: `42 人在看`, `42 watching`, `42人が視聴中`, ...
    func viewersText(_ viewers: Int) -> String {
        switch self {
        case .zh, .zhHant: return "\(viewers) 人在看"
        case .en: return "\(viewers) watching"
        case .ja: return "\(viewers)人が視聴中"
        case .ko: return "\(viewers)명 시청 중"
        case .de: return "\(viewers) schauen zu"
        case .fr: return "\(viewers) spectateurs"
        case .es: return "\(viewers) espectadores"
        }
    }
}
