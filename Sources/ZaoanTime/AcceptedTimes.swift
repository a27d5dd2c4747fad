/// The one table of times zaoan accepts, from a request, a state file or a config file.
/// Everything outside is refused (`ERR bad-argument` naming the range, or a dropped room
/// with a log line) before any arithmetic is done on it, so no conversion can trap.
/// docs/protocol.md ("Accepted times") documents the same table.
///
/// | what | range |
/// |---|---|
/// | an instant (`ago`, a TIME argument) | years 0001–9999, proleptic Gregorian, UTC |
/// | a room's start and end | 1970-01-01T00:00:00Z – 9999-12-31T23:59:59Z |
/// | a relative offset (`+90m`, `-3d`) | at most 100 years (36,525 days) either way |
/// | `@UNIX` | seconds within the range of what it is used for |
public enum AcceptedTimes {
    /// A closed range of Unix seconds with a name to quote in errors.
    public struct Window: Sendable, Equatable {
        public let earliest: Int
        public let latest: Int
        /// How the range reads to a user, e.g. "0001-01-01 to 9999-12-31 UTC".
        public let description: String

        public func contains(_ seconds: Int) -> Bool { seconds >= earliest && seconds <= latest }

        /// Fractional seconds, as a `Date` holds them: the last second counts whole.
        public func contains(seconds: Double) -> Bool {
            seconds >= Double(earliest) && seconds <= Double(latest) + 0.999_999
        }
    }

    /// The years an instant may have: 0001–9999, proleptic Gregorian, UTC.
    public static let years: ClosedRange<Int> = 1...9999
    /// 0001-01-01T00:00:00Z.
    public static let firstInstant = CivilCalendar.saturatingDays(year: years.lowerBound, month: 1, day: 1) * 86_400
    /// 9999-12-31T23:59:59Z.
    public static let lastInstant = CivilCalendar.saturatingDays(year: years.upperBound, month: 12, day: 31) * 86_400 + 86_399

    /// Instants in arguments: `ago TIME`, and the times requests take.
    public static let instant = Window(earliest: firstInstant, latest: lastInstant,
                                       description: "\(day(firstInstant)) to \(day(lastInstant)) UTC")
    /// A live room's start and end: from 1970 on.
    public static let room = Window(earliest: 0, latest: lastInstant, description: "\(day(0)) to \(day(lastInstant)) UTC")

    /// `0001-01-01`: the UTC day of an instant, as the windows' descriptions name it.
    private static func day(_ instant: Int) -> String {
        let date = CivilCalendar.civil(daysSince1970: CivilCalendar.floorDivide(instant, 86_400))
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))"
    }
    /// The largest relative offset, in seconds: 100 years of 365.25 days.
    public static let maxOffsetSeconds = 36_525 * 86_400
}

extension Int {
    /// Whole seconds, rounded down, from a `TimeInterval` that may be anything a clock or a
    /// decoder produced: NaN becomes 0, and values are clamped to ±2^62 instead of trapping,
    /// which leaves room to add a zone offset or a day without overflow.
    public init(clampingSeconds value: Double) {
        let limit = 4_611_686_018_427_387_904.0  // 2^62
        if value.isNaN {
            self = 0
        } else if value >= limit {
            self = 1 << 62
        } else if value <= -limit {
            self = -(1 << 62)
        } else {
            self = Int(value.rounded(.down))
        }
    }
}
