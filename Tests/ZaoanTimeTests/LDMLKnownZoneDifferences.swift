@testable import ZaoanTime

/// Where ICU names zones from data Babel 2.17.0 does not carry (metaZones.xml's primaryZones,
/// mapTimezones and dated history; tzdb's region of a zone), or from CLDR 46's, or where
/// Foundation hands ICU another zone than the one named. Each entry puts ICU's datum in and
/// must then give ICU's answer (LDMLKnownDifferences).
enum LDMLKnownZoneDifferences {
    typealias Entry = LDMLKnownDifferences.Entry

    /// metaZones.xml's instants are UTC.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int) -> Int {
        WallClock.localSeconds(year: year, month: month, day: day, hour: hour)
    }

    static let entries: [Entry] = [
        Entry(name: "Foundation's TimeZone(identifier: \"UTC\") is ICU's GMT zone (ICU: VV GMT, z GMT, zzzz Greenwich Mean Time)",
              fields: "zvV", language: nil, cldr46: ["GMT"], cldr47: ["UTC"],
              variant: { $0.identifier = $1[0] }, wordsInAnswers: false, zones: ["UTC"]),
        Entry(name: "primary zones (metaZones.xml primaryZones, not in Babel): Asia/Shanghai, Europe/Berlin and Europe/Madrid "
                    + "are their countries' zone, so named by country, not city",
              fields: "vV", language: nil, cldr46: ["CN", "DE", "ES"], cldr47: [],
              variant: { variant, regions in variant.zoneData.singleZoneRegions.formUnion(regions) },
              wordsInAnswers: false, zones: ["Asia/Shanghai", "Europe/Berlin", "Europe/Madrid"]),
        Entry(name: "ICU 76 names CN 中国大陆/China mainland in zone names, CLDR 47 (Babel) 中国/China",
              fields: "vV", language: nil,
              cldr46: ["中国大陆", "中國大陸", "China mainland", "中国本土", "중국 본토", "China, Festland", "Chine continentale",
                       "China continental"],
              cldr47: [],
              variant: { variant, names in
                  variant.zoneWords.regionNames["CN"] = names[LDMLLanguage.allCases.firstIndex(of: variant.language) ?? 0]
              }, wordsInAnswers: false, zones: ["Asia/Shanghai"]),
        Entry(name: "partial locations (metaZones.xml mapTimezones, not in Babel): Europe_Central's zone is Europe/Paris, "
                    + "Germany's Europe/Berlin, Spain's Europe/Madrid; Europe_Western's Atlantic/Canary",
              fields: "v", language: nil, cldr46: ["Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Atlantic/Canary"], cldr47: [],
              variant: { variant, zones in
                  variant.zoneData.referenceZones["Europe_Central"] = zones[0]
                  variant.zoneData.referenceZones["Europe_Central/DE"] = zones[1]
                  variant.zoneData.referenceZones["Europe_Central/ES"] = zones[2]
                  variant.zoneData.referenceZones["Europe_Western"] = zones[3]
              }, wordsInAnswers: false, zones: ["Europe/Berlin", "Europe/Madrid", "Europe/Paris", "Africa/Casablanca"]),
        Entry(name: "fr short metazone names (HEP, HNR, …): in CLDR 47's fr, not in ICU 76's",
              fields: "zv", language: .fr, cldr46: [], cldr47: [],
              variant: { variant, _ in
                  for (metazone, names) in variant.zoneWords.metazoneNames {
                      variant.zoneWords.metazoneNames[metazone] = Array(names.prefix(3))
                  }
              }, wordsInAnswers: false),
        Entry(name: "Antarctica/Troll's region: AQ in tzdb's zone.tab (ICU), 001 in CLDR's (Babel)",
              fields: "vV", language: nil, cldr46: ["AQ"], cldr47: ["001"],
              variant: { $0.zoneData.regions["Antarctica/Troll"] = $1[0] }, wordsInAnswers: false, zones: ["Antarctica/Troll"]),
        Entry(name: "metazone history: Britain and Ireland had none from 1968-10-27 to 1971-10-31 (British Standard Time)",
              fields: "zv", language: nil, cldr46: [], cldr47: ["GMT"],
              variant: { variant, _ in
                  variant.zoneData.metazones["Europe/London"] = nil
                  variant.zoneData.metazones["Europe/Dublin"] = nil
              }, wordsInAnswers: false, zones: ["Europe/London", "Europe/Dublin"], before: utc(1971, 10, 31, 2)),
        Entry(name: "metazone history: Africa/Casablanca was Europe_Western until 2018-10-28",
              fields: "zv", language: nil, cldr46: ["Europe_Western"], cldr47: [],
              variant: { $0.zoneData.metazones["Africa/Casablanca"] = $1[0] }, wordsInAnswers: false,
              zones: ["Africa/Casablanca"], before: utc(2018, 10, 28, 2)),
        Entry(name: "metazone history: Australia/Lord_Howe was Australia_Eastern until 1981-02-28",
              fields: "zv", language: nil, cldr46: ["Australia_Eastern"], cldr47: ["Lord_Howe"],
              variant: { $0.zoneData.metazones["Australia/Lord_Howe"] = $1[0] }, wordsInAnswers: false,
              zones: ["Australia/Lord_Howe"], before: utc(1981, 2, 28, 14)),
    ]
}
