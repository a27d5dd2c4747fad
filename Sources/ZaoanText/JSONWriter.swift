/// The one JSON writer, with no Foundation: the service's bar blocks and event lines, the
/// clients' blocks, and `state.json` are all written here, so a string is escaped one way
/// and a number spelled one way wherever zaoan writes JSON.
///
/// Two layouts, because two kinds of reader read what zaoan writes:
/// - `.line` — compact, members in the order given, one line (i3bar, waybar, `watch events`).
///   Besides what JSON requires, it escapes DEL and U+2028/U+2029, which some JavaScript-based
///   readers take for line breaks.
/// - `.stateFile` — the layout of `state.json` since its first version (Foundation's
///   `JSONEncoder` with `.prettyPrinted` and `.sortedKeys`, byte for byte): two-space indent,
///   `"key" : value`, keys sorted, an empty container as `[`, a blank line and `]`, and `/`
///   written `\/`. Kept so a file saved by this version is the file an older one saved.
///
///     JSONWriter.write(.object([("text", .string("早安")), ("class", .string("morning"))]))
///     // {"text":"早安","class":"morning"}
public enum JSONWriter {
    /// A value to write. Members of an object are written in the order given (`.line`) or
    /// sorted by key (`.stateFile`).
    public indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case integer(Int)
        /// Written as Swift spells a Double (shortest text that reads back exactly), without
        /// a trailing `.0`: `1796000000`, `0.5`, `1e-07`. Not finite: `null`.
        case double(Double)
        case string(String)
        case array([Value])
        case object([(String, Value)])
    }

    public enum Layout: Sendable {
        case line
        case stateFile
    }

    /// `value` as JSON text in `layout`.
    public static func write(_ value: Value, layout: Layout = .line) -> String {
        var out = ""
        append(value, layout: layout, indent: 0, to: &out)
        return out
    }

    /// A JSON string literal, quotes included, escaped as `layout` has it.
    public static func string(_ text: String, layout: Layout = .line) -> String {
        var out = ""
        appendString(text, layout: layout, to: &out)
        return out
    }

    /// A number as `.double` writes it.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func append(_ value: Value, layout: Layout, indent: Int, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .double(let number): out += Self.number(number)
        case .string(let text): appendString(text, layout: layout, to: &out)
        case .array(let items):
            container("[", "]", items.count, layout: layout, indent: indent, to: &out) { index, out in
                append(items[index], layout: layout, indent: indent + 2, to: &out)
            }
        case .object(let given):
            let members = layout == .stateFile ? given.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) } : given
            container("{", "}", members.count, layout: layout, indent: indent, to: &out) { index, out in
                appendString(members[index].0, layout: layout, to: &out)
                out += layout == .line ? ":" : " : "
                append(members[index].1, layout: layout, indent: indent + 2, to: &out)
            }
        }
    }

    private static func container(_ open: String, _ close: String, _ count: Int, layout: Layout, indent: Int,
                                  to out: inout String, item: (Int, inout String) -> Void) {
        out += open
        switch layout {
        case .line:
            for index in 0..<count {
                if index > 0 { out += "," }
                item(index, &out)
            }
        case .stateFile:
            let inner = String(repeating: " ", count: indent + 2)
            out += "\n"
            for index in 0..<count {
                if index > 0 { out += ",\n" }
                out += inner
                item(index, &out)
            }
            out += "\n" + String(repeating: " ", count: indent)
        }
        out += close
    }

    private static func appendString(_ text: String, layout: Layout, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where layout == .stateFile: out += "\\/"
            case "\u{08}" where layout == .stateFile: out += "\\b"
            case "\u{0C}" where layout == .stateFile: out += "\\f"
            default:
                let escaped = scalar.value < 0x20
                    || (layout == .line && (scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029))
                if escaped {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
