/// What the LDML engine knows of zones beyond their offsets, from CLDR 47 (generated in
/// LDMLZoneWords+CLDR.swift by scripts/generate/ldml-zones.py): each zone's region and
/// metazone, the tz links CLDR names by another id, and the regions with one zone only. A
/// value, so that LDMLKnownDifferences can render with ICU's older mappings in its place.
package struct LDMLZoneData: Sendable {
    /// CLDR canonical zone id → its region ("001" for none, as CLDR writes it).
    var regions: [String: String]
    /// CLDR canonical zone id → the metazone it uses now (metaZones.xml's current mapping).
    var metazones: [String: String]
    /// A zone id CLDR does not use (Asia/Kolkata, UTC) → the canonical one (Asia/Calcutta, Etc/UTC).
    var aliases: [String: String]
    var singleZoneRegions: Set<String>
    /// Each metazone's reference zone ("America_Pacific" → America/Los_Angeles), and a
    /// region's own ("Europe_Central/DE" → Europe/Berlin): CLDR's mapTimezones, which Babel
    /// does not carry, so empty here. Where one is known, a zone whose offset differs from its
    /// reference zone's gets ICU's partial location (`Central European Time (Germany)`).
    var referenceZones: [String: String] = [:]
    /// ICU counts a metazone as in use from this instant on where CLDR gives no start:
    /// 1970-01-01 00:00 UTC (ICU's zonemeta.cpp default). Before it a zone has no metazone.
    var metazoneStart = 0

    /// No data, for a pattern without zone names (see `LDMLZoneWords.unused`).
    static let unused = LDMLZoneData(regions: [:], metazones: [:], aliases: [:], singleZoneRegions: [])

    package static let cldr: LDMLZoneData = {
        var regions: [String: String] = [:]
        var metazones: [String: String] = [:]
        for row in LDMLTable.rows(cldrZones) where row.count == 3 {
            regions[row[0]] = row[1]
            if !row[2].isEmpty { metazones[row[0]] = row[2] }
        }
        return LDMLZoneData(regions: regions, metazones: metazones, aliases: LDMLTable.pairs(cldrAliases),
                            singleZoneRegions: Set(cldrSingleZoneRegions.split(separator: " ").map(String.init)))
    }()

    /// The CLDR canonical id of a tz zone name, or nil for one CLDR does not know (then the
    /// zone has no names, as a fixed-offset zone has none).
    func canonical(_ identifier: String?) -> String? {
        guard let identifier else { return nil }
        if let canonical = aliases[identifier] { return canonical }
        return regions[identifier] == nil ? nil : identifier
    }

    func metazone(of canonical: String, at instant: Int) -> String? {
        instant >= metazoneStart ? metazones[canonical] : nil
    }
}

/// One language's words for zones, from CLDR 47: metazone and zone names, exemplar cities,
/// the names of the regions, the regionFormat (`{0}时间`) and the unknown city.
package struct LDMLZoneWords: Sendable {
    /// CLDR's name kinds, in the order the tables give them.
    enum Kind: Int {
        case longGeneric, longStandard, longDaylight, shortGeneric, shortStandard, shortDaylight
    }

    /// The language's region (zh: CN): ICU picks a metazone's reference zone for it.
    let region: String
    let regionFormat: String
    /// `{1} ({0})`: a metazone's name `{1}` and a place `{0}` (ICU's partial location).
    let fallbackFormat: String
    let unknownCity: String
    var metazoneNames: [String: [String]]
    var zoneNames: [String: [String]]
    var cities: [String: String]
    var regionNames: [String: String]

    init(region: String, regionFormat: String, fallbackFormat: String, unknownCity: String, metazoneNames: String, zoneNames: String, cities: String,
         regions: String) {
        self.region = region
        self.regionFormat = regionFormat
        self.fallbackFormat = fallbackFormat
        self.unknownCity = unknownCity
        self.metazoneNames = LDMLTable.named(metazoneNames)
        self.zoneNames = LDMLTable.named(zoneNames)
        self.cities = LDMLTable.pairs(cities)
        self.regionNames = LDMLTable.pairs(regions)
    }

    /// A language's words: its tables are read the first time a pattern of that language
    /// names a zone (the generated `static let` of each language is made on first use).
    package static func words(for language: LDMLLanguage) -> LDMLZoneWords {
        cldr(language)
    }

    /// No words: what a pattern without zone names (`z`, `v`, `V`) is rendered with, so
    /// that the tables are read only when a pattern needs them.
    static let unused = LDMLZoneWords(region: "", regionFormat: "", fallbackFormat: "", unknownCity: "", metazoneNames: "",
                                      zoneNames: "", cities: "", regions: "")

    func metazoneName(_ metazone: String, _ kind: Kind) -> String? {
        Self.entry(metazoneNames[metazone], kind)
    }

    func zoneName(_ canonical: String, _ kind: Kind) -> String? {
        Self.entry(zoneNames[canonical], kind)
    }

    private static func entry(_ names: [String]?, _ kind: Kind) -> String? {
        guard let names, names.indices.contains(kind.rawValue), !names[kind.rawValue].isEmpty else { return nil }
        return names[kind.rawValue]
    }

    /// The exemplar city: CLDR's, else the id's last part with spaces for "_" (none for
    /// Etc/ zones and ids without a "/"), as ICU derives it.
    func city(_ canonical: String) -> String? {
        if let city = cities[canonical] { return city }
        guard !canonical.hasPrefix("Etc/"), let slash = canonical.lastIndex(of: "/") else { return nil }
        let last = canonical[canonical.index(after: slash)...]
        return last.isEmpty ? nil : String(last.map { $0 == "_" ? " " : $0 })
    }

    /// regionFormat around `place`: the generator checked it holds `{0}` once.
    func inRegionFormat(_ place: String) -> String {
        regionFormat.replacingPlaceholders(place)
    }
}

/// The generated tables' form: a line per entry, a tab between its parts.
enum LDMLTable {
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    static func pairs(_ text: String) -> [String: String] {
        var pairs: [String: String] = [:]
        for row in rows(text) where row.count == 2 { pairs[row[0]] = row[1] }
        return pairs
    }

    static func named(_ text: String) -> [String: [String]] {
        var named: [String: [String]] = [:]
        for row in rows(text) where row.count > 1 { named[row[0]] = Array(row.dropFirst()) }
        return named
    }
}

extension String {
    /// The pattern with `{0}` and `{1}` (each at most once, as the generator checked)
    /// replaced by the values given.
    func replacingPlaceholders(_ zero: String, _ one: String = "") -> String {
        var text = ""
        var rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let tail = rest[open...]
            if tail.hasPrefix("{0}") {
                text += zero
            } else if tail.hasPrefix("{1}") {
                text += one
            } else {
                text += "{"
                rest = tail.dropFirst()
                continue
            }
            rest = tail.dropFirst(3)
        }
        return text + rest
    }
}
