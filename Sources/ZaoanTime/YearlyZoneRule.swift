/// A zone's clock changes as a rule that repeats every year, the way an iCalendar VTIMEZONE
/// writes them (`RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`): what `event add` puts beside a
/// DTSTART with a TZID, so that khal, Thunderbird or a CalDAV server read the same wall
/// clock as the zone has, for every instance of a repeating event.
///
/// Made from the TZif file's footer (the POSIX TZ rule that holds after its last listed
/// transition) and only when that rule is what the file says for the years asked about: a
/// "fat" file lists the same changes up to 2037, a zone whose rules changed lately (or whose
/// footer counts days as `Jn`) has none, and then the caller writes UTC instead.
public struct YearlyZoneRule: Equatable, Sendable {
    /// One change: to daylight time, or back to standard time.
    public struct Change: Equatable, Sendable {
        /// 1...12.
        public let month: Int
        /// 1...4, or -1 for the last such weekday of the month (POSIX's week 5).
        public let week: Int
        /// 0 = Sunday ... 6 = Saturday.
        public let weekday: Int
        /// The offsets before and after, and the abbreviation after.
        public let offsetFrom: Int
        public let offsetTo: Int
        public let abbreviation: String
        /// The first change in the first year asked about, as the wall clock before it
        /// showed it (local seconds since 1970-01-01 00:00): the observance's DTSTART.
        public let firstLocalStart: Int
    }

    /// Standard time: the offset and abbreviation outside daylight time (all year without it).
    public let standard: LocalTimeType
    /// Both or neither.
    public let toDaylight: Change?
    public let toStandard: Change?
}

extension ZoneInfo {
    /// The rule that holds from January 1 of `year` on, checked against the zone itself for
    /// `year` and the `checkedYears - 1` years after; nil when the zone has no such rule
    /// (see `YearlyZoneRule`).
    package func yearlyRule(from year: Int, checkedYears: Int = 3) -> YearlyZoneRule? {
        let years = year...(year + max(1, checkedYears) - 1)
        guard let footer else {
            // A fixed zone (`ZoneInfo.fixed`, or a file of one type): one offset for ever.
            guard transitions.isEmpty, types.count == 1 else { return nil }
            return YearlyZoneRule(standard: types[0], toDaylight: nil, toStandard: nil)
        }
        guard let daylight = footer.daylight else {
            for checked in years {
                let newYear = CivilCalendar.saturatingDays(year: checked, month: 1, day: 1) * 86_400
                for instant in [newYear, newYear + 182 * 86_400] where localTimeType(at: instant).utcOffset != footer.standard.utcOffset {
                    return nil
                }
            }
            return YearlyZoneRule(standard: footer.standard, toDaylight: nil, toStandard: nil)
        }
        guard case .weekdayOfMonth(let startMonth, let startWeek, let startWeekday) = daylight.start,
              case .weekdayOfMonth(let endMonth, let endWeek, let endWeekday) = daylight.end,
              (0..<86_400).contains(daylight.startTime), (0..<86_400).contains(daylight.endTime) else { return nil }
        let standard = footer.standard.utcOffset
        let summer = daylight.type.utcOffset
        for checked in years {
            guard let changes = footer.changes(inYear: checked) else { return nil }
            guard localTimeType(at: changes.start - 1).utcOffset == standard, localTimeType(at: changes.start).utcOffset == summer,
                  localTimeType(at: changes.end - 1).utcOffset == summer, localTimeType(at: changes.end).utcOffset == standard else { return nil }
        }
        guard let first = footer.changes(inYear: year) else { return nil }
        return YearlyZoneRule(
            standard: footer.standard,
            toDaylight: .init(month: startMonth, week: startWeek == 5 ? -1 : startWeek, weekday: startWeekday, offsetFrom: standard, offsetTo: summer,
                              abbreviation: daylight.type.abbreviation, firstLocalStart: first.start + standard),
            toStandard: .init(month: endMonth, week: endWeek == 5 ? -1 : endWeek, weekday: endWeekday, offsetFrom: summer, offsetTo: standard,
                              abbreviation: footer.standard.abbreviation, firstLocalStart: first.end + summer))
    }
}
