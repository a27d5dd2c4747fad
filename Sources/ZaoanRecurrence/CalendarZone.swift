import ZaoanSystem
import ZaoanTime

/// A time zone for wall clocks: an IANA zone from the system's tz database, UTC, or a
/// VTIMEZONE embedded in a file.
///
/// System zones are read by the one time engine (`ZoneInfoStore`, the reader `%Z`, the
/// wall clock of rooms and every other zone of zaoan use), so a zone has the same offsets in
/// a calendar as everywhere else. A file's own VTIMEZONE is that file's data: its
/// observances are expanded by zaoan's recurrence engine (`EmbeddedZoneRules`).
public struct CalendarZone: CustomStringConvertible {
    /// The IANA name, or the TZID of an embedded VTIMEZONE.
    public let name: String
    package let rules: Rules
    /// For an embedded VTIMEZONE whose TZID is an IANA name: the system's zone of that name,
    /// for the instants before the VTIMEZONE's first observance (an export often starts at
    /// the year it was made, and the file alone would read earlier times with the first
    /// observance's TZOFFSETFROM, all year round).
    private let earlier: (zone: ZoneInfo, until: Int64)?

    /// Where the offsets come from.
    package enum Rules {
        /// The tz database's zone.
        case system(ZoneInfo)
        /// A VTIMEZONE's observances, expanded once.
        case embedded(EmbeddedZoneRules)
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badName(String)
        case unknown(String)

        public var description: String {
            switch self {
            case .badName(let name): return "'\(SafeName.short(name))' is not a time zone name (like Europe/Berlin)"
            case .unknown(let name): return "unknown time zone '\(SafeName.short(name))'"
            }
        }
    }

    /// The IANA zone `name` (`Europe/Berlin`, `America/New_York`, `UTC`).
    ///
    /// The name is checked (`ZoneName`, the one rule) before the tz database reader opens
    /// `/usr/share/zoneinfo/NAME`: a name from a calendar file must not lead it elsewhere
    /// (`../`, absolute paths) or to a FIFO.
    public init(named name: String) throws(Failure) {
        if let known = Self.found.withLock({ Self.builtin[name] }) {
            self = known
            return
        }
        guard ZoneName.isValid(name) else { throw .badName(name) }
        guard let info = try? ZoneInfoStore.shared.zoneInfo(named: name) else { throw .unknown(name) }
        self.name = name
        rules = .system(info)
        earlier = nil
        let made = self
        Self.found.withLock {
            if Self.builtin.count < 1024 { Self.builtin[name] = made }
        }
    }

    /// Zones already found by name (the store keeps them too, but only its last 64; this
    /// saves the check and the lookup for each of 10,000 events), under `found`: a room's
    /// expansion on the loop and the calendar reader may look at once.
    nonisolated(unsafe) private static var builtin: [String: CalendarZone] = [:]
    private static let found = Lock()

    public static var utc: CalendarZone { CalendarZone(name: "UTC", rules: .system(utcRules)) }
    private static let utcRules = ZoneInfo.fixed(utcOffset: 0, abbreviation: "UTC")

    package init(name: String, rules: Rules) {
        self.name = name
        self.rules = rules
        earlier = nil
    }

    /// Whether `other` reads wall clocks by the same rules: the same system zone, or the
    /// same VTIMEZONE.
    package func isSameZone(as other: CalendarZone) -> Bool {
        switch (rules, other.rules) {
        case (.system, .system): return name == other.name
        case (.embedded(let a), .embedded(let b)): return a == b
        default: return false
        }
    }

    /// A VTIMEZONE's own definition of its TZID; nil if none of its observances is usable
    /// (`EmbeddedZoneRules`), and the TZID is then read as if the file had no VTIMEZONE.
    /// Where the TZID is an IANA name the system knows, instants before the first
    /// observance are read in the system's zone.
    package init?(embedded tzid: String, observances: [ZoneObservance]) {
        guard let rules = EmbeddedZoneRules(observances: observances) else { return nil }
        name = tzid
        self.rules = .embedded(rules)
        // A TZID that is no IANA name has no system data to fall back on: the file's own
        // definition then covers the earlier times too (as before issue 19).
        // A TZID that is no zone name is not an error: the file's definition alone is used.
        if let system = try? CalendarZone(named: tzid), case .system(let info) = system.rules {
            earlier = (info, rules.firstOnset)
        } else {
            earlier = nil
        }
    }

    /// The wall clock here at `instant` (Unix seconds); nil outside `CalendarLimits.years`.
    public func wallClock(at instant: Int64) -> LocalDateTime? {
        // Far instants are no calendar's: the years' instants and a day either side (no
        // zone is a day from UTC), where the wall clock's own year decides.
        guard instant >= CalendarWindow.instants.lowerBound - 86_400, instant <= CalendarWindow.instants.upperBound + 86_400 else { return nil }
        if let earlier, instant < earlier.until {
            return Self.wallClock(at: instant, in: earlier.zone)
        }
        switch rules {
        case .system(let info): return Self.wallClock(at: instant, in: info)
        case .embedded(let rules): return LocalDateTime(secondsAsIfUTC: instant + Int64(rules.offset(at: instant)))
        }
    }

    /// The tz database's wall clock (`instant` is within the years and a day, so the sum
    /// cannot overflow).
    private static func wallClock(at instant: Int64, in zone: ZoneInfo) -> LocalDateTime? {
        LocalDateTime(secondsAsIfUTC: instant + Int64(zone.localTimeType(at: Int(instant)).utcOffset))
    }

    /// Seconds this zone is ahead of UTC at `instant`.
    package func offset(at instant: Int64) -> Int64? {
        wallClock(at: instant).map { $0.secondsAsIfUTC - instant }
    }

    /// The instant this wall clock shows `wall`, as RFC 5545 (3.3.5) reads wall clocks and
    /// as zaoan reads them everywhere (`WallClock.Resolution.first`, the one rule): a time
    /// that occurs twice (clocks set back) is the first of the two; a time that never occurs
    /// (clocks set forward) is read with the offset from before the gap, so 02:30 on a
    /// spring-forward day in Berlin is 03:30 CEST. A tz database zone finds its readings
    /// from its transitions, a file's VTIMEZONE from its offsets a day either side.
    ///
    /// (libical's conversion, used before issue 30, picked the second of a repeated time
    /// and read a skipped one with the later offset, 02:30 → 01:30 CET.)
    public func instant(of wall: LocalDateTime) -> Int64 {
        let local = Int(wall.secondsAsIfUTC)  // within the years: far from Int's ends
        let resolution: WallClock.Resolution
        if earlier == nil, case .system(let info) = rules {
            resolution = WallClock.resolve(local, in: info)
        } else {
            resolution = WallClock.resolve(local) { instant in offset(at: Int64(instant)).map { Int($0) } }
        }
        return Int64(resolution.first)
    }

    public var description: String { name }
}

/// Names from outside shown in error messages: safe and short.
package enum SafeName {
    package static func short(_ text: String) -> String {
        CalendarText.oneLine(text, maxBytes: 80, maxCharacters: 60) ?? ""
    }
}
