/// `WallClock` for the `Zone` that settings and requests hold: the zone's rules always come
/// from the tz database (`ZoneInfoStore`, each file read once) or its fixed offset.
extension WallClock {
    /// The zone's offset from UTC at an instant, in seconds.
    public static func offset(_ zone: Zone, at instant: Int) -> Int {
        offset(zone.info(), at: instant)
    }

    /// Wall-clock seconds at an instant.
    public static func local(_ instant: Int, in zone: Zone) -> Int {
        instant + offset(zone, at: instant)
    }

    /// The instants whose wall-clock time in `zone` is `local`; see `resolve(_:in:)`.
    public static func resolve(_ local: Int, in zone: Zone) -> Resolution {
        resolve(local, in: zone.info())
    }
}
