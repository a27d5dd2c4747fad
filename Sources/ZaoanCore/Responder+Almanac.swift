import ZaoanAlmanac

/// The Chinese calendar's placeholders of `status_template`: `{lunar}`, `{solar_term}`,
/// `{next_solar_term}`, `{festival}` and `{next_festival}` (and China's `{workday}`), each worked out only when the
/// template has it. The almanac computes a year once (a few milliseconds) and keeps it, so
/// the per-second rendering is a lookup.
extension Responder {
    /// Every placeholder `status_template` fills; the docs are checked against it.
    public static let statusPlaceholders = ["greeting", "city", "time", "countdown", "ticker", "location", "calendar", "join", "provider",
                                            "lunar", "solar_term", "next_solar_term", "festival", "next_festival", "workday", "icon"]

    /// Whether the settings make answers that need the almanac: a status template with a
    /// Chinese-calendar placeholder, or the festivals as events.
    public var usesAlmanac: Bool {
        settings.festivals || Self.almanacPlaceholders.contains { settings.statusTemplate.contains($0) || settings.tooltipTemplate?.contains($0) == true }
    }

    /// The year the almanac is prepared around: this one in the configured zone.
    public func almanacYear(now: Instant) -> Int { localDay(now).date.year }

    /// The placeholders this file fills.
    private static let almanacPlaceholders = ["{lunar}", "{solar_term}", "{next_solar_term}", "{festival}", "{next_festival}"]

    /// The Chinese-calendar parts a template asks for, by placeholder name.
    func almanacParts(now: Instant, template: String) -> [String: String] {
        var parts: [String: String] = [:]
        if template.contains("{workday}") {
            // `调休上班`, `法定假日 · 春节`; nothing on an ordinary day or with workdays off.
            let entry = settings.month.workdays?.kind(of: localDay(now))
            parts["workday"] = entry.map { WorkdayWords.forLanguage(settings.language).text($0.kind, $0.holiday) } ?? ""
        }
        guard Self.almanacPlaceholders.contains(where: { template.contains($0) }) else { return parts }
        let today = localDay(now)
        let language = settings.language
        if template.contains("{lunar}") {
            parts["lunar"] = ChineseCalendar.text(of: almanac.lunarDate(on: today), language: language)
        }
        if template.contains("{solar_term}") {
            parts["solar_term"] = almanac.solarTerm(on: today).map { ChineseCalendar.name(of: $0.term, language: language) } ?? ""
        }
        if template.contains("{next_solar_term}") {
            parts["next_solar_term"] = ChineseCalendar.text(of: almanac.nextSolarTerm(after: today), language: language)
        }
        if template.contains("{festival}") || template.contains("{next_festival}") {
            let words = FestivalText.forLanguage(language)
            // The day's festival (none, or one: no two share a day); on it, {next_festival}
            // names the one after.
            parts["festival"] = almanac.festivals(on: today).map(words.name(of:)).joined(separator: " ")
            let next = almanac.nextFestival(after: today)
            parts["next_festival"] = words.next(next.festival, inDays: next.day.daysSince1970 - today.daysSince1970)
        }
        return parts
    }

    /// The day `now` falls on in the configured zone: the user's date, whose lunar date and
    /// solar term they see. (The term's own day is decided in China, see `ChinaTime`.)
    func localDay(_ now: Instant) -> CivilDay {
        CivilDay(unixSeconds: now.secondsSince1970,
                 offsetSeconds: WallClock.offset(settings.zone, at: now.unixSeconds))
    }
}
