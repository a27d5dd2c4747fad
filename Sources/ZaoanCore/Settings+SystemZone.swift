
extension Settings {
    /// These settings with the machine's zone changed to `zone` (`/etc/localtime` replaced,
    /// or its zone file rewritten): the zone, and the city named after it, as `resolving`
    /// makes them when neither `timezone` nor `city` is set. Settings whose zone the config
    /// gave (`followsSystemZone` false) are returned as they are.
    public func withSystemZone(_ zone: Zone) -> Settings {
        guard followsSystemZone else { return self }
        var settings = self
        if let added = systemZoneCity { settings.cities[added] = nil }
        settings.zone = zone
        settings.city = BuiltinCities.name(forZone: zone.identifier, language: language)
        if settings.cities[settings.city] == nil {
            settings.cities[settings.city] = zone
            settings.systemZoneCity = settings.city
        } else {
            settings.systemZoneCity = nil
        }
        return settings
    }
}
