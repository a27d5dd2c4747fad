import Foundation
import ZaoanProtocol
import ZaoanTime

/// ICU's DateFormatter, as Foundation gives it, for the tests that compare zaoan's own
/// formatting with it; the service itself links no Foundation. Formatters are kept by
/// pattern, locale and zone since making one costs milliseconds.
final class ICUOracle {
    private var formatters: [String: DateFormatter] = [:]

    func string(_ instant: Instant, pattern: String, locale: String, zone: String, calendar: Calendar.Identifier = .gregorian) -> String {
        let key = "\(pattern)\u{0}\(locale)\u{0}\(zone)\u{0}\(calendar)"
        let formatter: DateFormatter
        if let kept = formatters[key] {
            formatter = kept
        } else {
            formatter = DateFormatter()
            formatter.calendar = Calendar(identifier: calendar)
            // ISO 8601's proleptic Gregorian calendar for every date, as zaoan writes dates,
            // not ICU's default switch to the Julian calendar before 1582-10-15.
            if calendar == .gregorian { formatter.gregorianStartDate = Date.distantPast }
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = TimeZone(identifier: zone)
            formatter.dateFormat = pattern
            formatters[key] = formatter
        }
        return formatter.string(from: Date(timeIntervalSince1970: instant.secondsSince1970))
    }

    /// The ICU locale that formats in the Chinese calendar as the service did through ICU
    /// until issue 34: for `zh` and `zh-Hant`, with the day of the month in the almanac's
    /// words (`numbers=hanidays`: 初一 … 三十; without it ICU writes `22`); the others as the
    /// language writes dates (`10日`, `10일`, `10`).
    static func chineseLocale(for language: Language) -> String {
        language.localeIdentifier + (language.isChinese ? "@calendar=chinese;numbers=hanidays" : "@calendar=chinese")
    }
}
