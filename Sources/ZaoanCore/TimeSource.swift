import Foundation

/// Where "now" comes from. The service reads the wall clock; tests pass a fixed instant.
public protocol TimeSource: Sendable {
    var now: Date { get }
}

extension TimeSource {
    /// Now in whole Unix seconds, rounded down (clamped, never trapping).
    public var unixSeconds: Int { Int(clampingSeconds: now.timeIntervalSince1970) }
}

/// The system's wall clock (`CLOCK_REALTIME`, so `faketime` and `date -s` affect it).
public struct SystemTimeSource: TimeSource {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that says whatever the test sets.
public final class FixedTimeSource: TimeSource, @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date
    public init(_ instant: Date) { self.instant = instant }
    public var now: Date {
        get { lock.withLock { instant } }
        set { lock.withLock { instant = newValue } }
    }
}
