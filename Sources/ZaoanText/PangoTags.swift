/// The Pango tags zaoan's own markup uses (`month`'s tooltip) and a client lets through from
/// the service: `<tt>`, `<b>`, `<u>`, `<span foreground="#rrggbb">` and `<span
/// font_family="A,B,monospace">` (font names only), each closed by its own
/// end tag, at most `maxDepth` deep. Anything else stays escaped text, an end tag that closes
/// nothing open is text too, and what is left open at the end is closed, so the markup always
/// parses (waybar shows nothing at all for a tooltip that does not).
struct PangoTags {
    private var stack: [String] = []
    static let maxDepth = 8
    private static let plain = ["tt", "b", "u"]

    /// If a tag this accepts starts at `index`, writes it and returns its length.
    mutating func accept(_ scalars: [Unicode.Scalar], at index: Int, into out: inout String) -> Int? {
        var end = index + 1
        while end < scalars.count, end - index <= 160, scalars[end] != ">", scalars[end] != "<" { end += 1 }
        guard end < scalars.count, scalars[end] == ">" else { return nil }
        var body = ""
        body.unicodeScalars.append(contentsOf: scalars[(index + 1)..<end])
        if body.hasPrefix("/") {
            let name = String(body.dropFirst())
            guard stack.last == name else { return nil }
            stack.removeLast()
        } else {
            guard stack.count < Self.maxDepth else { return nil }
            if Self.plain.contains(body) {
                stack.append(body)
            } else if Self.isColourSpan(body) || Self.isFontSpan(body) {
                stack.append("span")
            } else {
                return nil
            }
        }
        out += "<" + body + ">"
        return end - index + 1
    }

    /// Closes what is still open, innermost first.
    mutating func closeAll(into out: inout String) {
        while let name = stack.popLast() { out += "</" + name + ">" }
    }

    /// `span font_family="A,B,monospace"`: font names of letters, digits, spaces and `-`,
    /// comma-separated, at most 120 bytes.
    private static func isFontSpan(_ body: String) -> Bool {
        let prefix = "span font_family=\""
        guard body.hasPrefix(prefix), body.hasSuffix("\""), body.utf8.count <= prefix.utf8.count + 121 else { return false }
        let names = body.utf8.dropFirst(prefix.utf8.count).dropLast()
        return !names.isEmpty && names.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "-")
        }
    }

    /// `span foreground="#rrggbb"`, exactly.
    private static func isColourSpan(_ body: String) -> Bool {
        let prefix = "span foreground=\"#"
        guard body.hasPrefix(prefix), body.hasSuffix("\""), body.utf8.count == prefix.utf8.count + 7 else { return false }
        return body.utf8.dropFirst(prefix.utf8.count).dropLast().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}
