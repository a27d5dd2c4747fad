import ZaoanSystem
import ZaoanTime

/// One caller of libical at a time (see `LibICal`: it keeps global state): the service's
/// calendar reader holds it while it parses and expands files. Nothing else takes it since
/// recurrences and zones are zaoan's own engine's (issue 30): a recurring room's expansion
/// touches no libical, and the caches it shares are locked where they are kept.
public enum LibICalLock {
    private static let lock = Lock()

    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }
}
