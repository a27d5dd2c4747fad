/// Cities zaoan knows without configuration, by their name in each language (北京,
/// Beijing, Pékin, 베이징, ...). The config's `cities` adds to and overrides these.
public enum BuiltinCities {
    public struct City: Sendable {
        public let chinese: String
        public let english: String
        public let zone: String
        /// The name in every language but zh and en.
        public let other: [Language: String]

        /// The city's name in a language.
        public func name(in language: Language) -> String {
            switch language {
            case .zh: return chinese
            case .en: return english
            default: return other[language] ?? english
            }
        }
    }

    /// The first city listed for a zone is the one picked when the system zone is that zone.
    public static let all: [City] = [
        City(chinese: "北京", english: "Beijing", zone: "Asia/Shanghai",
             other: [.zhHant: "北京", .ja: "北京", .ko: "베이징", .de: "Peking", .fr: "Pékin", .es: "Pekín"]),
        City(chinese: "上海", english: "Shanghai", zone: "Asia/Shanghai",
             other: [.zhHant: "上海", .ja: "上海", .ko: "상하이", .de: "Shanghai", .fr: "Shanghai", .es: "Shanghái"]),
        City(chinese: "广州", english: "Guangzhou", zone: "Asia/Shanghai",
             other: [.zhHant: "廣州", .ja: "広州", .ko: "광저우", .de: "Kanton", .fr: "Canton", .es: "Cantón"]),
        City(chinese: "深圳", english: "Shenzhen", zone: "Asia/Shanghai",
             other: [.zhHant: "深圳", .ja: "深圳", .ko: "선전", .de: "Shenzhen", .fr: "Shenzhen", .es: "Shenzhen"]),
        City(chinese: "成都", english: "Chengdu", zone: "Asia/Shanghai",
             other: [.zhHant: "成都", .ja: "成都", .ko: "청두", .de: "Chengdu", .fr: "Chengdu", .es: "Chengdu"]),
        City(chinese: "香港", english: "Hong Kong", zone: "Asia/Hong_Kong",
             other: [.zhHant: "香港", .ja: "香港", .ko: "홍콩", .de: "Hongkong", .fr: "Hong Kong", .es: "Hong Kong"]),
        City(chinese: "台北", english: "Taipei", zone: "Asia/Taipei",
             other: [.zhHant: "臺北", .ja: "台北", .ko: "타이베이", .de: "Taipeh", .fr: "Taipei", .es: "Taipéi"]),
        City(chinese: "东京", english: "Tokyo", zone: "Asia/Tokyo",
             other: [.zhHant: "東京", .ja: "東京", .ko: "도쿄", .de: "Tokio", .fr: "Tokyo", .es: "Tokio"]),
        City(chinese: "首尔", english: "Seoul", zone: "Asia/Seoul",
             other: [.zhHant: "首爾", .ja: "ソウル", .ko: "서울", .de: "Seoul", .fr: "Séoul", .es: "Seúl"]),
        City(chinese: "新加坡", english: "Singapore", zone: "Asia/Singapore",
             other: [.zhHant: "新加坡", .ja: "シンガポール", .ko: "싱가포르", .de: "Singapur", .fr: "Singapour", .es: "Singapur"]),
        City(chinese: "孟买", english: "Mumbai", zone: "Asia/Kolkata",
             other: [.zhHant: "孟買", .ja: "ムンバイ", .ko: "뭄바이", .de: "Mumbai", .fr: "Bombay", .es: "Bombay"]),
        City(chinese: "迪拜", english: "Dubai", zone: "Asia/Dubai",
             other: [.zhHant: "杜拜", .ja: "ドバイ", .ko: "두바이", .de: "Dubai", .fr: "Dubaï", .es: "Dubái"]),
        City(chinese: "莫斯科", english: "Moscow", zone: "Europe/Moscow",
             other: [.zhHant: "莫斯科", .ja: "モスクワ", .ko: "모스크바", .de: "Moskau", .fr: "Moscou", .es: "Moscú"]),
        City(chinese: "柏林", english: "Berlin", zone: "Europe/Berlin",
             other: [.zhHant: "柏林", .ja: "ベルリン", .ko: "베를린", .de: "Berlin", .fr: "Berlin", .es: "Berlín"]),
        City(chinese: "巴黎", english: "Paris", zone: "Europe/Paris",
             other: [.zhHant: "巴黎", .ja: "パリ", .ko: "파리", .de: "Paris", .fr: "Paris", .es: "París"]),
        City(chinese: "伦敦", english: "London", zone: "Europe/London",
             other: [.zhHant: "倫敦", .ja: "ロンドン", .ko: "런던", .de: "London", .fr: "Londres", .es: "Londres"]),
        City(chinese: "纽约", english: "New York", zone: "America/New_York",
             other: [.zhHant: "紐約", .ja: "ニューヨーク", .ko: "뉴욕", .de: "New York", .fr: "New York", .es: "Nueva York"]),
        City(chinese: "芝加哥", english: "Chicago", zone: "America/Chicago",
             other: [.zhHant: "芝加哥", .ja: "シカゴ", .ko: "시카고", .de: "Chicago", .fr: "Chicago", .es: "Chicago"]),
        City(chinese: "洛杉矶", english: "Los Angeles", zone: "America/Los_Angeles",
             other: [.zhHant: "洛杉磯", .ja: "ロサンゼルス", .ko: "로스앤젤레스", .de: "Los Angeles", .fr: "Los Ángeles", .es: "Los Ángeles"]),
        City(chinese: "悉尼", english: "Sydney", zone: "Australia/Sydney",
             other: [.zhHant: "雪梨", .ja: "シドニー", .ko: "시드니", .de: "Sydney", .fr: "Sydney", .es: "Sídney"]),
        City(chinese: "协调世界时", english: "UTC", zone: "UTC",
             other: [.zhHant: "UTC", .ja: "UTC", .ko: "UTC", .de: "UTC", .fr: "UTC", .es: "UTC"]),
    ]

