/// The language answers are written in.
public enum Language: String, Sendable, Codable, CaseIterable {
    case zh
    case en

    /// The locale identifier used for date formatting in this language.
    public var localeIdentifier: String {
        switch self {
        case .zh: return "zh_CN"
        case .en: return "en_US"
        }
    }

    /// Reads the language the way gettext does: LC_ALL, then LC_MESSAGES, then LANG.
    /// A value starting with `zh` means Chinese; anything else, or nothing, English.
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return value.lowercased().hasPrefix("zh") ? .zh : .en
            }
        }
        return .en
    }
}
