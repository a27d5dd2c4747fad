import ZaoanText
import ZaoanTime

/// The hard ceilings on what one calendar may cost. Calendar files come from other people's
/// servers (through vdirsyncer) and invitations, so every loop over outside input has one.
public enum CalendarLimits {
    /// Bytes per `.ics` file. A 10,000-event export with 1,000 recurring series is about
    /// 3 MiB; 16 MiB leaves room for long descriptions and attachments' links.
    public static let bytesPerFile = 16 << 20
    /// Bytes of one content line after unfolding. Longer lines (a base64 attachment, a
    /// description of a novel) make the file refused, naming the line.
    public static let bytesPerLine = 1 << 20
    /// Content lines (properties, BEGIN and END) per file, counted before libical builds
    /// anything: libical keeps ~270 bytes per property, so 16 MiB of `X-A:b` lines (2.4
    /// million) cost 900 MB. A 10,000-event export is about 70,000 lines; this allows some
    /// 50,000 events in one file (about 110 MB in libical, in the reader process).
    public static let contentLinesPerFile = 400_000
    /// Components (BEGIN lines) per file: VEVENTs, VALARMs, VTIMEZONEs and their parts.
    public static let componentsPerFile = 60_000
    /// Nesting of BEGIN/END (VCALENDAR > VEVENT > VALARM is 3): deeper files are refused.
    public static let componentDepth = 8
    /// `.ics` files read from one folder (a vdir): the rest are left out and reported.
    public static let filesPerFolder = 10_000
    /// Events (VEVENTs, overrides included) kept from one source; the rest are reported.
    public static let eventsPerSource = 100_000
    /// Occurrences kept per expansion; the latest-starting are dropped and the cut reported.
    public static let occurrencesPerWindow = 10_000
    /// Steps of the recurrence engine (`RuleIterator`: a period or an instance looked at),
    /// per series and window. Rules without COUNT, or with one instance a period, jump
    /// straight to the window, so this guards rules with COUNT started long ago and BYxxx
    /// combinations that match rarely.
    public static let iterationsPerSeries = 50_000
    /// CPU seconds one series may spend in the engine for one window, checked between the
    /// instances it gives: a rule long to step through (FREQ=HOURLY;BYMINUTE=0,15,30,45 with
    /// COUNT from 1800) is cut short and reported. (libical's iterator, before issue 30,
    /// took 0.39 s over FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29 from 1800; the engine skips to it.)
    public static let cpuSecondsPerSeries = 0.05
    /// CPU seconds the expansion of one file may take in all: the series after that are
    /// left out and reported, so 10,000 costly series cost 2 s, not an hour.
    public static let cpuSecondsPerFile = 2.0
    /// Iterations over all series of one source and window, so 10,000 pathological series
    /// cannot each use their full share.
    public static let iterationsPerSource = 2_000_000
    /// The window when none is asked for, and the one recurring rooms are expanded over
    /// for the rotation: `calendar_window_hours`' default, from ZaoanText's `ScheduleDefaults`.
    public static let defaultWindowHours = ScheduleDefaults.calendarWindowHours
    public static let defaultWindowSeconds = Int64(defaultWindowHours) * 3600
    /// The longest window one expansion may cover: the longest window the service shows (31
    /// days, `calendar_window_hours` 744) and the hour its reader reads ahead of it (a
    /// reading begins at the hour, so files read earlier in the hour stay valid).
    public static let maximumWindowSeconds = Int64(ScheduleDefaults.maxHours) * 3600 + 3600
    /// Years a date may have. Outside them an event is skipped (and a window refused): far
    /// years cost time zone expansions, and year 99999 is a typo, not a plan.
    public static let years: ClosedRange<Int> = 1800...2400
    /// The same years as days since 1970-01-01.
    public static let days: ClosedRange<Int> = CivilCalendar.saturatingDays(year: years.lowerBound, month: 1, day: 1)
        ... CivilCalendar.saturatingDays(year: years.upperBound, month: 12, day: 31)
    /// Offset changes the RRULEs of one VTIMEZONE may give, over all its observances: two a
    /// year (a STANDARD and a DAYLIGHT) over `years`, what a zone with daylight saving needs
    /// from 1800 to 2400. A rule that gives more (FREQ=HOURLY, a VTIMEZONE of a thousand
    /// rules) is cut there, the changes after the cut never seen (`EmbeddedZoneRules`).
    public static let ruleOnsetsPerZone = 2 * years.count
    /// Offset changes one VTIMEZONE may list one by one: each observance's DTSTART and RDATEs
    /// (tzurl.org's full histories list at most a few hundred). Observances past the limit
    /// are left out.
    public static let listedOnsetsPerZone = 2_000
    /// Steps of the recurrence engine (as `iterationsPerSeries` counts them) for all the
    /// RRULEs of one VTIMEZONE: a yearly rule from 1800 to 2400 takes about 1,200.
    public static let iterationsPerZone = 50_000
    /// Longest event, in seconds (an all-day event of a year and a bit is still fine).
    public static let maximumEventSeconds: Int64 = 400 * 86_400
    /// A title or location: at most this many bytes of UTF-8 after safe-text (a room's
    /// title has the same limit)...
    public static let titleBytes = TextLimits.titleBytes
    /// ...and at most this many Characters (grapheme clusters).
    public static let titleCharacters = 120
    /// A description, lines kept.
    public static let descriptionBytes = 4096
    /// A URL, kept raw; a longer one is dropped rather than cut (a cut URL is a wrong URL).
    public static let urlBytes = TextLimits.urlBytes
    /// A UID, kept for matching overrides and for the consumer's identity of an occurrence.
    public static let uidBytes = TextLimits.uidBytes
    /// A recurrence rule as the user types it (`repeat=` has the same limit).
    public static let ruleBytes = TextLimits.ruleBytes
    /// EXDATEs and RDATEs per event.
    public static let datesPerEvent = 10_000
}
