#if canImport(Glibc)
import Glibc
#endif
import ZaoanSystem

/// Reads tz database zones from the zoneinfo directory, once each, and keeps them. The one
/// place in the core that reads files: the zone files are the system's read-only data, read
/// the way Foundation's `TimeZone` reads them, and the rest of the core stays pure
/// (`ZoneInfo(tzif:)` parses bytes).
///
/// Safe by construction: a name is checked before any path is built (`ZoneName`), only regular files are read (a FIFO is never waited on: the file is
/// opened non-blocking and checked before reading), at most 256 KiB, and the process's `TZ`
/// is never consulted. Thread-safe; at most `capacity` zones (and failures) are kept.
public final class ZoneInfoStore: @unchecked Sendable {
    /// The process-wide store over /usr/share/zoneinfo.
    public static let shared = ZoneInfoStore()

    public let directory: String
    public let capacity: Int
    private let lock = Lock()
    /// Loaded zones and refusals by name, and the names in the order they were added.
    private var entries: [String: Result<ZoneInfo, ZoneInfoError>] = [:]
    private var order: [String] = []
    private var reads = 0

    /// Zone files read so far (a zone is read once, however often it is asked for).
    public var fileReads: Int {
        lock.lock()
        defer { lock.unlock() }
        return reads
    }

    public init(directory: String = "/usr/share/zoneinfo", capacity: Int = 64) {
        self.directory = directory
        self.capacity = max(1, capacity)
    }

    /// The zone `name` (`Europe/Berlin`), read and parsed on first use.
    public func zoneInfo(named name: String) throws(ZoneInfoError) -> ZoneInfo {
        lock.lock()
        defer { lock.unlock() }
        if let known = entries[name] { return try known.get() }
        let result: Result<ZoneInfo, ZoneInfoError>
        do throws(ZoneInfoError) {
            try ZoneName.check(name)
            reads += 1
            result = .success(try ZoneInfo(tzif: Self.readZoneFile(directory + "/" + name)))
        } catch {
            result = .failure(error)
        }
        if entries.count >= capacity, !order.isEmpty {
            entries[order.removeFirst()] = nil
        }
        entries[name] = result
        order.append(name)
        return try result.get()
    }

    /// Reads the zone `name` again from its file (a tzdata upgrade rewrote it) and keeps
    /// what it reads from now on. Returns whether the rules differ from the ones kept
    /// before; a zone not kept before is read and kept, and is no change. A file that
    /// cannot be read or parsed throws and leaves what was kept in force.
    @discardableResult
    public func refresh(named name: String) throws(ZoneInfoError) -> Bool {
        try ZoneName.check(name)
        let fresh = try ZoneInfo(tzif: Self.readZoneFile(directory + "/" + name))
        lock.lock()
        defer { lock.unlock() }
        reads += 1
        let kept = entries[name]
        if kept == nil {
            if entries.count >= capacity, !order.isEmpty { entries[order.removeFirst()] = nil }
            order.append(name)
        }
        entries[name] = .success(fresh)
        if case .success(let old)? = kept { return old != fresh }
        return false
    }

    /// Reads a regular file of at most `ZoneInfo.maxFileSize` bytes without ever blocking
    /// on it (a FIFO or device is refused after opening it non-blocking): `RegularFile.read`.
    static func readZoneFile(_ path: String) throws(ZoneInfoError) -> [UInt8] {
        do throws(RegularFile.ReadFailure) {
            return try RegularFile.read(path, limit: ZoneInfo.maxFileSize)
        } catch {
            switch error {
            case .missing: throw ZoneInfoError("no zone file \(path)")
            case .notRegular: throw ZoneInfoError("\(path) is not a regular file")
            case .tooLarge: throw ZoneInfoError("\(path) is larger than \(ZoneInfo.maxFileSize) bytes")
            case .untrusted(let why): throw ZoneInfoError("\(path) is \(why)")
            case .system(let failure): throw ZoneInfoError("cannot read \(path): \(String(cString: strerror(failure.errno)))")
            }
        }
    }
}
