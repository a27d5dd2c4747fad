/// A colour a countdown level gives a bar block: read only from `#rrggbb` (six hex digits,
/// either case) and always written back from its three bytes (`#ff3030`), so no text from
/// the config ever reaches a bar as it was typed.
public struct BarColor: Hashable, Sendable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb` and nothing else (no `#rgb`, no names, no alpha, no spaces); nil otherwise.
    public init?(hex text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var values: [UInt8] = []
        for pair in stride(from: 1, to: 7, by: 2) {
            guard let high = Hex.value(of: bytes[pair]), let low = Hex.value(of: bytes[pair + 1]) else { return nil }
            values.append(high << 4 | low)
        }
        self.init(red: values[0], green: values[1], blue: values[2])
    }

    /// What a config may write: `#rrggbb`, or one of CSS's colour keywords in any case
    /// (`orange`, `SteelBlue`: BarColor+Names.swift), as waybar's CSS takes them; bars
    /// are sent `#rrggbb` (i3bar, polybar and tmux take hex). Nil otherwise.
    public init?(configured text: String) {
        if let hex = BarColor(hex: text) {
            self = hex
            return
        }
        guard text.utf8.count <= Self.longestName, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let name = text.lowercased()
        guard let found = Self.cssNames.first(where: { $0.name == name }) else { return nil }
        self.init(red: found.red, green: found.green, blue: found.blue)
    }

    /// The longest keyword's bytes (lightgoldenrodyellow).
    static let longestName = 20

    /// `#rrggbb` in lowercase, made from the bytes.
    public var hex: String {
        var out: [UInt8] = [UInt8(ascii: "#")]
        for byte in [red, green, blue] { out += Hex.digits(of: byte, uppercase: false) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A line coloured for tmux's or polybar's status line: the colour's code, the text escaped
/// for the target, and the code that ends the colour. The one place that writes these
/// codes, and the one that reads them back (`zaoan watch` keeps only a line of exactly this
/// shape's codes, with its text filtered again).
public enum ColoredLine {
    private static let tmuxOpen = "#[fg="
    private static let tmuxClose = "#[default]"
    private static let polybarOpen = "%{F"
    private static let polybarClose = "%{F-}"

    /// `#[fg=#rrggbb]TEXT#[default]`, TEXT escaped as `SafeText.tmux` does, except that a
    /// run of `#` at its end is followed by the closing `#[`: written as a run before `[`
    /// (doubled), so tmux still shows it as that many `#`.
    public static func tmux(_ visibleText: String, color: BarColor) -> String {
        tmuxOpen + color.hex + "]" + tmuxBody(visibleText) + tmuxClose
    }

    /// `%{F#rrggbb}TEXT%{F-}`, TEXT escaped as `SafeText.polybar` does.
    public static func polybar(_ visibleText: String, color: BarColor) -> String {
        polybarOpen + color.hex + "}" + SafeText.polybar(visibleText) + polybarClose
    }

    /// A tmux line of the shape `tmux` writes: its colour and its text as sent (still escaped).
    public static func tmuxParts(_ line: String) -> (color: BarColor, body: String)? {
        parts(line, open: tmuxOpen, openEnd: "]", close: tmuxClose)
    }

    /// A polybar line of the shape `polybar` writes: its colour and its text as sent.
    public static func polybarParts(_ line: String) -> (color: BarColor, body: String)? {
        parts(line, open: polybarOpen, openEnd: "}", close: polybarClose)
    }

    /// Rebuilds a tmux line from its colour and a body that was filtered (`rewrite` is given
    /// the body with the `[` that follows it, so a trailing run of `#` is judged as tmux sees it).
    public static func tmux(color: BarColor, body: String, rewrite: (String) -> String) -> String {
        let filtered = rewrite(body + "[")
        return tmuxOpen + color.hex + "]" + String(filtered.dropLast()) + tmuxClose
    }

    /// Rebuilds a polybar line from its colour and a body that was filtered.
    public static func polybar(color: BarColor, body: String) -> String {
        polybarOpen + color.hex + "}" + body + polybarClose
    }

    private static func tmuxBody(_ text: String) -> String {
        let escaped = SafeText.hashRuns(text + "[") { length, beforeBracket in length * (beforeBracket ? 2 : 4) }
        return String(escaped.dropLast())
    }

    private static func parts(_ line: String, open: String, openEnd: String, close: String) -> (color: BarColor, body: String)? {
        let bytes = Array(line.utf8)
        let openBytes = Array(open.utf8), closeBytes = Array(close.utf8)
        let head = openBytes.count + 7 + 1
        guard bytes.count >= head + closeBytes.count, bytes.starts(with: openBytes),
              bytes[head - 1] == Array(openEnd.utf8)[0], bytes.suffix(closeBytes.count).elementsEqual(closeBytes),
              let color = BarColor(hex: String(decoding: bytes[openBytes.count..<(head - 1)], as: UTF8.self)) else { return nil }
        return (color, String(decoding: bytes[head..<(bytes.count - closeBytes.count)], as: UTF8.self))
    }
}
