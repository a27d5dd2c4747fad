import Foundation

// Interim, on the no-foundation branch only: replaced by the Chinese calendar in zaoan's own
// LDML engine before this branch is merged.
extension ChineseCalendar {
    static func interimICUFormat(_ date: Instant, pattern: String, zone: Zone, locale: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.timeZone = TimeZone(identifier: zone.identifier)
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: date.secondsSince1970))
    }
}
