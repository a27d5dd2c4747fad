import ZaoanTime

/// China's public holidays in `schedule` (`"workdays": "cn"`): each break an all-day event
/// from the configured zone's midnight of its first day to the midnight after its last, under
/// the source `holiday-cn`. Only `schedule` lists them: a holiday is not something to count
/// down to in a bar (`"festivals": true` puts the festivals there).
extension Responder {
    /// The breaks touching `from` … `to`, as events in order.
    func holidayEvents(from: Instant, to: Instant) -> [LiveRoom] {
        guard let workdays = settings.month.workdays, to > from else { return [] }
        let zone = settings.zone
        func day(_ date: Instant) -> CivilDay {
            let instant = date.unixSeconds
            return CivilDay(unixSeconds: Double(instant), offsetSeconds: WallClock.offset(zone, at: instant))
        }
        func start(of day: CivilDay) -> Instant {
            Instant(secondsSince1970: Double(WallClock.resolve(day.daysSince1970 &* 86_400, in: zone).first))
        }
        let words = WorkdayWords.forLanguage(settings.language)
        // The window's days, at most the longest schedule's (744 hours) and a day.
        let first = day(from)
        let last = min(day(to), first.adding(days: 32))
        return workdays.breaks(from: first, to: last).map { found in
            var event = LiveRoom(id: "holiday:\(found.first):\(found.holiday.rawValue)", title: words.name(of: found.holiday),
                                 start: start(of: found.first), end: start(of: found.last.adding(days: 1)),
                                 description: words.text(.holiday, found.holiday))
            event.source = SourceName.holidays
            return event
        }
    }
}
