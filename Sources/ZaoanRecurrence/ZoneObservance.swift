import ZaoanTime

/// One STANDARD or DAYLIGHT of a VTIMEZONE (RFC 5545 §3.6.5) as its file writes it: when
/// its offset begins — DTSTART, on the wall clock of the offset before it, then each
/// instance of its RRULE and each RDATE — and what the offset is from then on. Plain values:
/// the calendar reader fills them from libical's component, tests from their own text;
/// `EmbeddedZoneRules` works out the zone's changes from them.
public struct ZoneObservance: Hashable, Sendable {
    /// A time as an observance writes it, in any year the file has (Outlook writes 1601).
    public enum Onset: Hashable, Sendable {
        /// A wall clock (in the TZOFFSETFROM frame), as seconds since 1970-01-01 00:00 read
        /// as UTC.
        case wall(Int64)
        /// A UTC time (`...Z`): the instant itself.
        case utc(Int64)
    }

    /// DTSTART on the wall clock of TZOFFSETFROM, as seconds since 1970-01-01 00:00 read as
    /// UTC (`wallSeconds`).
    public var start: Int64
    /// TZOFFSETFROM and TZOFFSETTO in seconds east of UTC; nil where the file has none.
    public var offsetFrom: Int?
    public var offsetTo: Int?
    /// TZNAME (`CET`, `EDT`), if any.
    public var name: String?
    /// The RRULE value as written (`FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10`), read by
    /// `RuleParts` when the zone is built.
    public var rule: String?
    /// RDATEs.
    public var extraOnsets: [Onset]

    public init(start: Int64, offsetFrom: Int?, offsetTo: Int?, name: String? = nil, rule: String? = nil,
                extraOnsets: [Onset] = []) {
        self.start = start
        self.offsetFrom = offsetFrom
        self.offsetTo = offsetTo
        self.name = name
        self.rule = rule
        self.extraOnsets = extraOnsets
    }

    /// The offsets RFC 5545's UTC-OFFSET can write (±HHMM[SS], hours 00 to 23): a day less
    /// a second either way. An observance with an offset beyond them is not used, as
    /// libical would not use it: no clock was ever 99 hours from UTC.
    public static let offsets: ClosedRange<Int> = -86_399...86_399

    /// The wall clocks an observance may name: the years 0000 to 9999 a DATE-TIME can write.
    public static let starts: ClosedRange<Int64> = wallSeconds(year: 0, month: 1, day: 1)!...wallSeconds(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)!

    /// Whether the zone can use this observance: DTSTART within `starts`, and both offsets
    /// given and within `offsets` (RFC 5545 requires them).
    public var isUsable: Bool {
        guard let offsetFrom, let offsetTo else { return false }
        return Self.starts.contains(start) && Self.offsets.contains(offsetFrom) && Self.offsets.contains(offsetTo)
    }

    /// A date and time written in a file, as seconds since 1970-01-01 00:00 read as UTC; nil
    /// if there is no such date or time. Any year (a VTIMEZONE's DTSTART of 1601 too); a
    /// leap second (60) is read as 59.
    public static func wallSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64? {
        guard (0...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              let days = CivilCalendar.daysSince1970(year: year, month: month, day: day) else { return nil }
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
    }
}
