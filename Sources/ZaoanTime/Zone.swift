import ZaoanSystem

/// A zone as settings, requests and cities hold one: a tz database zone (`Asia/Shanghai`),
/// whose rules are read from the zoneinfo files by `ZoneInfoStore` when first used, or a
/// fixed offset from UTC (`GMT+0800`, as `UTC+8`, `GMT-05:30` are written in requests and the
/// config; the names Foundation gave such zones, kept so answers and configs stay the same).
///
///     Zone.named("Asia/Tokyo")      // the tz database's Asia/Tokyo, if its file reads
///     Zone.named("UTC+5:30")        // GMT+0530, always 5 h 30 min east of UTC
///     Zone.named("../etc/passwd")   // nil: not a zone name (ZoneName), no path is built
public struct Zone: Hashable, Sendable, CustomStringConvertible {
    /// `Asia/Shanghai`, `Etc/UTC`, `GMT+0800`.
    public let identifier: String
    /// A fixed-offset zone's seconds east of UTC; nil for a tz database zone.
    public let fixedOffset: Int?

    /// A tz database zone by a name already known good (the built-in cities' zones): its file
    /// is read on first use. `named(_:)` checks a name from outside.
    public init(tzName: String) {
        identifier = tzName
        fixedOffset = nil
    }

    private init(identifier: String, fixedOffset: Int?) {
        self.identifier = identifier
        self.fixedOffset = fixedOffset
    }

    /// UTC, under the tz database's name (its abbreviation is `UTC`, as `date` with `TZ=UTC`).
    public static let utc = Zone(tzName: "Etc/UTC")

    /// The zone a name from a request, the config or a calendar means, or nil: a fixed offset
    /// (`GMT+8`, `UTC-03:30`, up to 18 hours), else a tz database name (`ZoneName`'s rule)
    /// whose file `store` reads and parses. `UTC` is `Etc/UTC`.
    public static func named(_ name: String, store: ZoneInfoStore = .shared) -> Zone? {
        if let offset = fixedOffset(named: name) {
            return Zone(identifier: offsetIdentifier(offset), fixedOffset: offset)
        }
        let tzName = name == "UTC" ? "Etc/UTC" : name
        guard ZoneName.isValid(tzName), (try? store.zoneInfo(named: tzName)) != nil else { return nil }  // unreadable: not a zone
        return Zone(tzName: tzName)
    }

    /// The zone's rules: its tz database file as `ZoneInfoStore` keeps it, or its fixed
    /// offset. A tz zone whose file can no longer be read (removed since it was named) is
    /// UTC, under its own name's abbreviation, rather than no answer.
    public func info(store: ZoneInfoStore = .shared) -> ZoneInfo {
        if let fixedOffset { return .fixed(utcOffset: fixedOffset) }
        return (try? store.zoneInfo(named: identifier)) ?? .fixed(utcOffset: 0, abbreviation: "UTC")  // unreadable now: UTC, see above
    }

    /// The tz database name (`Asia/Shanghai`) that zone names in patterns (`zzzz`, `VVVV`)
    /// are looked up by; nil for a fixed offset, which has no name but its offset.
    public var tzName: String? { fixedOffset == nil ? identifier : nil }

    public var description: String { identifier }

    /// `GMT+0800`, `GMT-0530`: how a fixed offset is named.
    static func offsetIdentifier(_ offset: Int) -> String {
        let magnitude = abs(offset)
        let hours = magnitude / 3_600, minutes = magnitude / 60 % 60
        return "GMT" + (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours)" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// The offset a `GMT`/`UTC` name gives: `GMT+8`, `GMT+08`, `GMT+0800`, `GMT+8:00`,
    /// `UTC-05:30` (a sign, 1–2 digits of hours up to 18, then optionally 2 digits of minutes
    /// under 60, after a colon when the hours have one digit); nil for anything else.
    public static func fixedOffset(named name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 5, bytes.count <= 9, bytes.starts(with: "GMT".utf8) || bytes.starts(with: "UTC".utf8) else { return nil }
        let sign: Int
        switch bytes[3] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        let rest = bytes[4...]
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let hours: Int?, minutes: Int?
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
            guard (1...2).contains(colon - rest.startIndex), rest.endIndex - colon == 3 else { return nil }
            (hours, minutes) = (number(rest[..<colon]), number(rest[(colon + 1)...]))
        } else {
            switch rest.count {
            case 1, 2: (hours, minutes) = (number(rest), 0)
            case 4: (hours, minutes) = (number(rest.prefix(2)), number(rest.suffix(2)))
            default: return nil
            }
        }
        guard let hours, let minutes, hours <= 18, minutes < 60 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

extension Zone {
    /// The machine's zone, as the C library would take it for this process: `TZ` when it
    /// names a zone (`Asia/Tokyo`, `:Asia/Tokyo`, `UTC+8`), else the zone `/etc/localtime`
    /// links to (`ZoneLink`), else UTC.
    public static func system(environment: [String: String]) -> Zone {
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = named(name) { return zone }
        }
        // No link, or one that cannot be read: UTC, as the C library takes it.
        if let target = try? Posix.readLink(ZoneLink.path), let name = ZoneLink.zoneName(target: target), let zone = named(name) {
            return zone
        }
        return .utc
    }
}
