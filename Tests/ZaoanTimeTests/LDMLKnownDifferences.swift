@testable import ZaoanTime

/// Where ICU 76's CLDR 46 (the toolchain's DateFormatter) and CLDR 47 as Babel 2.17.0 carries
/// it (the engine's tables) differ, each by field, language and both values. A difference in
/// the differential test passes only if the engine, given these CLDR 46 values instead, gives
/// ICU's answer; an entry no case needs fails the test, so the table cannot go stale.
enum LDMLKnownDifferences {
    struct Entry: Sendable {
        let name: String
        /// The pattern letters whose answers the entry changes.
        let fields: String
        let language: LDMLLanguage
        let cldr46: [String]
        let cldr47: [String]
        let apply: @Sendable (inout LDMLWords, [String]) -> Void
        /// Whether the CLDR 47 values show in answers as they are (not the first weekday).
        var wordsInAnswers = true
    }

    static let entries: [Entry] = [
        Entry(name: "de wide eras", fields: "G", language: .de,
              cldr46: ["v. Chr.", "n. Chr."], cldr47: ["vor unserer Zeitrechnung", "unserer Zeitrechnung"],
              apply: { $0.eras.wide = $1 }),
        Entry(name: "es wide AM/PM: narrow no-break space, not no-break space", fields: "a", language: .es,
              cldr46: ["a.\u{202F}m.", "p.\u{202F}m."], cldr47: ["a.\u{A0}m.", "p.\u{A0}m."],
              apply: { $0.dayPeriods.wide = $1 }),
        Entry(name: "es narrow AM/PM (CLDR 47 as Babel has it: none, so the abbreviated)", fields: "a", language: .es,
              cldr46: ["a.m.", "p.m."], cldr47: ["a.\u{202F}m.", "p.\u{202F}m."],
              apply: { $0.dayPeriods.narrow = $1 }),
        Entry(name: "ko abbreviated AM/PM", fields: "a", language: .ko,
              cldr46: ["오전", "오후"], cldr47: ["AM", "PM"],
              apply: { $0.dayPeriods.abbreviated = $1 }),
        Entry(name: "zh-Hant abbreviated quarters", fields: "Qq", language: .zhHant,
              cldr46: ["1季", "2季", "3季", "4季"], cldr47: ["第1季", "第2季", "第3季", "第4季"],
              apply: { $0.quarters.abbreviated = $1; $0.standaloneQuarters.abbreviated = $1 }),
        Entry(name: "zh (CN) first day of the week, for numeric e and c", fields: "ec", language: .zh,
              cldr46: ["Sunday"], cldr47: ["Monday"],
              apply: { words, _ in words.firstWeekday = 0 }, wordsInAnswers: false),
    ]

    /// The language's words with every entry's CLDR 46 value.
    static func cldr46Words(_ language: LDMLLanguage) -> LDMLWords {
        var words = LDMLWords.words(for: language)
        for entry in entries where entry.language == language { entry.apply(&words, entry.cldr46) }
        return words
    }

    /// The entries that could explain a difference in `pattern` whose engine answer is
    /// `ours`: of the language, for a field in the pattern, and with a CLDR 47 word in the
    /// answer (the first day of the week shows only as a number).
    static func candidates(_ pattern: String, _ language: LDMLLanguage, ours: String) -> [String] {
        entries.filter { entry in
            entry.language == language && pattern.contains { entry.fields.contains($0) }
                && (!entry.wordsInAnswers || entry.cldr47.contains { ours.contains($0) })
        }.map(\.name)
    }
}
