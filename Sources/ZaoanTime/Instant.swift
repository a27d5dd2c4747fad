#if canImport(Glibc)
import Glibc
#endif

/// A moment in time: seconds since 1970-01-01 00:00 UTC, with a fraction, on the system's
/// wall clock (`CLOCK_REALTIME`). The service's "now" and every instant it compares, adds to
/// or formats; zones and calendars turn it into wall-clock fields (`WallClock`, `Zone`).
/// Without Foundation: a `Double` as Foundation's `Date` keeps, so an instant and the
/// arithmetic on it are what they were when the service used `Date`.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00 UTC; may be negative, and is whatever a caller made
    /// (take whole seconds with `Int(clampingSeconds:)`, which never traps).
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Whole seconds since 1970, as most of the service counts (clamped, never trapping).
    public init(unixSeconds: Int) {
        secondsSince1970 = Double(unixSeconds)
    }

    /// The wall clock now (`CLOCK_REALTIME`: `date -s` and `faketime` move it).
    public static var now: Instant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Instant(secondsSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    /// Whole seconds since 1970, rounded down (clamped to ±2^62, NaN as 0).
    public var unixSeconds: Int { Int(clampingSeconds: secondsSince1970) }

    /// The nanoseconds past `unixSeconds`, what the LDML engine takes beside them (`S`).
    public var nanosecondsPastUnixSeconds: Int {
        Int(clampingSeconds: (secondsSince1970 - Double(unixSeconds)) * 1e9)
    }

    /// `seconds` later (earlier when negative).
    public func adding(seconds: Double) -> Instant {
        Instant(secondsSince1970: secondsSince1970 + seconds)
    }

    /// Seconds from `other` to this instant (negative when this one is earlier).
    public func seconds(since other: Instant) -> Double {
        secondsSince1970 - other.secondsSince1970
    }

    /// Before every instant a clock or a file gives (year −100,000 or so).
    public static let distantPast = Instant(secondsSince1970: -3_200_000_000_000)
    /// After every instant a clock or a file gives.
    public static let distantFuture = Instant(secondsSince1970: 3_200_000_000_000)

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// `1733270400.5`: the seconds, for logs and test failures.
    public var description: String { "\(secondsSince1970)" }
}
