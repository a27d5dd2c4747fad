/// Wall-clock times in a zone and the instants that show them: usually one, two in the hour
/// the clocks go back, none in the hour they skip. Times are counted as seconds from
/// 1970-01-01 00:00 on the wall clock ("local seconds") in the proleptic Gregorian calendar,
/// and zones are the tz database's (`ZoneInfo`, the data `%Z` reads): no calendar object,
/// and nothing of the process's own zone, is involved. ZaoanCore adds the same functions
/// for a Foundation `TimeZone` (WallClock+TimeZone.swift), through `ZoneInfoStore`.
public enum WallClock {
    public enum Resolution: Equatable, Sendable {
        case unique(Int)
        /// Shown twice: first before the clocks go back, then again after.
        case repeated(first: Int, second: Int)
        /// Skipped when the clocks went forward by `gap` seconds. `moved` reads the time with
        /// the offset in force before the change, so it lands `gap` seconds later on the wall
        /// clock (02:30 on a day Berlin skips 02:00–03:00 becomes 03:30).
        case skipped(moved: Int, gap: Int)

        /// Every instant that answers for this wall-clock time, earliest first.
        public var instants: [Int] {
            switch self {
            case .unique(let instant): return [instant]
            case .repeated(let first, let second): return [first, second]
            case .skipped(let moved, _): return [moved]
            }
        }

        /// The instant used when one must be picked without a lean: the first of two, the
        /// moved one in a gap.
        public var first: Int { instants[0] }
    }

    /// The zone's offset from UTC at an instant, in seconds.
    public static func offset(_ zone: ZoneInfo, at instant: Int) -> Int {
        zone.localTimeType(at: instant).utcOffset
    }

    /// Wall-clock seconds at an instant.
    public static func local(_ instant: Int, in zone: ZoneInfo) -> Int {
        instant + offset(zone, at: instant)
    }

    /// The instants whose wall-clock time in `zone` is `local` (`ZoneInfo.instants`), with
    /// the rule for a skipped time: read with the offset in force before the jump.
    public static func resolve(_ local: Int, in zone: ZoneInfo) -> Resolution {
        switch zone.instants(atLocal: local) {
        case .unique(let instant):
            return .unique(instant)
        case .repeated(let instants):
            return instants.count > 1 ? .repeated(first: instants[0], second: instants[instants.count - 1]) : .unique(instants[0])
        case .skipped(let gap, let transition):
            return .skipped(moved: local - zone.localTimeType(at: transition - 1).utcOffset, gap: gap)
        }
    }

    /// The same rule for a zone known only by its offset at each instant, such as a calendar
    /// file's own VTIMEZONE: the offsets a day before and a day after are the candidates, so
    /// it finds every reading where the offset changes at most once in those 48 hours (the
    /// tz database's zones go through `resolve(_:in:)`, which finds every change). Where the
    /// zone cannot say its offset a day either side, the time is read as UTC.
    public static func resolve(_ local: Int, offsetAt offset: (Int) -> Int?) -> Resolution {
        guard let before = offset(local - 86_400), let after = offset(local + 86_400) else { return .unique(local) }
        let found = Set([local - before, local - after]).filter { offset($0) == local - $0 }.sorted()
        if found.count > 1 { return .repeated(first: found[0], second: found[found.count - 1]) }
        if let only = found.first { return .unique(only) }
        return .skipped(moved: local - before, gap: after - before)
    }

    /// Local seconds for a proleptic-Gregorian date and time of day.
    public static func localSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int {
        CivilCalendar.saturatingDays(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// `2026-03-29 02:30` for local seconds (seconds shown only when not zero).
    public static func describe(local: Int) -> String {
        let days = CivilCalendar.floorDivide(local, 86_400)
        let date = CivilCalendar.civil(daysSince1970: days)
        let (year, month, day) = (date.year, date.month, date.day)
        let second = local - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second % 3600 / 60))"
        if second % 60 != 0 { text += ":\(two(second % 60))" }
        return String(repeating: "0", count: max(0, 4 - String(year).count)) + text
    }

    /// `+02:00`, `-09:30`.
    package static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return sign + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
