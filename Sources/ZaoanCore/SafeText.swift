/// Text from users and scripts (room titles, descriptions) ends up in terminals, bars and
/// prompts. Every answer passes through here on its way out.
public enum SafeText {
    /// Replaces what a terminal or bar would act on with a visible stand-in: C0 controls but
    /// TAB become their Control Pictures (ESC → ␛, NUL → ␀), DEL → ␡, and C1 controls and
    /// bidirectional overrides (which can reorder what a reader sees) → U+FFFD.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(needsReplacement(scalar) ? replacement(for: scalar) : scalar)
        }
        return String(scalars)
    }

    /// `visible` for each line, keeping the line breaks (multi-line JSON texts, tooltips).
    public static func visibleLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { visible(String($0)) }.joined(separator: "\n")
    }

    @inline(__always)
    static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        // TAB stays: it moves the cursor and nothing else, and separates fields in `live list`.
        return (value < 0x20 && value != 0x09) || (value >= 0x7F && value <= 0x9F)
            || (value >= 0x202A && value <= 0x202E) || (value >= 0x2066 && value <= 0x2069)
    }

    static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0..<0x20: return Unicode.Scalar(0x2400 + scalar.value)!
        case 0x7F: return "\u{2421}"
        default: return "\u{FFFD}"
        }
    }

    /// Escapes for Pango markup (waybar, i3bar with markup): `&`, `<`, `>`, quotes.
    public static func pango(_ text: String) -> String {
        guard text.contains(where: { "&<>'\"".contains($0) }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A JSON string literal, quotes included. Control characters are escaped, and so are
    /// U+2028/U+2029, which some JavaScript-based consumers treat as line breaks.
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
