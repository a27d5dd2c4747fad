import ZaoanCore

/// The machine's zone, followed as it changes while the config gives none (neither
/// `timezone` nor `city`) and the service's environment has no `TZ` (set, it wins, as it
/// does for every program, and is not followed).
extension Server {
    /// Starts or stops following the machine's zone as `settings` ask, and returns them with
    /// the zone the machine has now (at start, `Zone.system`'s reading of TZ and the link;
    /// after a reload, the follower's latest reading of the link).
    func followSystemZone(_ settings: Settings) -> Settings {
        guard settings.followsSystemZone, options.environment["TZ"] == nil else {
            systemZone?.stop()
            return settings
        }
        if systemZone == nil {
            guard !systemZoneUnavailable else { return settings }
            do {
                systemZone = try SystemZoneFollower(loop: loop) { [unowned self] zone in self.systemZoneChanged(zone) }
            } catch {
                systemZoneUnavailable = true  // said once: it is not tried again
                Log.warning("the machine's zone: cannot follow it (\(error)); a new zone shows after a restart. Set \"timezone\" in the config to choose the zone")
                return settings
            }
        }
        return settings.withSystemZone(systemZone!.start(inForce: settings.zone))
    }

    /// The link or the zone file changed: the new zone (or the zone's new rules) in force
    /// for every answer, and every watch re-rendered now.
    func systemZoneChanged(_ zone: Zone) {
        let settings = responder.settings
        guard settings.followsSystemZone else { return }
        putInForce(settings.withSystemZone(zone))
        statusChanged()
    }
}
