import ZaoanSystem

/// A point on the monotonic clock by which something must be done.
public struct Deadline: Sendable {
    public let seconds: Double
    public let at: Double

    public init(after seconds: Double) {
        self.seconds = seconds
        self.at = Posix.monotonicSeconds() + seconds
    }

    public var remaining: Double { at - Posix.monotonicSeconds() }
    public var hasPassed: Bool { remaining <= 0 }

    /// For poll(2): milliseconds left, rounded up, at least 0.
    public var pollMilliseconds: Int32 { Posix.pollMilliseconds(until: at) }
}
