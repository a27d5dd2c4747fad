import ZaoanProtocol
import ZaoanText

/// The default clock (`time` without a pattern, `{time}`, the greeting's tooltip): 12- or 24-hour as CLDR 47 writes
/// the short time of the language's region (`CLDRWords.twelveHourRegions`), or as
/// `hour_cycle` says. 12-hour is the language's CLDR `hm` pattern (`h:mm a`, `aaaa h:mm`,
/// `Bh:mm`); 24-hour is `HH:mm` in every language, the hour padded so a bar's clock keeps
/// its width.
public enum HourCycle: String, CaseIterable, Sendable {
    case h12, h23

    /// CLDR's for `language` spoken in `region` (upper case; nil: the language's own).
    public static func preferred(_ language: Language, region: String?) -> HourCycle {
        CLDRWords.twelveHourRegions(language).contains(region ?? language.defaultRegion) ? .h12 : .h23
    }

    /// The default clock's LDML pattern in `language`.
    public func clockPattern(_ language: Language) -> String {
        self == .h12 ? CLDRWords.twelveHourClock(language) : "HH:mm"
    }
}

extension Settings {
    /// `hour_cycle` over the region's; a value neither `h12` nor `h23` costs only itself:
    /// the region's stands, and the message says which and what was meant.
    /// `posix`: no language named anywhere (LANG unset, `C`, `POSIX`): 24-hour, as glibc's
    /// C locale writes its clock.
    static func hourCycle(_ file: ConfigFile, language: Language, region: String?, posix: Bool, problems: inout ProblemList) -> HourCycle {
        let preferred = posix ? .h23 : HourCycle.preferred(language, region: region)
        guard let word = file[string: .hourCycle] else { return preferred }
        if let cycle = HourCycle(rawValue: word.lowercased()) { return cycle }
        let names = HourCycle.allCases.map(\.rawValue)
        let hint = Spelling.suggestion(for: word.lowercased(), among: names).map { "; did you mean '\($0)'?" } ?? ""
        problems.add(ConfigError(key: ConfigKey.hourCycle.name,
                                 problem: "'\(RequestParser.shorten(word))' is not \"h12\" or \"h23\"\(hint) (\(preferred.rawValue), \(posix ? "the C locale" : language.rawValue + "-" + (region ?? language.defaultRegion))'s, stands)"),
                     .defaultUsed)
        return preferred
    }
}
