import Foundation
import ZaoanAlmanac

/// The Chinese calendar in answers: lunar dates and solar terms as text (from `Almanac`, which
/// computes them), and LDML patterns formatted in ICU's Chinese calendar.
///
///     ChineseCalendar.format(now, pattern: "U年MMMd", zone: shanghai, cache: formatters)
///     // 丙午年十月廿二 on 2026-11-30
public enum ChineseCalendar {
    /// The ICU locale that formats in the Chinese calendar: for `zh`, with the day of the month
    /// in the almanac's words (`numbers=hanidays`: 初一 … 三十; without it ICU writes `22`).
    public static func localeIdentifier(for language: Language) -> String {
        switch language {
        case .zh: return "zh_CN@calendar=chinese;numbers=hanidays"
        case .en: return "en_US@calendar=chinese"
        }
    }

    /// Formats `date` with an LDML pattern in ICU's Chinese calendar: `U` is the cyclic year
    /// (丙午), `MMM`/`MMMM` the month (十月, 闰六月), `d` the day (廿二), `r` the Gregorian year
    /// the lunar year began in; time fields (`HH:mm`) are as usual. For the request layer's
    /// `time PATTERN calendar=chinese`; the formatter is kept in `cache`, keyed by the
    /// calendar's locale, so Gregorian and Chinese formatters of one pattern never mix.
    ///
    /// ICU computes the calendar itself, and on 121 days of 1901–2100 it differs from the
    /// almanacs (and from `{lunar}`, which `Almanac` computes): 1914-11-17…12-16,
    /// 1916-02-03…03-03 and 1920-11-10…12-09 (ICU reckons at UTC+8 where the almanacs of
    /// the time used Beijing mean time), 2057-09-28 and 2097-08-07…09-05 (new moons within a
    /// minute of midnight: ICU calls 2057-09-28 and 2097-08-07 day "0" of their months).
    public static func format(_ date: Date, pattern: String, zone: TimeZone, language: Language = .zh,
                              cache: FormatterCache) -> String {
        cache.string(from: date, pattern: pattern, locale: localeIdentifier(for: language), zone: zone)
    }

    /// `丙午年十月廿二` / `Year of Bing-Wu, month 10, day 22`.
    public static func text(of date: LunarDate, language: Language) -> String {
        language == .zh ? date.chineseText : date.englishText
    }

    /// `冬至` / `Winter Solstice`.
    public static func name(of term: SolarTerm, language: Language) -> String {
        language == .zh ? term.chineseName : term.englishName
    }

    /// `冬至 12月21日` / `Winter Solstice Dec 21`: a term with its day in China.
    public static func text(of term: SolarTermInstant, language: Language) -> String {
        let (_, month, day) = term.day.date
        switch language {
        case .zh: return "\(term.term.chineseName) \(month)月\(day)日"
        case .en: return "\(term.term.englishName) \(englishMonths[month - 1]) \(day)"
        }
    }

    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
