import ZaoanAlmanac

/// A lunar date (`{lunar}`) in the languages other than zh and en, worded as the language
/// writes the Chinese calendar, and as ICU writes `time calendar=chinese` in it:
///
/// | language | date | leap month |
/// |---|---|---|
/// | zh-Hant | `丙午年十月十二` | `乙巳年閏六月初八`, `臘月` for the twelfth |
/// | ja | `丙午年10月12日` | `乙巳年閏6月8日` |
/// | ko | `병오년 10월 12일` | `을사년 윤6월 8일` |
/// | de | `Jahr Bing-Wu, Monat 10, Tag 12` | `Schaltmonat 6` |
/// | fr | `année Bing-Wu, mois 10, jour 12` | `mois intercalaire 6` |
/// | es | `año Bing-Wu, mes 10, día 12` | `mes intercalar 6` |
enum LunarDateWords {
    static func text(of date: LunarDate, language: Language) -> String {
        let index = date.cycleYear - 1
        let hanzi = LunarDate.stems[index % 10] + LunarDate.branches[index % 12]
        let latin = LunarDate.stemsLatin[index % 10] + "-" + LunarDate.branchesLatin[index % 12]
        let (month, leap, day) = (date.month, date.isLeapMonth, date.day)
        switch language {
        case .zh:
            return date.chineseText
        case .en:
            return date.englishText
        case .zhHant:
            let monthName = month == 12 ? "臘月" : LunarDate.monthNames[month - 1]
            return hanzi + "年" + (leap ? "閏" : "") + monthName + LunarDate.dayNames[day - 1]
        case .ja:
            return hanzi + "年" + (leap ? "閏" : "") + "\(month)月\(day)日"
        case .ko:
            let korean = koreanStems[index % 10] + koreanBranches[index % 12]
            return korean + "년 " + (leap ? "윤" : "") + "\(month)월 \(day)일"
        case .de:
            return "Jahr \(latin), \(leap ? "Schaltmonat" : "Monat") \(month), Tag \(day)"
        case .fr:
            return "année \(latin), \(leap ? "mois intercalaire" : "mois") \(month), jour \(day)"
        case .es:
            return "año \(latin), \(leap ? "mes intercalar" : "mes") \(month), día \(day)"
        }
    }

    /// 갑을병정무기경신임계 and 자축인묘진사오미신유술해: the stems and branches as Korean reads them.
    static let koreanStems = ["갑", "을", "병", "정", "무", "기", "경", "신", "임", "계"]
    static let koreanBranches = ["자", "축", "인", "묘", "진", "사", "오", "미", "신", "유", "술", "해"]
}
