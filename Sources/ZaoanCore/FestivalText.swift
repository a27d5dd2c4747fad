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

    static let byLanguage: [Language: FestivalText] = [
        .zh: chinese, .zhHant: traditionalChinese, .en: english, .ja: japanese, .ko: korean, .de: german, .fr: french, .es: spanish,
    ]

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

    /// Taiwan's and Hong Kong's names, in Traditional characters (元宵節, 中秋節, as their
    /// calendars print them); days as zh-Hant's countdowns count them.
    static let traditionalChinese = FestivalText(
        names: ["春節", "元宵", "龍抬頭", "清明", "端午", "七夕", "中元", "中秋", "重陽", "冬至", "臘八", "除夕"],
        countdown: { name, days in "\(name) 還有\(days)天" })

    /// The Japanese names of the Chinese festivals (春節, 元宵節, 端午節, 中秋節, 重陽節...),
    /// as Japanese almanacs write them; `あと67日` as the countdowns say it.
    static let japanese = FestivalText(
        names: ["春節", "元宵節", "龍抬頭", "清明節", "端午節", "七夕", "中元節", "中秋節", "重陽節", "冬至", "臘八節", "除夕"],
        countdown: { name, days in "\(name)まであと\(days)日" })

    /// The Korean readings (춘절, 원소절, 단오, 중추절...), with `67일 남음` as a count of days.
    static let korean = FestivalText(
        names: ["춘절", "원소절", "용대두", "청명절", "단오절", "칠석", "중원절", "중추절", "중양절", "동지", "납팔절", "제석"],
        countdown: { name, days in "\(name)까지 \(days)일" })

    static let german = FestivalText(
        names: ["Frühlingsfest", "Laternenfest", "Drache-hebt-den-Kopf-Fest", "Qingming-Fest", "Drachenbootfest",
                "Qixi-Fest", "Geisterfest", "Mondfest", "Doppelneunfest", "Wintersonnenwende", "Laba-Fest",
                "Chinesischer Silvester"],
        countdown: { name, days in "\(name) in \(days) \(days == 1 ? "Tag" : "Tagen")" })

    static let french = FestivalText(
        names: ["Fête du Printemps", "Fête des Lanternes", "Fête du Dragon qui lève la tête", "Fête de Qingming",
                "Fête des bateaux-dragons", "Fête de Qixi", "Fête des fantômes", "Fête de la mi-automne",
                "Fête du double neuf", "Solstice d’hiver", "Fête de Laba", "Réveillon du Nouvel An chinois"],
        countdown: { name, days in "\(name) dans \(days) jour\(days == 1 ? "" : "s")" })

    static let spanish = FestivalText(
        names: ["Fiesta de la Primavera", "Fiesta de los Faroles", "Fiesta del Dragón que alza la cabeza",
                "Fiesta de Qingming", "Fiesta del Bote del Dragón", "Fiesta de Qixi", "Fiesta de los Fantasmas",
                "Fiesta del Medio Otoño", "Fiesta del Doble Nueve", "Solsticio de invierno", "Fiesta de Laba",
                "Nochevieja china"],
        countdown: { name, days in "\(name) en \(days) día\(days == 1 ? "" : "s")" })
}
