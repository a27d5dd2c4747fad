/// The span of time an expansion covers: [from, to) in Unix seconds.
public struct CalendarWindow: Equatable, Sendable, CustomStringConvertible {
    public let from: Int64
    public let to: Int64

    /// Instants a window may touch: the whole of `CalendarLimits.years`, in UTC.
    public static let instants: ClosedRange<Int64> = {
        let first = Int64(CalendarLimits.days.lowerBound) * 86_400
        let last = Int64(CalendarLimits.days.upperBound) * 86_400 + 86_399
        return first...last
    }()

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// A window of at most `CalendarLimits.maximumWindowSeconds`, inside the supported years.
    public init(from: Int64, to: Int64) throws(Failure) {
        guard Self.instants.contains(from), Self.instants.contains(to) else {
            throw Failure(description: "the window must lie within the years \(CalendarLimits.years.lowerBound)–\(CalendarLimits.years.upperBound)")
        }
        guard from < to else { throw Failure(description: "the window ends before it starts") }
        guard to - from <= CalendarLimits.maximumWindowSeconds else {
            throw Failure(description: "a window is at most \(CalendarLimits.maximumWindowSeconds / 3600) hours long")
        }
        self.from = from
        self.to = to
    }

    /// A window of any length (`from < to`, both inside `instants`): where the expander must
    /// look beyond one window (the instances a RANGE=THISANDFUTURE override moves into it).
    package init(unchecked from: Int64, _ to: Int64) {
        precondition(from < to)
        self.from = from
        self.to = to
    }

    /// The next `CalendarLimits.defaultWindowSeconds` (48 hours) from `now`.
    public static func following(_ now: Int64) throws(Failure) -> CalendarWindow {
        try CalendarWindow(from: now, to: now.addingClamped(CalendarLimits.defaultWindowSeconds))
    }

    /// Whether an occurrence [start, end) shows in the window: it overlaps it, or, lasting
    /// no time at all (RFC 5545: a DTSTART with neither DTEND nor DURATION), starts in it.
    public func shows(start: Int64, end: Int64) -> Bool {
        start < to && (end > from || (end <= start && start >= from))
    }

    public var description: String { "[\(from), \(to))" }
}

extension Int64 {
    /// Sum that stops at the ends of Int64 instead of trapping (outside input meets arithmetic).
    public func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    package func multipliedClamped(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : product
    }
}
