import ZaoanAlmanac

/// The festivals in words: each festival's name and the phrase of `{next_festival}`, one
/// table per language. Adding a language is one more table and its line in `byLanguage`; a
/// language without one reads English.
public struct FestivalText: Sendable {
    /// The names in `Festival.allCases` order.
    let names: [String]
    /// `{next_festival}`: the name and the days to go (1 or more).
    let countdown: @Sendable (_ name: String, _ days: Int) -> String

    public func name(of festival: Festival) -> String { names[festival.rawValue] }

    /// `春节 还有67天` / `Spring Festival in 67 days`.
    public func next(_ festival: Festival, inDays days: Int) -> String { countdown(name(of: festival), days) }

    public static func forLanguage(_ language: Language) -> FestivalText { byLanguage[language] ?? english }

    static let byLanguage: [Language: FestivalText] = [.zh: chinese, .en: english]

    /// As almanacs print them. Days as the countdowns count them (`2天`, `3天后`): no space.
    static let chinese = FestivalText(
        names: ["春节", "元宵", "龙抬头", "清明", "端午", "七夕", "中元", "中秋", "重阳", "冬至", "腊八", "除夕"],
        countdown: { name, days in "\(name) 还有\(days)天" })

    /// The names English-language calendars and the festivals' own sites use (Qixi and
    /// Laba untranslated, as they usually are).
    static let english = FestivalText(
        names: ["Spring Festival", "Lantern Festival", "Dragon Raises Head", "Qingming Festival", "Dragon Boat Festival",
                "Qixi Festival", "Ghost Festival", "Mid-Autumn Festival", "Double Ninth Festival", "Winter Solstice",
                "Laba Festival", "Chinese New Year's Eve"],
        countdown: { name, days in "\(name) in \(days) day\(days == 1 ? "" : "s")" })
}
