/// Markup as `PangoTags` lets it through, for a terminal (`zaoan cal`): bold, underline and
/// 24-bit colours as SGR escapes when `colours`, else the text alone; entities decoded, and the
/// decoded text made visible-safe again, so nothing in it can reach the terminal as a control.
public enum PangoTerminal {
    public static func render(_ markup: String, colours: Bool) -> String {
        var out = ""
        var styles: [String] = []
        var rest = Substring(markup)
        while let open = rest.firstIndex(of: "<") {
            out += SafeText.visibleLines(decoded(rest[..<open]))
            guard let close = rest[open...].firstIndex(of: ">") else {
                rest = rest[open...]
                break
            }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") {
                if !styles.isEmpty { styles.removeLast() }
            } else {
                styles.append(sgr(tag))
            }
            if colours { out += "\u{1B}[0m" + styles.joined() }
        }
        out += SafeText.visibleLines(decoded(rest))
        if colours, !styles.isEmpty { out += "\u{1B}[0m" }
        return out
    }

    /// The SGR escape of a tag: bold, underline, a foreground colour; `tt` none.
    private static func sgr(_ tag: Substring) -> String {
        switch tag {
        case "b": return "\u{1B}[1m"
        case "u": return "\u{1B}[4m"
        default:
            guard let hash = tag.firstIndex(of: "#") else { return "" }
            let hex = tag[tag.index(after: hash)...].prefix(6)
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return "" }
            return "\u{1B}[38;2;\(value >> 16);\((value >> 8) & 0xFF);\(value & 0xFF)m"
        }
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&#39;` `&apos;` and numeric entities decoded.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            let named: [Substring: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
            if let character = named[name] {
                out += character
            } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                out.unicodeScalars.append(scalar)
            } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
