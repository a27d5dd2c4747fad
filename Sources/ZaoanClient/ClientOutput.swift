import ZaoanText

/// What the clients print of what a server sent: never a raw control byte, and for the bar
/// formats only the fields zaoan writes, made safe again. The service already sends safe
/// text; this is for when the socket leads somewhere else.
public enum ClientOutput {
    /// An answer's bytes as text: invalid UTF-8 becomes U+FFFD, and every line is made
    /// visible-safe (line breaks between lines are kept).
    public static func text(_ bytes: [UInt8], format: OutputFormat) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let endsWithBreak = text.hasSuffix("\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if endsWithBreak { lines.removeLast() }
        return lines.map { line($0, format: format) ?? SafeText.visible($0) }.joined(separator: "\n") + (endsWithBreak ? "\n" : "")
    }

    /// One line of an answer or a watch stream, as it may be printed in `format`. A bar
    /// format line that is not a block or object of zaoan's shape becomes nil.
    public static func line(_ line: String, format: OutputFormat) -> String? {
        switch format {
        case .plain:
            return SafeText.visible(line)
        case .tmux:
            // A countdown level's colour, in exactly the shape the service writes it.
            if let colored = ColoredLine.tmuxParts(line) {
                return ColoredLine.tmux(color: colored.color, body: colored.body) { tmuxSafe(SafeText.visible($0)) }
            }
            return tmuxSafe(SafeText.visible(line))
        case .polybar:
            if let colored = ColoredLine.polybarParts(line) {
                return ColoredLine.polybar(color: colored.color, body: SafeText.polybar(SafeText.visible(colored.body)))
            }
            return SafeText.polybar(SafeText.visible(line))
        case .json:
            return WaybarObject(json: line)?.encoded
        case .i3bar:
            guard let block = JSONReader.line(line), block.members != nil else { return nil }
            return I3barBlock(value: block, pango: block["markup"]?.string == "pango")?.encoded
        }
    }

    /// Text escaped for tmux (`SafeText.tmux`) holds runs of `#` of a multiple of four, or of
    /// two before `[`. A run of another length did not come from zaoan: it is lengthened to
    /// the next such multiple, so a `#[...]` or `#{...}` from elsewhere shows as text.
    static func tmuxSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains("#") else { return text }
        return SafeText.hashRuns(text) { length, beforeBracket in
            let unit = beforeBracket ? 2 : 4
            return (length + unit - 1) / unit * unit
        }
    }
}
