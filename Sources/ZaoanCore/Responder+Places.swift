
/// Where an answer is for: the configured city and zone, or one named in the request
/// (`greeting 东京`, `time HH:mm @Asia/Tokyo`, `status @New York`).
extension Responder {
    struct Place {
        /// What the greeting shows: a built-in city in the configured language, any other
        /// city as written, or a name for the zone.
        let name: String
        let zone: Zone
    }

    /// How many gazetteer cities named by requests are kept found.
    static let gazetteerCacheLimit = 64

    /// nil: the configured place. Otherwise a city (built-in or from the config, any of its
    /// names, in any case; a built-in one shown by its name in the configured language,
    /// `BuiltinCities.shownName`), else an IANA zone (`Asia/Tokyo`, `Etc/GMT-8`), shown by its city's name in
    /// the configured language or its last component, else a city of the gazetteer
    /// (`杭州`, `München`), shown as `Settings.gazetteerCity` names it.
    func place(_ spec: String?) throws(ProtocolError) -> Place {
        guard let spec else { return Place(name: settings.city, zone: settings.zone) }
        if let zone = settings.zone(forCity: spec) {
            return Place(name: BuiltinCities.shownName(spec, zone: zone.identifier, language: settings.language), zone: zone)
        }
        if let zone = Zone.named(spec) {
            return Place(name: BuiltinCities.name(forZone: zone.identifier, language: settings.language), zone: zone)
        }
        if let known = gazetteerCache[spec] { return known }
        let found = settings.gazetteerCity(spec)
        guard let city = found.place else {
            throw ProtocolError(.unknownCity, "unknown city or zone '\(RequestParser.shorten(spec))'\(found.unavailableNote); name an IANA zone such as Asia/Tokyo, or add the city to \"cities\" in the config with its IANA zone (`cities NAME` lists the cities of a name)")
        }
        let place = Place(name: city.name, zone: city.zone)
        if gazetteerCache.count >= Self.gazetteerCacheLimit { gazetteerCache.removeAll(keepingCapacity: true) }
        gazetteerCache[spec] = place
        return place
    }

    /// The zone of a request's place for the render cache; the configured zone when the
    /// place is unknown (the answer is then an error, whatever the period).
    func zone(of request: Request) -> Zone {
        switch request {
        case .text(.greeting, let city?), .zoned(let city, _):
            // An unknown place is answered with its error by `structured`; here it only needs
            // some zone to count render periods in.
            return (try? place(city))?.zone ?? settings.zone
        default: return settings.zone
        }
    }
}
