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
    /// `pattern` for `instant` (Unix seconds, plus `nanoseconds`) in `zone`: the date fields
    /// (`G y U r Q q M L d D`) of the lunar date of the instant's local day in `zone`, the
    /// others as the Gregorian engine writes them. The almanac is consulted only when the
    /// pattern has a date field; it computes a year the first time it is asked for one.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               language: LDMLLanguage, almanac: Almanac) -> String {
        LDMLChineseRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone, language: language) { day in
            date(on: day, almanac: almanac)
        }
    }

    /// The lunar date of a day, with its place in the lunar year.
    static func date(on day: CivilDay, almanac: Almanac) -> LDMLChineseDate {
        let lunar = almanac.lunarDate(on: day)
        let newYear = almanac.lunarMonths(ofYear: lunar.relatedYear).first?.firstDay ?? day
        return LDMLChineseDate(relatedYear: lunar.relatedYear, month: lunar.month, isLeapMonth: lunar.isLeapMonth, day: lunar.day,
                               dayOfYear: day.daysSince1970 - newYear.daysSince1970 + 1)
    }
}
