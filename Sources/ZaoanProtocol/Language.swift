/// The language answers are written in. The raw value is the BCP 47 tag the config, the
/// logs and `check-config` show (`zh-Hant`); `Language(tag:)` reads the forms a user writes.
public enum Language: String, Sendable, Codable, CaseIterable {
    /// Simplified Chinese, mainland wording (zh_CN).
    case zh
    case en
    /// Traditional Chinese, Taiwan and Hong Kong wording (zh_TW).
    case zhHant = "zh-Hant"
    case ja
    case ko
    case de
    case fr
    case es

    /// The locale identifier used for date formatting in this language (ICU, and the glibc
    /// locale whose LC_TIME `strftime` follows).
    public var localeIdentifier: String {
        switch self {
        case .zh: return "zh_CN"
        case .en: return "en_US"
        case .zhHant: return "zh_TW"
        case .ja: return "ja_JP"
        case .ko: return "ko_KR"
        case .de: return "de_DE"
        case .fr: return "fr_FR"
        case .es: return "es_ES"
        }
    }

    /// Whether this is one of the Chinese languages (which share the Chinese calendar's own
    /// wording and the unspaced `·`).
    public var isChinese: Bool { self == .zh || self == .zhHant }

    /// The tags `language` accepts, for error messages: `"zh", "zh-Hant", ...`.
    public static let acceptedTags = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    /// The longest tag read; anything longer is refused unread.
    public static let maxTagLength = 35

    /// Reads a BCP 47 tag, case-insensitively, `_` taken for `-`: a language zaoan speaks,
    /// then optionally a script (`Hans`, `Hant`: only after `zh`), a region (two letters or
    /// three digits) and nothing else. `zh-Hant`, `zh-TW`, `zh-HK` and `zh-MO` are
    /// Traditional Chinese; `zh-Hans`, `zh-CN`, `zh-SG` and `zh` Simplified; a script given
    /// beats the region (`zh-Hant-CN` is Traditional). `de-AT`, `fr-CA`, `es-MX` are German,
    /// French and Spanish. Nil for anything else.
    public init?(tag: String) {
        guard !tag.isEmpty, tag.utf8.count <= Self.maxTagLength else { return nil }
        var subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)
        let primary = subtags.removeFirst()
        var script: String?
        if let first = subtags.first, first.count == 4, first.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
            script = first
            subtags.removeFirst()
        }
        var region: String?
        if let first = subtags.first,
           (first.count == 2 && first.allSatisfy({ $0 >= "a" && $0 <= "z" })) || (first.count == 3 && first.allSatisfy({ $0 >= "0" && $0 <= "9" })) {
            region = first
            subtags.removeFirst()
        }
        guard subtags.isEmpty else { return nil }
        switch primary {
        case "zh":
            switch script {
            case "hant"?: self = .zhHant
            case "hans"?: self = .zh
            case nil: self = ["tw", "hk", "mo"].contains(region ?? "") ? .zhHant : .zh
            default: return nil
            }
        case "en", "ja", "ko", "de", "fr", "es":
            guard script == nil, let language = Language(rawValue: primary) else { return nil }
            self = language
        default:
            return nil
        }
    }

    /// Reads the language the way gettext does: LC_ALL, then LC_MESSAGES, then LANG (the
    /// first one set). A POSIX locale name (`ja_JP.UTF-8`, `zh_TW.Big5`, `de_AT@euro`) is
    /// read by its language and territory: `zh_TW`, `zh_HK`, `zh_MO` are Traditional Chinese,
    /// anything else starting with `zh` Simplified; `ja`, `ko`, `de`, `fr`, `es` with any territory those
    /// languages; `C`, `POSIX`, English and anything unknown English.
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return fromLocaleName(value)
            }
        }
        return .en
    }

    /// `ja_JP.UTF-8` → ja: the part before any `.codeset` or `@modifier`, read as a tag.
    static func fromLocaleName(_ name: String) -> Language {
        let head = name.prefix { $0 != "." && $0 != "@" }
        let parts = head.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        let language = parts[0].lowercased()
        let territory = parts.count > 1 ? parts[1].lowercased() : ""
        // Any other value starting with zh stays Chinese, as it always was.
        if language.hasPrefix("zh") { return language == "zh" && ["tw", "hk", "mo"].contains(territory) ? .zhHant : .zh }
        return ["ja", "ko", "de", "fr", "es"].contains(language) ? Language(rawValue: language) ?? .en : .en
    }
}
