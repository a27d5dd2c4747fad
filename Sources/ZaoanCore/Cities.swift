/// Cities zaoan knows without configuration, by Chinese and English name.
/// The config's `cities` adds to and overrides these.
public enum BuiltinCities {
    public struct City: Sendable {
        public let chinese: String
        public let english: String
        public let zone: String
    }

    /// The first city listed for a zone is the one picked when the system zone is that zone.
    public static let all: [City] = [
        City(chinese: "北京", english: "Beijing", zone: "Asia/Shanghai"),
        City(chinese: "上海", english: "Shanghai", zone: "Asia/Shanghai"),
        City(chinese: "广州", english: "Guangzhou", zone: "Asia/Shanghai"),
        City(chinese: "深圳", english: "Shenzhen", zone: "Asia/Shanghai"),
        City(chinese: "成都", english: "Chengdu", zone: "Asia/Shanghai"),
        City(chinese: "香港", english: "Hong Kong", zone: "Asia/Hong_Kong"),
        City(chinese: "台北", english: "Taipei", zone: "Asia/Taipei"),
        City(chinese: "东京", english: "Tokyo", zone: "Asia/Tokyo"),
        City(chinese: "首尔", english: "Seoul", zone: "Asia/Seoul"),
        City(chinese: "新加坡", english: "Singapore", zone: "Asia/Singapore"),
        City(chinese: "孟买", english: "Mumbai", zone: "Asia/Kolkata"),
        City(chinese: "迪拜", english: "Dubai", zone: "Asia/Dubai"),
        City(chinese: "莫斯科", english: "Moscow", zone: "Europe/Moscow"),
        City(chinese: "柏林", english: "Berlin", zone: "Europe/Berlin"),
        City(chinese: "巴黎", english: "Paris", zone: "Europe/Paris"),
        City(chinese: "伦敦", english: "London", zone: "Europe/London"),
        City(chinese: "纽约", english: "New York", zone: "America/New_York"),
        City(chinese: "芝加哥", english: "Chicago", zone: "America/Chicago"),
        City(chinese: "洛杉矶", english: "Los Angeles", zone: "America/Los_Angeles"),
        City(chinese: "悉尼", english: "Sydney", zone: "Australia/Sydney"),
        City(chinese: "协调世界时", english: "UTC", zone: "UTC"),
    ]

    /// Name → zone for every built-in city, under both names (English also lowercased).
    public static let byName: [String: String] = {
        var table: [String: String] = [:]
        for city in all {
            table[city.chinese] = city.zone
            table[city.english] = city.zone
            table[city.english.lowercased()] = city.zone
        }
        return table
    }()

    /// A display name for a zone: a known city in the given language, else the zone's last
    /// component with underscores as spaces ("America/Argentina/Buenos_Aires" → "Buenos Aires").
    public static func name(forZone zone: String, language: Language) -> String {
        let aliases = ["Etc/UTC": "UTC", "Etc/Universal": "UTC", "Universal": "UTC", "Zulu": "UTC",
                       "GMT": "UTC", "Etc/GMT": "UTC", "Etc/Zulu": "UTC",
                       "PRC": "Asia/Shanghai", "Asia/Chongqing": "Asia/Shanghai", "Asia/Harbin": "Asia/Shanghai"]
        let canonical = aliases[zone] ?? zone
        // UTC reads as UTC in both languages: 协调世界时 is accepted as its name, but a
        // greeting does not spell it out.
        if canonical == "UTC" { return "UTC" }
        if let city = all.first(where: { $0.zone == canonical }) {
            return language == .zh ? city.chinese : city.english
        }
        let last = canonical.split(separator: "/").last.map(String.init) ?? canonical
        return last.replacingOccurrences(of: "_", with: " ")
    }
}
