import ZaoanSystem


/// Where "now" comes from. The service reads the wall clock; tests pass a fixed instant.
public protocol TimeSource: Sendable {
    var now: Instant { get }
}

extension TimeSource {
    /// Now in whole Unix seconds, rounded down (clamped, never trapping).
    public var unixSeconds: Int { now.unixSeconds }
}

/// The system's wall clock (`CLOCK_REALTIME`, so `faketime` and `date -s` affect it).
public struct SystemTimeSource: TimeSource {
    public init() {}
    public var now: Instant { Instant.now }
}

/// A clock that says whatever the test sets.
public final class FixedTimeSource: TimeSource, @unchecked Sendable {
    private let lock = Lock()
    private var instant: Instant
    public init(_ instant: Instant) { self.instant = instant }
    public var now: Instant {
        get { lock.withLock { instant } }
        set { lock.withLock { instant = newValue } }
    }
}
