import ZaoanAlmanac

/// The festivals of the Chinese calendar as all-day events (`"festivals": true`): each on its
/// date from the configured zone's midnight to the next, counting like a calendar event in
/// `schedule`, `countdown`, `ticker`, `status` and `watch events`.
///
/// A festival is a date (the Chinese calendar reckons it in China), not an instant: 春节 on
/// 2027-02-06 is that day on the user's own wall clock, wherever they are, as a holiday in a
/// calendar file is, and as `{festival}` names it on the user's date.
extension Responder {
    /// The source column of `schedule` (and `watch events`' `source`) for a festival.
    public static let festivalSource = SourceName.festivals

    /// How far ahead festivals join the rotation: the longest `schedule` (744 hours) and a
    /// day. The next festival after today always joins, however far it is, so that
    /// `countdown` has it to count down to.
    static let festivalWindowDays = 32

    /// The festivals of today and the next `festivalWindowDays` days in the configured zone,
    /// and at least the next one, as all-day events in order. From the almanac's years, each
    /// computed once and kept: built with the rotation (hourly), never per request.
    func festivalEvents(now: Instant) -> [LiveRoom] {
        let today = localDay(now)
        let last = today.adding(days: Self.festivalWindowDays)
        let year = today.date.year
        let ahead = (almanac.festivals(ofYear: year) + almanac.festivals(ofYear: year + 1)).filter { $0.day >= today }
        let next = almanac.nextFestival(after: today)
        let words = FestivalText.forLanguage(settings.language)
        return ahead.filter { $0.day <= last || $0 == next }.map { festivalEvent($0, words: words) }
    }

    /// One festival on its date in the configured zone: from the first instant of the day
    /// (a midnight the clocks skip starts it when they resume) to the first of the next.
    private func festivalEvent(_ festival: FestivalDay, words: FestivalText) -> LiveRoom {
        let zone = settings.zone
        func start(of day: CivilDay) -> Instant {
            Instant(secondsSince1970: Double(WallClock.resolve(day.daysSince1970 &* 86_400, in: zone).first))
        }
        var event = LiveRoom(id: "festival:\(festival.day):\(festival.festival)", title: words.name(of: festival.festival),
                             start: start(of: festival.day), end: start(of: festival.day.adding(days: 1)),
                             description: ChineseCalendar.text(of: almanac.lunarDate(on: festival.day), language: settings.language))
        event.source = Self.festivalSource
        return event
    }
}
