/// How many terminal or bar columns text takes, the way wcwidth(3) counts: East Asian wide
/// and fullwidth characters and emoji take two, combining marks and format characters none,
/// the rest one. For fitting a short text into a narrow bar, not for layout to the pixel.
public enum DisplayWidth {
    /// The columns one scalar takes.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return 0 }  // variation selectors
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks (Unicode's EastAsianWidth.txt, by block).
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// The columns a text takes.
    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    /// At most `limit` columns of `text`, whole characters only, ending in `…` (counted as
    /// two columns: many CJK fonts draw it wide) when something was cut. A character of many
    /// combining marks keeps its first few, so no text grows past a few bytes per column.
    public static func prefix(_ text: String, columns limit: Int) -> String {
        guard columns(text) > limit || text.unicodeScalars.count > limit * 4 else { return text }
        var kept = String.UnicodeScalarView()
        var used = 0
        for character in text {
            let scalars = character.unicodeScalars.prefix(4)
            let width = scalars.reduce(0) { $0 + columns($1) }
            guard used + width <= limit - 2 else { break }
            kept.append(contentsOf: scalars)
            used += width
        }
        return String(kept) + "…"
    }
}
