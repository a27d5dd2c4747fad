@testable import ZaoanTime

/// Where ICU 76's CLDR 46 (the toolchain's DateFormatter) and the engine's tables differ in
/// the words a Chinese-calendar pattern shows: the calendar's own words (CLDR 41 as Debian's
/// unicode-cldr-core carries it, LDMLChineseWords+CLDR.swift) and the Gregorian words the
/// other fields keep (CLDR 47 through Babel, LDMLWords+CLDR.swift), each by field, language
/// and both values. A difference in ChineseCalendarPatternTests passes only if the engine,
/// given the CLDR 46 values instead, gives ICU's answer; an entry no case needs fails the
/// test, so the table cannot go stale.
enum ChineseCLDRDifferences {
    struct Entry: Sendable {
        let name: String
        /// The pattern letters whose answers the entry changes.
        let fields: String
        let language: LDMLLanguage
        let cldr46: [String]
        /// The values in the engine's tables.
        let ours: [String]
        let apply: @Sendable (inout LDMLWords, inout LDMLChineseWords, [String]) -> Void
        /// Whether the engine's values show in answers as they are (not the week data).
        var wordsInAnswers = true
    }

    static let entries: [Entry] = [
        Entry(name: "zh-Hant abbreviated quarters (Gregorian words: CLDR 47 第1季, CLDR 46 1季)", fields: "Qq", language: .zhHant,
              cldr46: ["1季", "2季", "3季", "4季"], ours: ["第1季", "第2季", "第3季", "第4季"],
              apply: { words, _, names in words.quarters.abbreviated = names; words.standaloneQuarters.abbreviated = names }),
        Entry(name: "zh (CN) week data, for Y, w, W and numeric c (Gregorian data: CLDR 47 weeks from Monday, 1 day in the "
                    + "first; ICU 76's from Sunday, 5 days)", fields: "YwWc", language: .zh,
              cldr46: ["Sunday", "5"], ours: ["Monday", "1"],
              apply: { words, _, _ in
                  words.firstWeekday = 0
                  words.minimalDaysInFirstWeek = 5
              }, wordsInAnswers: false),
    ]

    /// The language's words with every entry's CLDR 46 value.
    static func cldr46Words(_ language: LDMLLanguage) -> (LDMLWords, LDMLChineseWords) {
        var words = LDMLWords.words(for: language)
        var chinese = LDMLChineseWords.words(for: language)
        for entry in entries where entry.language == language { entry.apply(&words, &chinese, entry.cldr46) }
        return (words, chinese)
    }

    /// The entries that could explain a difference in `pattern` whose engine answer is
    /// `ours`: of the language, for a field in the pattern, with one of its values in the answer
    /// (where its values are words).
    static func candidates(_ pattern: String, _ language: LDMLLanguage, ours: String) -> [String] {
        entries.filter { entry in
            entry.language == language && pattern.contains { entry.fields.contains($0) }
                && (!entry.wordsInAnswers || entry.ours.contains { ours.contains($0) })
        }.map(\.name)
    }
}
