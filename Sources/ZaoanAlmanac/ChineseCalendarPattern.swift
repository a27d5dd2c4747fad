/// LDML patterns in the Chinese calendar (`time U年MMMd calendar=chinese`: 丙午年十月廿二),
/// without ICU: ZaoanTime's `LDMLChineseRenderer` writes the fields with CLDR's words, and
/// the almanac says which lunar date the local day is. The almanac, not ICU's arithmetic:
/// on 121 days of 1901–2100 ICU's Chinese calendar differs from the almanacs of China
/// (1914, 1916 and 1920, reckoned by ICU at UTC+8 where Beijing mean time was in force, and
/// two months of 2057 and 2097 whose new moons fall within a minute of midnight), and
/// `Almanac` follows the almanacs (ChineseCalendarPatternTests names each such day).
///
///     ChineseCalendarPattern.render(try LDMLPattern("U年MMMd"), instant: now, zone: shanghai,
///                                   language: .zh, almanac: almanac)   // 丙午年十月廿二
public enum ChineseCalendarPattern {
    /// `pattern` for `instant` (Unix seconds, plus `nanoseconds`) in `zone` (named
    /// `zoneIdentifier`, for zone names): the date fields (`G y U r Q q M L d D`) and week
    /// fields (`Y w W`) of the lunar date of the instant's local day in `zone`, the others as
    /// the Gregorian engine writes them. The almanac is consulted only when the pattern has
    /// a date field; it computes a year the first time it is asked for one.
    /// - Returns: nil when the pattern has a date field and the local day's year is outside
    ///   `years`.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               zoneIdentifier: String? = nil, language: LDMLLanguage, almanac: Almanac) -> String? {
        LDMLChineseRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone, zoneIdentifier: zoneIdentifier,
                                   language: language) { day in
            years.contains(day.date.year) ? date(on: day, almanac: almanac) : nil
        }
    }

    /// The Gregorian years whose days get a lunar date: those of the ΔT model (Espenak and
    /// Meeus's Five Millennium Canon, −1999 to +3000). Far beyond, the almanac's month
    /// search is not made for the Moon it would meet (by year 78,000 it traps).
    package static let years = -1_999...3_000

    /// The lunar date of a day, with its place in the lunar year and the lengths of its
    /// year and the year before (the almanac's spans of the three years, kept once computed).
    static func date(on day: CivilDay, almanac: Almanac) -> LDMLChineseDate {
        let lunar = almanac.lunarDate(on: day)
        let months = almanac.lunarMonths(ofYear: lunar.relatedYear)
        let newYear = months.first?.firstDay ?? day
        return LDMLChineseDate(relatedYear: lunar.relatedYear, month: lunar.month, isLeapMonth: lunar.isLeapMonth, day: lunar.day,
                               dayOfYear: day.daysSince1970 - newYear.daysSince1970 + 1,
                               daysInYear: months.reduce(0) { $0 + $1.length },
                               daysInPreviousYear: almanac.lunarMonths(ofYear: lunar.relatedYear - 1).reduce(0) { $0 + $1.length })
    }
}
