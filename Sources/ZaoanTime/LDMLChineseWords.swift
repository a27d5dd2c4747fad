/// What LDML patterns in the Chinese calendar take from CLDR's `ca-chinese` for one language,
/// beside the Gregorian words (`LDMLWords`) the other fields keep: the months' names, the
/// leap-month patterns, the cyclic years' names and, where the service asks for them, the
/// day numbers. The tables are generated (LDMLChineseWords+CLDR.swift, from CLDR 41 by
/// scripts/generate/chinese-calendar-words.py).
package struct LDMLChineseWords: Sendable {
    /// A leap month's pattern by width, `{0}` standing for the month's name or number
    /// (`闰{0}`, `{0}bis`, narrow `{0}b`): CLDR's `monthPatterns`, type `leap`.
    package struct LeapPatterns: Sendable {
        package var abbreviated: String
        package var wide: String
        package var narrow: String
    }

    /// 正月 … 腊月 (zh), Mo1 … Mo12 (en), M01 … M12 (de, es: CLDR root's).
    package var months: LDMLWords.Names
    package var standaloneMonths: LDMLWords.Names
    package var leapMonths: LeapPatterns
    package var standaloneLeapMonths: LeapPatterns
    /// For `M`, `MM`, `L`, `LL`: 闰6, 6bis.
    package var numericLeapMonth: String
    /// The 60 years of the cycle, 甲子 first (format, abbreviated: ICU writes every width of
    /// `U` with these).
    package var cyclicYears: [String]
    /// The days of the month 0–30 in the `hanidays` numbering system (初一 … 三十) for the
    /// languages whose service locale asks for it (`numbers=hanidays`: zh and zh-Hant; ICU
    /// applies it to `d` alone, as CLDR's own zh patterns do with `d=hanidays`); empty for
    /// the others, which write the day as a number.
    package var dayNumbers: [String]

    package static func words(for language: LDMLLanguage) -> LDMLChineseWords {
        cldr(language)
    }

    /// `pattern` with `{0}` replaced by `month`.
    static func apply(_ pattern: String, to month: String) -> String {
        pattern.replacing("{0}", with: month, maxReplacements: 1)
    }
}
