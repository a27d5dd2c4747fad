import ZaoanAlmanac

/// The Chinese calendar in answers: lunar dates and solar terms as text, and LDML patterns
/// in the Chinese calendar, all from `Almanac`, which computes them.
///
///     try ChineseCalendar.format(now, pattern: "U年MMMd", zone: shanghai, almanac: almanac, cache: formatters)
///     // 丙午年十月廿二 on 2026-11-30
public enum ChineseCalendar {
    /// Formats `instant` with an LDML pattern in the Chinese calendar: `U` is the cyclic year
    /// (丙午), `MMM`/`MMMM` the month (十月, 闰六月), `d` the day (廿二 in zh and zh-Hant),
    /// `r` the Gregorian year the lunar year began in; time fields (`HH:mm`) are as usual.
    /// For `time PATTERN calendar=chinese`: the pattern is read once and kept in `cache`
    /// (with the Gregorian uses of the same text: a read pattern has no calendar), and the
    /// words are CLDR's (`ChineseCalendarPattern`, ZaoanAlmanac).
    ///
    /// The dates are the almanac's, as `{lunar}`'s: on 121 days of 1901–2100 ICU's Chinese
    /// calendar says otherwise (1914-11-17…12-16, 1916-02-03…03-03 and 1920-11-10…12-09,
    /// which ICU reckons at UTC+8 where the almanacs of the time used Beijing mean time;
    /// 2057-09-28 and 2097-08-07…09-05, new moons within a minute of midnight).
    /// - Returns: nil when the pattern has a date field and the local day's year is outside
    ///   the years the almanac reckons (`ChineseCalendarPattern.years`).
    package static func format(_ instant: Instant, pattern: String, zone: Zone, language: Language = .zh,
                              almanac: Almanac, cache: FormatterCache) throws(LDMLPatternError) -> String? {
        let read = try cache.pattern(pattern).get()
        return ChineseCalendarPattern.render(read, instant: instant.unixSeconds, nanoseconds: instant.nanosecondsPastUnixSeconds, zone: zone.info(),
                                             zoneIdentifier: zone.tzName, language: language.ldml, almanac: almanac)
    }

    /// `丙午年十月廿二` / `Year of Bing-Wu, month 10, day 22`, and in the other languages
    /// as `LunarDateWords` writes them (`丙午年10月22日`, `병오년 10월 22일`, ...).
    public static func text(of date: LunarDate, language: Language) -> String {
        switch language {
        case .zh: return date.chineseText
        case .en: return date.englishText
        default: return LunarDateWords.text(of: date, language: language)
        }
    }

    /// `冬至` / `Winter Solstice` / `冬至` (ja) / `동지` / `Wintersonnenwende` ...
    public static func name(of term: SolarTerm, language: Language) -> String {
        switch language {
        case .zh: return term.chineseName
        case .en: return term.englishName
        default: return SolarTermNames.name(of: term, language: language)
        }
    }

    /// `冬至 12月21日` / `Winter Solstice Dec 21`: a term with its day in China; in the
    /// other languages `동지 12월 21일`, `Wintersonnenwende 21. Dez.`, `Solstice d’hiver
    /// 21 déc.`, `Solsticio de invierno 21 dic.`.
    public static func text(of term: SolarTermInstant, language: Language) -> String {
        let (_, month, day) = term.day.date
        let name = name(of: term.term, language: language)
        switch language {
        case .zh, .zhHant, .ja: return "\(name) \(month)月\(day)日"
        case .en: return "\(name) \(englishMonths[month - 1]) \(day)"
        case .ko: return "\(name) \(month)월 \(day)일"
        case .de: return "\(name) \(day). \(germanMonths[month - 1])"
        case .fr: return "\(name) \(day) \(frenchMonths[month - 1])"
        case .es: return "\(name) \(day) \(spanishMonths[month - 1])"
        }
    }

    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let germanMonths = ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."]
    private static let frenchMonths = ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]
    private static let spanishMonths = ["ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.", "nov.", "dic."]
}
