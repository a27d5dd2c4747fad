import Testing
import ZaoanText

/// `JSONWriter` escapes a string by copying runs of bytes that need no escape; this holds it
/// to the scalar-at-a-time escaping it replaced (`OldEscaper`, kept here as the oracle), byte
/// for byte, in both layouts, over random strings mixing every escape class with ASCII,
/// multi-byte scalars, combining marks and the near neighbours of U+2028/U+2029.
@Suite struct JSONWriterEscapeTests {
    /// One of each class: `"` `\`, the named controls, other controls, `/`, DEL, U+2028,
    /// U+2029; letters; 2-, 3- and 4-byte scalars, among them E2-led ones that are not
    /// U+2028/U+2029 (U+2027, U+202A, U+20AC, U+2600), C2 85 (NEL) and a combining mark that
    /// joins whatever came before it into one Character.
    static let pieces: [String] = [
        "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1B}", "\u{1F}", "/", "\u{7F}",
        "\u{2028}", "\u{2029}", "a", "Z", "0", " ", ":", "{", "é", "\u{85}", "早", "安", "\u{2027}", "\u{202A}",
        "€", "\u{2600}", "😀", "\u{301}", "\u{E2}", "\u{FEFF}", "\r\n",
    ]

    @Test("random strings escape exactly as the scalar-at-a-time writer did", arguments: [JSONWriter.Layout.line, .stateFile])
    func matchesOldEscaper(layout: JSONWriter.Layout) {
        var random = SeededGenerator(seed: 34)
        for round in 0..<4000 {
            let count = Int(random.next() % 40)
            var text = ""
            for _ in 0..<count {
                // Every other string mostly plain text, as a bar's are.
                if round % 2 == 0 && random.next() % 4 != 0 {
                    text += "x"
                } else {
                    text += Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
                }
            }
            let expected = OldEscaper.string(text, stateFile: layout == .stateFile)
            #expect(JSONWriter.string(text, layout: layout) == expected, "\(Array(text.unicodeScalars.map(\.value)))")
            // Also inside an object, where keys are written the same way.
            #expect(JSONWriter.write(.object([(text, .string(text))]), layout: .line) == "{\(OldEscaper.string(text, stateFile: false)):\(OldEscaper.string(text, stateFile: false))}")
        }
    }

    @Test("each class alone and at either end of a run", arguments: pieces)
    func eachPiece(piece: String) {
        for text in [piece, "ab" + piece, piece + "cd", "ab" + piece + "cd", piece + piece] {
            #expect(JSONWriter.string(text, layout: .line) == OldEscaper.string(text, stateFile: false))
            #expect(JSONWriter.string(text, layout: .stateFile) == OldEscaper.string(text, stateFile: true))
        }
    }
}

/// The escaping `JSONWriter` used before it copied runs: one `unicodeScalars.append` per scalar.
private enum OldEscaper {
    static func string(_ text: String, stateFile: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where stateFile: out += "\\/"
            case "\u{08}" where stateFile: out += "\\b"
            case "\u{0C}" where stateFile: out += "\\f"
            default:
                let escaped = scalar.value < 0x20
                    || (!stateFile && (scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029))
                if escaped {
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

/// A small seeded generator (SplitMix64), so a failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
