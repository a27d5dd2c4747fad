/// What names a calendar — the config's `name`, a vdir's `displayname` file, a file's
/// `X-WR-CALNAME`, `schedule ... calendar=NAME` — may be, in one place for the config's
/// reader, the calendar reader and the request parser.
public enum CalendarNameRule {
    /// The longest name, in bytes of UTF-8 (a discovered one is cut to it, ending in `…`)...
    public static let maxBytes = 128
    /// ...and in Characters.
    public static let maxCharacters = 64

    /// Why `name` (as the user wrote it, trimmed) cannot name a calendar in the config, said
    /// after "the name": nil when it can. One line, no control or format character (bidi
    /// controls among them: a name is shown in bars), within `maxBytes` and `maxCharacters`.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "is blank; leave \"name\" out to use the calendar's own" }
        let shown = "'" + shortened(SafeText.visible(name).replacing("\t", with: "␉")) + "'"
        if name.unicodeScalars.contains(where: isLineBreak) { return "\(shown) must be one line" }
        // What safe text would change (and TAB, which it keeps but a column must not hold).
        if name.unicodeScalars.contains("\t") || SafeText.visible(name) != name {
            let culprit = name.unicodeScalars.first(where: isRefused) ?? name.unicodeScalars.first(where: isJoiner)
            return "\(shown) holds a control or format character" + (culprit.map { " (\($0.codePoint))" } ?? "")
        }
        if name.utf8.count > maxBytes { return "is \(name.utf8.count) bytes long; at most \(maxBytes)" }
        if name.count > maxCharacters { return "is \(name.count) characters long; at most \(maxCharacters)" }
        return nil
    }

    /// What a calendar whose name reads as one of zaoan's own sources is called after that
    /// source's name: `Live` becomes `Live (calendar)`.
    public static let reservedSuffix = " (calendar)"

    /// The source name of zaoan's own (`SourceName.reserved`) that `name` reads as, or nil:
    /// the same letters in any case (as `calendar=NAME` matches), once every scalar that
    /// shows nothing is left out (`LinkText.showsNothing`: `live` with a Hangul filler or a
    /// variation selector after it still reads as `live`).
    public static func reserved(_ name: String) -> String? {
        let seen = String(String.UnicodeScalarView(name.unicodeScalars.filter { !LinkText.showsNothing($0) })).lowercased()
        return SourceName.reserved.first { $0 == seen }
    }

    /// The name a calendar called `name` is shown under: `name` itself, or, when it reads as
    /// one of zaoan's own sources, its visible scalars and `reservedSuffix` (within the
    /// bounds: the reserved names are short), and the source name it read as.
    public static func unreserved(_ name: String) -> (name: String, reserved: String?) {
        guard let reserved = reserved(name) else { return (name, nil) }
        return (String(String.UnicodeScalarView(name.unicodeScalars.filter { !LinkText.showsNothing($0) })) + reservedSuffix, reserved)
    }

    /// Whether a calendar called `name` is the one `wanted` asks for: the same text in any case.
    public static func matches(_ name: String, _ wanted: String) -> Bool {
        name == wanted || name.lowercased() == wanted.lowercased()
    }

    /// LF, VT, FF, CR, NEL and the line and paragraph separators.
    public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Controls (TAB too), format characters (bidi controls, the soft hyphen) and the line and
    /// paragraph separators, but not the joiners and tags emoji sequences hold, which safe
    /// text keeps where they join something: a name is refused for those only if they join
    /// nothing, and then named after anything else.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        guard !isJoiner(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    private static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200C || scalar.value == 0x200D || (0xE0000...0xE007F).contains(scalar.value)
    }

    private static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
