import Foundation

/// `WallClock` for the Foundation `TimeZone` that settings and requests hold: the zone's
/// rules always come from the tz database (`ZoneInfoStore`, the zone read once), never
/// from Foundation's own offsets.
extension WallClock {
    /// The zone as the tz database has it (the same data `%Z` reads), kept by the shared
    /// `ZoneInfoStore`.
    static func zoneInfo(_ zone: TimeZone, near instant: Int) -> ZoneInfo {
        ZoneInfoStore.shared.zoneInfo(for: zone, at: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// The zone's offset from UTC at an instant, in seconds.
    public static func offset(_ zone: TimeZone, at instant: Int) -> Int {
        offset(zoneInfo(zone, near: instant), at: instant)
    }

    /// Wall-clock seconds at an instant.
    public static func local(_ instant: Int, in zone: TimeZone) -> Int {
        instant + offset(zone, at: instant)
    }

    /// The instants whose wall-clock time in `zone` is `local`; see `resolve(_:in:)`.
    public static func resolve(_ local: Int, in zone: TimeZone) -> Resolution {
        resolve(local, in: zoneInfo(zone, near: local))
    }

    /// What `live show` says about a wall-clock time that was not simply one instant;
    /// nil when it was.
    public static func note(local: Int, chosen: Int, zone: TimeZone) -> String? {
        let when = describe(local: local)
        switch resolve(local, in: zone) {
        case .unique:
            return nil
        case .skipped(_, let gap):
            return "\(when) does not exist in \(zone.identifier) (the clocks go forward \(DurationText.spoken(seconds: gap))); "
                + "moved forward by the gap to \(describe(local: Self.local(chosen, in: zone)))"
        case .repeated(let first, _):
            let which = chosen == first ? "the first, before the clocks go back" : "the second, after the clocks go back"
            return "\(when) happens twice in \(zone.identifier); this is \(which) (UTC\(offsetText(offset(zone, at: chosen))))"
        }
    }
}

extension TimeZone {
    /// The zone of an IANA name, checked by the one zone-name rule (`ZoneName`) before
    /// Foundation sees it, or one of Foundation's fixed offsets (`GMT+0800`). Foundation
    /// turns `UTC` into `GMT`, whose tz abbreviation is `GMT`, where `date` with `TZ=UTC`
    /// says `UTC`: `UTC` is taken as `Etc/UTC`, the same zone under a name Foundation keeps.
    public static func named(_ identifier: String) -> TimeZone? {
        guard ZoneInfoStore.isFoundationFixedOffset(identifier) || ZoneName.isValid(identifier) else { return nil }
        return TimeZone(identifier: identifier == "UTC" ? "Etc/UTC" : identifier)
    }
}
