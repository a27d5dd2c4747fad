/// The region a language is spoken in, as a user names it: the hour cycle of the default
/// clock follows it (CLDR's `en-US` is 12-hour, `en-GB` 24-hour).
extension Language {
    /// The region of a BCP 47 tag `Language(tag:)` reads, upper case (`en-GB` → `GB`,
    /// `es-419` → `419`, `zh-Hant-TW` → `TW`); nil when it names none or is not read.
    public static func region(ofTag tag: String) -> String? {
        guard Language(tag: tag) != nil else { return nil }
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
        return subtags.dropFirst().first { isRegion($0) }.map { $0.uppercased() }
    }

    /// The territory of the locale `fromEnvironment` reads (`en_GB.UTF-8` → `GB`), nil for
    /// none (`C`, `POSIX`, `de`).
    public static func regionFromEnvironment(_ environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let head = value.prefix { $0 != "." && $0 != "@" }
            let parts = head.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count > 1, isRegion(parts[1]) else { return nil }
            return parts[1].uppercased()
        }
        return nil
    }

    /// Whether the environment names a locale of a language (not unset, `C` or `POSIX`,
    /// whose clock glibc writes 24-hour).
    public static func namesLocale(_ environment: [String: String]) -> Bool {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let head = value.prefix { $0 != "." && $0 != "@" }
            return head != "C" && head != "POSIX"
        }
        return false
    }

    /// The language's own region, as `localeIdentifier` names it (`en` → `US`).
    public var defaultRegion: String {
        String(localeIdentifier.split(separator: "_").last ?? "")
    }

    private static func isRegion(_ text: Substring) -> Bool {
        (text.count == 2 && text.allSatisfy { $0.isASCII && $0.isLetter })
            || (text.count == 3 && text.allSatisfy { $0.isASCII && $0.isNumber })
    }
}
