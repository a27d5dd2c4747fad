extension WallClock {
    /// What `live show` says about a wall-clock time that was not simply one instant;
    /// nil when it was.
    public static func note(local: Int, chosen: Int, zone: Zone) -> String? {
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
