
/// What the gazetteer says of a name: a city (its name as shown and its zone), none, or
/// that it could not be asked.
struct GazetteerLookup {
    var place: (name: String, zone: Zone)?
    /// Why the gazetteer could not be asked, when it could not.
    var unavailable: String?

    /// `" (the gazetteer is unavailable: ...)"` after an unknown city, or nothing.
    var unavailableNote: String {
        unavailable.map { " (the gazetteer of other cities is unavailable: \($0))" } ?? ""
    }
}

extension Settings {
    /// Cities of one name looked at for the first whose zone this machine has (its tzdata
    /// may lack a zone newer than the gazetteer's).
    static let gazetteerCandidates = 8

    /// The most populous city of the gazetteer called `name` (any of its names, normalized),
    /// shown by CLDR's name in `language` if it is its zone's exemplar city, else as typed
    /// in GeoNames' spelling (`münchen` → `München`).
    static func gazetteerCity(_ name: String, in gazetteer: (any CityGazetteer)?, language: Language) -> GazetteerLookup {
        guard let gazetteer else { return GazetteerLookup() }
        switch gazetteer.cities(named: name, limit: gazetteerCandidates) {
        case .unavailable(let why):
            return GazetteerLookup(unavailable: why)
        case .found(let cities, _):
            for city in cities {
                if let zone = Zone.named(city.zone) { return GazetteerLookup(place: (city.shownName(in: language), zone)) }
            }
            return GazetteerLookup()
        }
    }

    /// `gazetteerCity` with the settings' gazetteer and language.
    func gazetteerCity(_ name: String) -> GazetteerLookup {
        Self.gazetteerCity(name, in: gazetteer, language: language)
    }
}
