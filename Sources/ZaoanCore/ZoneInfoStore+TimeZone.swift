import Foundation

extension ZoneInfoStore {
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
}
