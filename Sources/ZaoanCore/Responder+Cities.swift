import ZaoanText

/// `cities NAME`: every city of the gazetteer with that name (any of its names, normalized
/// as `CityName.key`), most populous first, the one `greeting NAME` picks on the first line.
extension Responder {
    /// Lines listed at most; a last line says how many more there are.
    static let citiesListed = 50

    /// `NAME<TAB>COUNTRY<TAB>POPULATION<TAB>ZONE` a city, NAME as a greeting would show it.
    func citiesAnswer(name: String) throws(ProtocolError) -> Answer {
        let shown = RequestParser.shorten(name)
        guard let gazetteer = settings.gazetteer else {
            throw ProtocolError(.unknownCity, "this service has no gazetteer of other cities; add '\(shown)' to \"cities\" in the config with its IANA zone")
        }
        switch gazetteer.cities(named: name, limit: Self.citiesListed) {
        case .unavailable(let why):
            throw ProtocolError(.unknownCity, "the gazetteer of other cities is unavailable: \(SafeText.visible(why)); add '\(shown)' to \"cities\" in the config with its IANA zone, or reinstall zaoan")
        case .found(let cities, let total):
            guard !cities.isEmpty else {
                throw ProtocolError(.unknownCity, "no city called '\(shown)' (GeoNames' cities of 15,000 people or more, built-in and config cities aside); check the spelling, name an IANA zone such as Asia/Tokyo, or add it to \"cities\" in the config with its IANA zone")
            }
            var lines = cities.map { city in
                [city.shownName(in: settings.language), city.country, String(city.population), city.zone]
                    .map(SafeText.visible).joined(separator: "\t")
            }
            if total > cities.count { lines.append("… and \(total - cities.count) more") }
            return Answer(lines: lines)
        }
    }
}
