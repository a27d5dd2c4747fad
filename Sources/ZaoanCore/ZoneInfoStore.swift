import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ZaoanSystem

/// Reads tz database zones from the zoneinfo directory, once each, and keeps them. The one
/// place in the core that reads files: the zone files are the system's read-only data, read
/// the way Foundation's `TimeZone` reads them, and the rest of the core stays pure
/// (`ZoneInfo(tzif:)` parses bytes).
///
/// Safe by construction: a name is checked before any path is built (tz names only, no `..`,
/// no leading `/`), only regular files are read (a FIFO is never waited on: the file is
/// opened non-blocking and checked before reading), at most 256 KiB, and the process's `TZ`
/// is never consulted. Thread-safe; at most `capacity` zones (and failures) are kept.
public final class ZoneInfoStore: @unchecked Sendable {
    /// The process-wide store over /usr/share/zoneinfo.
    public static let shared = ZoneInfoStore()

    public let directory: String
    public let capacity: Int
    private let lock = NSLock()
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

    /// The longest zone name accepted (the longest in the tz database has 32 characters).
    static let maxNameLength = 64

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
            try Self.validate(name: name)
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

    /// The rules for a Foundation time zone as the tz database has them. Fixed offsets
    /// (`TimeZone(secondsFromGMT:)`, identifiers like `GMT+0800`) become fixed zones named
    /// the way the tz database names them (`+08`); a zone the zoneinfo directory lacks
    /// becomes the fixed offset Foundation gives for `date`, so an answer is still given.
    public func zoneInfo(for zone: TimeZone, at date: Date) -> ZoneInfo {
        let identifier = zone.identifier
        if Self.isFoundationFixedOffset(identifier) {
            return .fixed(utcOffset: zone.secondsFromGMT(for: date))
        }
        // A zone Foundation knows without a readable TZif file (or with a broken one) is still
        // answered, with Foundation's offset at that time; the name was checked when the zone
        // was made (config or request), and the failure is kept in the cache, not retried.
        if let info = try? zoneInfo(named: identifier) {
            return info
        }
        return .fixed(utcOffset: zone.secondsFromGMT(for: date))
    }

    /// `GMT+0800`, `GMT-05:30`, `UTC+1`: Foundation's names for fixed offsets, which mean the
    /// opposite sign of the POSIX-style `Etc/GMT+8` files, so they are never looked up.
    static func isFoundationFixedOffset(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard bytes.count > 4, bytes.starts(with: "GMT".utf8) || bytes.starts(with: "UTC".utf8) else { return false }
        return bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-")
    }

    /// Refuses anything but a tz database name: 1 to 64 characters of `A-Z a-z 0-9 / _ + -`,
    /// no leading, trailing or doubled `/`, and no `.` or `..` component.
    static func validate(name: String) throws(ZoneInfoError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maxNameLength else {
            throw ZoneInfoError("a zone name has 1 to \(maxNameLength) characters")
        }
        for byte in bytes {
            let allowed = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            guard allowed else { throw ZoneInfoError("a zone name has only letters, digits, '/', '_', '+' and '-'") }
        }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard bytes.first != UInt8(ascii: "/"), !components.contains(where: { $0.isEmpty || $0.elementsEqual("..".utf8) || $0.elementsEqual(".".utf8) }) else {
            throw ZoneInfoError("a zone name is a relative path without empty, '.' or '..' parts")
        }
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
