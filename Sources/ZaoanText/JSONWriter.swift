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

    /// Copies each run of bytes that needs no escape in one go (a bar line is mostly such
    /// runs) and escapes only what `layout` escapes: `"`, `\`, controls, and `/` and the
    /// named `\b` `\f` (`.stateFile`) or DEL and U+2028/U+2029 (`.line`). A run ends only
    /// before an escaped scalar, so each run is whole scalars of `text`. Internal: blocks
    /// with constant keys (`I3barBlock.encoded`) write the keys as they are and escape only
    /// the values through this.
    static func appendString(_ text: String, layout: Layout, to out: inout String) {
        out += "\""
        var contiguous = text  // withUTF8 reads a native string in place and copies any other
        contiguous.withUTF8 { bytes in
            var runStart = 0
            var offset = 0
            while offset < bytes.count {
                let width = escapedWidth(bytes, at: offset, layout: layout)
                guard width > 0 else {
                    offset += 1
                    continue
                }
                if runStart < offset { appendRun(of: text, from: runStart, to: offset, to: &out) }
                // One byte: the scalar is the byte; three: U+2028 or U+2029, told by the last.
                let scalar = width == 1 ? UInt32(bytes[offset]) : 0x2000 + UInt32(bytes[offset + 2] - 0xA8) + 0x28
                appendEscape(scalar, layout: layout, to: &out)
                offset += width
                runStart = offset
            }
            if runStart == 0 {
                out += text
            } else if runStart < bytes.count {
                appendRun(of: text, from: runStart, to: bytes.count, to: &out)
            }
        }
        out += "\""
    }

    /// How many bytes at `offset` make a scalar that `layout` escapes: 1, 3 (U+2028 or
    /// U+2029 in `.line`), or 0 for a byte copied as it is.
    @inline(__always)
    private static func escapedWidth(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, layout: Layout) -> Int {
        let byte = bytes[offset]
        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return 1 }
        switch layout {
        case .stateFile:
            return byte == UInt8(ascii: "/") ? 1 : 0
        case .line:
            if byte == 0x7F { return 1 }
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            guard byte == 0xE2, offset + 2 < bytes.count, bytes[offset + 1] == 0x80,
                  bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9 else { return 0 }
            return 3
        }
    }

    /// The bytes `from..<to` of `text`, which start and end on scalar boundaries.
    private static func appendRun(of text: String, from start: Int, to end: Int, to out: inout String) {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        let upper = utf8.index(lower, offsetBy: end - start)
        out += Substring(text.unicodeScalars[lower..<upper])
    }

    private static func appendEscape(_ scalar: UInt32, layout: Layout, to out: inout String) {
        switch scalar {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x2F: out += "\\/"
        case 0x08 where layout == .stateFile: out += "\\b"
        case 0x0C where layout == .stateFile: out += "\\f"
        default:
            out += "\\u" + Hex.padded(scalar, width: 4, uppercase: false)
        }
    }
}
