/// The languages the LDML engine has CLDR words for: the service's eight (ZaoanProtocol's
/// `Language`, which ZaoanTime cannot import), each in the region CLDR's data is taken for.
package enum LDMLLanguage: String, CaseIterable, Sendable {
    // Each read from its region's CLDR locale (zh_Hans_CN, zh_Hant_TW, en_US, ...), as
    // scripts/generate/babel_cldr.py lists them.
    case zh, zhHant, en, ja, ko, de, fr, es
}

/// What LDML date patterns take from CLDR for one language: names by width, the week data
/// (for `e`, `c`, `Y`, `w`, `W`), the day periods (`a`, `b`, `B`) and the localized GMT format. The tables are generated
/// (LDMLWords+CLDR.swift, from CLDR 47 by scripts/generate/ldml-words.py).
package struct LDMLWords: Sendable {
    /// One set of names in CLDR's widths; months January first, weekdays Sunday first, eras
    /// BC then AD, day periods AM then PM. `short` is the weekdays' only (empty elsewhere).
    package struct Names: Sendable {
        package var abbreviated: [String]
        package var wide: [String]
        package var narrow: [String]
        package var short: [String]

        init(abbreviated: [String], wide: [String], narrow: [String], short: [String] = []) {
            self.abbreviated = abbreviated
            self.wide = wide
            self.narrow = narrow
            self.short = short
        }
    }

    /// 0 = Sunday ... 6 = Saturday.
    package var firstWeekday: Int
    /// The fewest days of a year's (a month's) first week in that year (month): 1 ... 7.
    package var minimalDaysInFirstWeek: Int
    package var months: Names
    package var standaloneMonths: Names
    package var weekdays: Names
    package var standaloneWeekdays: Names
    package var quarters: Names
    package var standaloneQuarters: Names
    package var eras: Names
    package var dayPeriods: Names
    /// The flexible day periods' names in ICU's order (midnight, noon, morning1, afternoon1,
    /// evening1, night1, morning2, afternoon2, evening2, night2), "" where CLDR has none.
    package var flexibleDayPeriods: Names
    /// For each hour 0–23, the index in `flexibleDayPeriods` of the period CLDR's rules give it.
    package var flexibleDayPeriodOfHour: [Int]
    /// Whether the language's rules have noon as a moment of its own (`B` at 12:00:00).
    package var hasNoonRule: Bool
    /// gmtFormat around its offset: `GMT{0}` is "GMT" and "", fr's `UTC{0}` "UTC" and "".
    /// The zero offset is the prefix and suffix alone (each language's gmtZeroFormat).
    package var gmtPrefix: String
    package var gmtSuffix: String
    /// The minus sign of hourFormat's negative pattern: "-" (CLDR root's `+HH:mm;-HH:mm`),
    /// fr's U+2212 (`+HH:mm;−HH:mm`).
    package var gmtMinus: String

    package static func words(for language: LDMLLanguage) -> LDMLWords {
        cldr(language)
    }
}
