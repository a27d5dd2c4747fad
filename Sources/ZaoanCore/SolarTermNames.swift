import ZaoanAlmanac

/// The 24 solar terms in the languages other than zh and en, in the order of `SolarTerm`
/// (小寒 first): zh-Hant in Traditional characters, ja as Japanese almanacs write them (啓蟄,
/// 小満, 処暑), ko in Hangul, and de, fr and es translating the English names.
enum SolarTermNames {
    static func name(of term: SolarTerm, language: Language) -> String {
        switch language {
        case .zh: return term.chineseName
        case .en: return term.englishName
        case .zhHant: return traditionalChinese[term.rawValue]
        case .ja: return japanese[term.rawValue]
        case .ko: return korean[term.rawValue]
        case .de: return german[term.rawValue]
        case .fr: return french[term.rawValue]
        case .es: return spanish[term.rawValue]
        }
    }

    static let traditionalChinese = [
        "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小滿", "芒種", "夏至",
        "小暑", "大暑", "立秋", "處暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
    ]
    static let japanese = [
        "小寒", "大寒", "立春", "雨水", "啓蟄", "春分", "清明", "穀雨", "立夏", "小満", "芒種", "夏至",
        "小暑", "大暑", "立秋", "処暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
    ]
    static let korean = [
        "소한", "대한", "입춘", "우수", "경칩", "춘분", "청명", "곡우", "입하", "소만", "망종", "하지",
        "소서", "대서", "입추", "처서", "백로", "추분", "한로", "상강", "입동", "소설", "대설", "동지",
    ]
    static let german = [
        "Kleine Kälte", "Große Kälte", "Frühlingsanfang", "Regenwasser", "Erwachen der Insekten", "Frühlings-Tagundnachtgleiche",
        "Klar und hell", "Kornregen", "Sommeranfang", "Kornfülle", "Korn in Ähren", "Sommersonnenwende",
        "Kleine Hitze", "Große Hitze", "Herbstanfang", "Ende der Hitze", "Weißer Tau", "Herbst-Tagundnachtgleiche",
        "Kalter Tau", "Frostfall", "Winteranfang", "Kleiner Schnee", "Großer Schnee", "Wintersonnenwende",
    ]
    static let french = [
        "Petit froid", "Grand froid", "Début du printemps", "Eau de pluie", "Réveil des insectes", "Équinoxe de printemps",
        "Clarté pure", "Pluie des grains", "Début de l’été", "Petite plénitude", "Grain en épi", "Solstice d’été",
        "Petite chaleur", "Grande chaleur", "Début de l’automne", "Fin de la chaleur", "Rosée blanche", "Équinoxe d’automne",
        "Rosée froide", "Descente du givre", "Début de l’hiver", "Petite neige", "Grande neige", "Solstice d’hiver",
    ]
    static let spanish = [
        "Pequeño frío", "Gran frío", "Comienzo de la primavera", "Agua de lluvia", "Despertar de los insectos", "Equinoccio de primavera",
        "Claro y luminoso", "Lluvia de granos", "Comienzo del verano", "Llenado del grano", "Grano en espiga", "Solsticio de verano",
        "Pequeño calor", "Gran calor", "Comienzo del otoño", "Fin del calor", "Rocío blanco", "Equinoccio de otoño",
        "Rocío frío", "Descenso de la escarcha", "Comienzo del invierno", "Pequeña nevada", "Gran nevada", "Solsticio de invierno",
    ]
}
