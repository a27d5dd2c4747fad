extension TimeLocale {
    /// The LC_TIME of a configured language.
    static func of(_ language: Language) -> TimeLocale {
        language == .zh ? chinese : english
    }
}
