extension TimeLocale {
    /// The LC_TIME of a configured language (its `Language.localeIdentifier`).
    static func of(_ language: Language) -> TimeLocale {
        switch language {
        case .zh: return chinese
        case .en: return english
        case .zhHant: return traditionalChinese
        case .ja: return japanese
        case .ko: return korean
        case .de: return german
        case .fr: return french
        case .es: return spanish
        }
    }
}
