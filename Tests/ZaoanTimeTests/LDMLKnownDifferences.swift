@testable import ZaoanTime

/// Where ICU 76's CLDR 46 (the toolchain's DateFormatter) and CLDR 47 as Babel 2.17.0 carries
/// it (the engine's tables) differ, each by field, language and both values; and where ICU
/// answers from CLDR data Babel does not carry (metazone history, primary zones) or from
/// Foundation's own zone naming, each by field and zone. A difference in the differential
/// test passes only if the engine, given ICU's values instead, gives ICU's answer; an entry
/// no case needs fails the test, so the table cannot go stale.
enum LDMLKnownDifferences {
    /// What the engine renders with: an entry puts ICU's value in.
    struct Variant {
        let language: LDMLLanguage
        var words: LDMLWords
        var zoneWords: LDMLZoneWords
        var zoneData: LDMLZoneData
        var identifier: String?
    }

    struct Entry: Sendable {
        let name: String
        /// The pattern letters whose answers the entry changes.
        let fields: String
        /// The language whose data differs; nil for zone data (every language).
        let language: LDMLLanguage?
        let cldr46: [String]
        let cldr47: [String]
        let apply: @Sendable (inout Variant, [String]) -> Void
        /// Whether the CLDR 47 values show in answers as they are (not the first weekday).
        var wordsInAnswers = true
        /// The zones (the differential test's names) whose answers the entry changes; nil for all.
        var zones: [String]? = nil
        /// The instants the entry is about: before this one (a metazone's history).
        var before: Int? = nil

        init(name: String, fields: String, language: LDMLLanguage?, cldr46: [String], cldr47: [String],
             apply: @escaping @Sendable (inout LDMLWords, [String]) -> Void, wordsInAnswers: Bool = true) {
            self.init(name: name, fields: fields, language: language, cldr46: cldr46, cldr47: cldr47,
                      variant: { apply(&$0.words, $1) }, wordsInAnswers: wordsInAnswers)
        }

        init(name: String, fields: String, language: LDMLLanguage?, cldr46: [String], cldr47: [String],
             variant: @escaping @Sendable (inout Variant, [String]) -> Void, wordsInAnswers: Bool = true,
             zones: [String]? = nil, before: Int? = nil) {
            (self.name, self.fields, self.language, self.cldr46, self.cldr47) = (name, fields, language, cldr46, cldr47)
            (self.apply, self.wordsInAnswers, self.zones, self.before) = (variant, wordsInAnswers, zones, before)
        }
    }

    static let entries: [Entry] = [
        Entry(name: "de wide eras", fields: "G", language: .de,
              cldr46: ["v. Chr.", "n. Chr."], cldr47: ["vor unserer Zeitrechnung", "unserer Zeitrechnung"],
              apply: { $0.eras.wide = $1 }),
        Entry(name: "es wide AM/PM: narrow no-break space, not no-break space", fields: "abB", language: .es,
              cldr46: ["a.\u{202F}m.", "p.\u{202F}m."], cldr47: ["a.\u{A0}m.", "p.\u{A0}m."],
              apply: { $0.dayPeriods.wide = $1 }),
        Entry(name: "es narrow AM/PM (CLDR 47 as Babel has it: none, so the abbreviated)", fields: "abB", language: .es,
              cldr46: ["a.m.", "p.m."], cldr47: ["a.\u{202F}m.", "p.\u{202F}m."],
              apply: { $0.dayPeriods.narrow = $1 }),
        Entry(name: "ko abbreviated AM/PM", fields: "abB", language: .ko,
              cldr46: ["오전", "오후"], cldr47: ["AM", "PM"],
              apply: { $0.dayPeriods.abbreviated = $1 }),
        Entry(name: "zh-Hant abbreviated quarters", fields: "Qq", language: .zhHant,
              cldr46: ["1季", "2季", "3季", "4季"], cldr47: ["第1季", "第2季", "第3季", "第4季"],
              apply: { $0.quarters.abbreviated = $1; $0.standaloneQuarters.abbreviated = $1 }),
        Entry(name: "zh (CN) week data, for numeric e and c and for Y, w, W (ICU 76's: weeks from Sunday, "
                    + "5 days in the first)", fields: "ecYwW", language: .zh,
              cldr46: ["Sunday", "5"], cldr47: ["Monday", "1"],
              apply: { words, _ in
                  words.firstWeekday = 0
                  words.minimalDaysInFirstWeek = 5
              }, wordsInAnswers: false),
        Entry(name: "en flexible day periods: ICU 76's rules put 00:00–06:00 in the morning, CLDR 47's at night",
              fields: "B", language: .en, cldr46: ["in the morning"], cldr47: ["at night"],
              apply: { words, _ in for hour in 0..<6 { words.flexibleDayPeriodOfHour[hour] = 2 } }),
        Entry(name: "fr abbreviated morning and afternoon", fields: "B", language: .fr,
              cldr46: ["mat.", "ap.m."], cldr47: ["matin", "après-midi"],
              apply: { words, values in
                  words.flexibleDayPeriods.abbreviated[2] = values[0]
                  words.flexibleDayPeriods.abbreviated[3] = values[1]
              }),
        Entry(name: "fr wide night", fields: "B", language: .fr, cldr46: ["de nuit"], cldr47: ["du matin"],
              apply: { words, values in words.flexibleDayPeriods.wide[5] = values[0] }),
    ] + LDMLKnownZoneDifferences.entries

    /// The engine's data with the candidates' ICU values.
    static func icuVariant(_ language: LDMLLanguage, identifier: String?, _ candidates: [Entry]) -> Variant {
        var variant = Variant(language: language, words: LDMLWords.words(for: language), zoneWords: LDMLZoneWords.words(for: language),
                              zoneData: .cldr, identifier: identifier)
        for entry in candidates { entry.apply(&variant, entry.cldr46) }
        return variant
    }

    /// The entries that could explain a difference in `pattern` whose engine answer is
    /// `ours`: of the language, for a field in the pattern, of the zone and instant, and with
    /// a CLDR 47 word in the answer (the first day of the week shows only as a number).
    static func candidates(_ pattern: String, _ language: LDMLLanguage, zone: String, instant: Int, ours: String) -> [Entry] {
        entries.filter { entry in
            (entry.language ?? language) == language && pattern.contains { entry.fields.contains($0) }
                && (entry.zones?.contains(zone) ?? true) && instant < (entry.before ?? Int.max)
                && (!entry.wordsInAnswers || entry.cldr47.contains { ours.contains($0) })
        }
    }
}