    /// Name → zone for every built-in city, under each of its names (the Latin ones also
    /// lowercased: `new york`, `pékin`).
    public static var byName: [String: String] { cityByName.mapValues(\.zone) }

    /// The built-in city a name names, in any of its languages and in any case (`new york`,
    /// `NEW YORK`, `ニューヨーク`, `Nueva York`); nil for any other name.
    public static func city(named name: String) -> City? {
        cityByName[name] ?? cityByName[name.lowercased()]
    }

    private static let cityByName: [String: City] = {
        var table: [String: City] = [:]
        table.reserveCapacity(all.count * Language.allCases.count * 2)
        for city in all {
            for language in Language.allCases {
                let name = city.name(in: language)
                table[name] = city
                let lowercased = name.lowercased()
                if lowercased != name { table[lowercased] = city }
            }
        }
        return table
    }()

    /// What a greeting calls a city typed as `name` in `zone`: a built-in city of that zone
    /// by its name in `language`, however it was typed (`new york` → ニューヨーク in ja; UTC
    /// stays UTC); any other name as written.
    public static func shownName(_ name: String, zone: String, language: Language) -> String {
        guard let city = city(named: name), city.zone == (zoneAliases[zone] ?? zone) else { return name }
        return city.zone == "UTC" ? "UTC" : city.name(in: language)
    }

    /// Other names of the built-in cities' zones in the tz database (`Etc/UTC` is UTC).
    static let zoneAliases = ["Etc/UTC": "UTC", "Etc/Universal": "UTC", "Universal": "UTC", "Zulu": "UTC",
                              "GMT": "UTC", "Etc/GMT": "UTC", "Etc/Zulu": "UTC",
                              "PRC": "Asia/Shanghai", "Asia/Chongqing": "Asia/Shanghai", "Asia/Harbin": "Asia/Shanghai"]

    /// A display name for a zone: a known city in the given language, else the zone's last
    /// component with underscores as spaces ("America/Argentina/Buenos_Aires" → "Buenos Aires").
    public static func name(forZone zone: String, language: Language) -> String {
        let canonical = zoneAliases[zone] ?? zone
        // UTC reads as UTC in every language: 协调世界时 is accepted as its name, but a
        // greeting does not spell it out.
        if canonical == "UTC" { return "UTC" }
        if let city = all.first(where: { $0.zone == canonical }) {
            return city.name(in: language)
        }
        let last = canonical.split(separator: "/").last.map(String.init) ?? canonical
        return last.replacing("_", with: " ")
    }
}
