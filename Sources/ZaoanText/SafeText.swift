/// Text from users and scripts (room titles, descriptions, city names, a server the clients
/// do not trust) ends up in terminals, bars and prompts. Every answer, and everything the
/// clients print, passes through here on its way out.
///
/// Everything is decided per Unicode scalar, never per `Character`: a grapheme cluster can
/// hide a `<` behind a prepended concatenation mark or in front of a combining mark, and a
/// comparison of Characters would let it through.
///
/// What `visible` does, by class (docs/protocol.md, "Safe text", has the same table):
///
/// | scalars | becomes |
/// |---|---|
/// | C0 controls U+0000–U+001F except TAB | their Control Picture (ESC → ␛, LF → ␊) |
/// | DEL U+007F | ␡ |
/// | C1 controls U+0080–U+009F (8-bit CSI, NEL) | U+FFFD |
/// | bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 | U+FFFD |
/// | line and paragraph separators U+2028, U+2029 | ␤ (U+2424) |
/// | interlinear annotation U+FFF9–U+FFFB | U+FFFD |
/// | zero-width space U+200B, word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD | removed |
/// | zero-width joiner U+200D | kept between two pictographs (emoji sequences), else removed |
/// | zero-width non-joiner U+200C | kept between two letters (Persian, Indic scripts), else removed |
/// | tag characters U+E0000–U+E007F | kept after a 🏴 or another tag (subdivision flags), else removed |
/// | everything else (combining marks, variation selectors, TAB) | kept |
///
/// The blank-looking scalars a link may not hold (`LinkText`: Hangul fillers, the combining
/// grapheme joiner, variation selectors, U+2800, private-use and unassigned code points) are
/// kept here on purpose: each has an honest use in a title (an emoji's or an ideograph's
/// look, old Hangul syllables, Hebrew, braille, the Nerd Font icons bars draw with, a
/// character newer than this Unicode data), and a title is only shown, so at worst it looks
/// blank to the one who wrote it; a link is acted on, and must show all of what it opens.
public enum SafeText {
    /// The text without white space (spaces, tabs, line breaks) at either end, by scalar.
    public static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The text with every scalar of the table above replaced or removed.
    public static func visible(_ text: String) -> String {
        guard mayNeedAttention(text), text.unicodeScalars.contains(where: needsAttention) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            switch treatment(of: scalar, before: index > 0 ? scalars[index - 1] : nil,
                             after: index + 1 < scalars.count ? scalars[index + 1] : nil) {
            case .keep: out.append(scalar)
            case .replace(let replacement): out.append(replacement)
            case .remove: break
            }
        }
        return String(out)
    }

    /// `visible` for each line, keeping the line breaks (multi-line JSON texts, tooltips).
    public static func visibleLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { visible(String($0)) }.joined(separator: "\n")
    }

    /// Whether `scalar` may be written as it is into a text another program shows (an
    /// iCalendar TEXT value `event add` writes): not a control character (LF too, unless
    /// `lineBreaks`), not a bidi override or any other format character `visible` would
    /// replace or remove, but the joiners and emoji tags that build a character.
    public static func isWritable(_ scalar: Unicode.Scalar, lineBreaks: Bool) -> Bool {
        if scalar == "\n" { return lineBreaks }
        guard needsAttention(scalar) else { return true }
        return scalar.value == 0x200C || scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)
    }

    enum Treatment: Equatable {
        case keep
        case replace(Unicode.Scalar)
        case remove
    }

    /// The first look, over the UTF-8 bytes (every answer passes here): every scalar of the
    /// table is a byte below 0x20 but TAB, DEL, or starts with one of the lead bytes C2
    /// (U+0080–U+00BF), D8 (U+0600–U+063F), E2 (U+2000–U+2FFF), EF (U+F000–U+FFFF) or
    /// F3 (U+C0000–U+FFFFF). Text without any of them needs nothing. Read through the
    /// string's contiguous bytes: `utf8.contains` went through the generic iterator.
    @inline(__always)
    static func mayNeedAttention(_ text: String) -> Bool {
        var contiguous = text  // withUTF8 reads a native string in place and copies any other
        return contiguous.withUTF8 { bytes in
            bytes.contains { byte in
                (byte < 0x20 && byte != 0x09) || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF || byte == 0xF3
            }
        }
    }

    /// A cheap first look: could this scalar need anything done?
    @inline(__always)
    static func needsAttention(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 }
        if value < 0x7F { return false }
        return value <= 0x9F || value == 0xAD || value == 0x061C || (value >= 0x200B && value <= 0x200F)
            || (value >= 0x2028 && value <= 0x202E) || (value >= 0x2060 && value <= 0x2069)
            || value == 0xFEFF || (value >= 0xFFF9 && value <= 0xFFFB) || (value >= 0xE0000 && value <= 0xE007F)
    }

    static func treatment(of scalar: Unicode.Scalar, before: Unicode.Scalar?, after: Unicode.Scalar?) -> Treatment {
        let value = scalar.value
        switch value {
        case 0x09: return .keep
        case 0x00..<0x20: return .replace(Unicode.Scalar(0x2400 + value)!)
        case 0x7F: return .replace("\u{2421}")
        case 0x80...0x9F: return .replace("\u{FFFD}")
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return .replace("\u{FFFD}")
        case 0x2028, 0x2029: return .replace("\u{2424}")
        case 0xFFF9...0xFFFB: return .replace("\u{FFFD}")
        case 0x00AD, 0x200B, 0x2060, 0xFEFF: return .remove
        case 0x200D:
            guard let before, let after, isPictograph(before) || isEmojiModifierOrSelector(before), isPictograph(after) else { return .remove }
            return .keep
        case 0x200C:
            guard let before, let after, before.properties.isAlphabetic || before.properties.generalCategory == .nonspacingMark,
                  after.properties.isAlphabetic else { return .remove }
            return .keep
        case 0xE0000...0xE007F:
            guard let before, before.value == 0x1F3F4 || (0xE0020...0xE007F).contains(before.value) else { return .remove }
            return .keep
        default:
            return .keep
        }
    }

    private static func isPictograph(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isEmoji && scalar.value > 0x2000
    }

    /// What may sit between a pictograph and a ZWJ in an emoji sequence.
    private static func isEmojiModifierOrSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// Escapes for Pango markup (waybar, i3bar with markup): `&`, `<`, `>`, quotes, each
    /// scalar on its own.
    public static func pango(_ text: String) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "'": return "&#39;"
            case "\"": return "&quot;"
            default: return nil
            }
        }
    }

    /// Text that is to be read as Pango markup but comes from someone else: character
    /// entities (`&amp;`, `&#39;`, `&#x263A;`) are kept, every other `&`, `<` and `>` is
    /// escaped, so it can show text but never open a tag.
    ///
    /// With `keepingTags`, the few tags zaoan's own markup uses (`PangoTags`) stay, balanced.
    public static func pangoEntitiesOnly(_ text: String, keepingTags: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var index = 0
        var open = PangoTags()
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "<":
                if keepingTags, let length = open.accept(scalars, at: index, into: &out) {
                    index += length
                    continue
                }
                out += "&lt;"
            case ">": out += "&gt;"
            case "&":
                if let length = entityLength(scalars, at: index) {
                    out.unicodeScalars.append(contentsOf: scalars[index..<(index + length)])
                    index += length
                    continue
                }
                out += "&amp;"
            default:
                out.unicodeScalars.append(scalar)
            }
            index += 1
        }
        open.closeAll(into: &out)
        return out
    }

    /// The length of the entity starting at `index` (`&name;`, `&#123;`, `&#x7B;`), or nil.
    private static func entityLength(_ scalars: [Unicode.Scalar], at index: Int) -> Int? {
        var end = index + 1
        var body = ""
        while end < scalars.count, end - index <= 10, scalars[end] != ";" {
            body.unicodeScalars.append(scalars[end])
            end += 1
        }
        guard end < scalars.count, scalars[end] == ";" else { return nil }
        let named = ["amp", "lt", "gt", "quot", "apos"]
        if named.contains(body) { return end - index + 1 }
        // A numeric entity may name only what `visible` would keep: no control through a back door.
        func harmless(_ value: UInt32?) -> Bool {
            guard let value, let scalar = Unicode.Scalar(value) else { return false }
            return value != 0x09 && !needsAttention(scalar)
        }
        if body.hasPrefix("#x") || body.hasPrefix("#X"), (3...8).contains(body.count), body.dropFirst(2).allSatisfy({ $0.isHexDigit }),
           harmless(UInt32(body.dropFirst(2), radix: 16)) {
            return end - index + 1
        }
        if body.hasPrefix("#"), (2...8).contains(body.count), body.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
           harmless(UInt32(body.dropFirst())) {
            return end - index + 1
        }
        return nil
    }

    /// For the output of a `#(command)` in tmux's status line, which tmux reads twice:
    /// once as a format (`##` → `#`, `#{var}`, `#(cmd)`), where a run of `#` before `[` is
    /// left as it is for the second reading, the drawing of styles (`#[fg=red]`; `##` → `#`).
    /// So a `#` is written `####`, and `##` when its run ends in `[` (checked with tmux 3.3a:
    /// `B##` shows as `B##`, `#[fg=red]` as typed).
    public static func tmux(_ text: String) -> String {
        guard text.unicodeScalars.contains("#") else { return text }
        return hashRuns(text) { length, beforeBracket in length * (beforeBracket ? 2 : 4) }
    }

    /// Rewrites every run of `#` to the length `rewrite(length, followedByBracket)` gives.
    public static func hashRuns(_ text: String, _ rewrite: (Int, Bool) -> Int) -> String {
        var out = String.UnicodeScalarView()
        var run = 0
        func flush(beforeBracket: Bool) {
            if run > 0 { out.append(contentsOf: repeatElement("#", count: rewrite(run, beforeBracket))) }
            run = 0
        }
        for scalar in text.unicodeScalars {
            if scalar == "#" {
                run += 1
                continue
            }
            flush(beforeBracket: scalar == "[")
            out.append(scalar)
        }
        flush(beforeBracket: false)
        return String(out)
    }

    /// For polybar: it reads `%{` as the start of a formatting tag (and `%{A1:cmd:}` as a
    /// click action that runs a command) and has no escape for it; the `%` of every `%{`
    /// becomes the fullwidth ％ (U+FF05), which looks the same and means nothing to polybar.
    /// The stand-ins of `visible` become ASCII (`␛` → `^[`, as `cat -v` writes them), which
    /// every font has: polybar's defaults lack the Control Pictures and warn on each update.
    public static func polybar(_ text: String) -> String {
        let text = asciiStandIns(text)
        guard text.unicodeScalars.contains("%") else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            out.append(scalar == "%" && next == "{" ? "\u{FF05}" : scalar)
            current = next
        }
        return String(out)
    }

    /// `visible`'s stand-ins written in ASCII: the Control Pictures as caret notation (`^[`,
    /// `^@`, `^?`), `␤` as `^J` and U+FFFD as `?`.
    public static func asciiStandIns(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x2400...0x2424).contains($0.value) || $0.value == 0xFFFD }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2400...0x241F:
                out.append("^")
                out.append(Unicode.Scalar(scalar.value - 0x2400 + 0x40)!)
            case 0x2421: out.append(contentsOf: "^?".unicodeScalars)
            case 0x2424: out.append(contentsOf: "^J".unicodeScalars)
            case 0xFFFD: out.append("?")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A JSON string literal, quotes included, as the one JSON writer escapes a line's
    /// (`JSONWriter.Layout.line`): control characters, DEL and U+2028/U+2029 escaped.
    public static func jsonString(_ text: String) -> String {
        JSONWriter.string(text)
    }

    /// Replaces the scalars `replacement` names, scalar by scalar.
    private static func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        guard text.unicodeScalars.contains(where: { replacement($0) != nil }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

extension Unicode.Scalar {
    /// `U+202E`: the scalar named so a reader can look it up, never shown raw (in errors
    /// about a control or format character).
    public var codePoint: String { "U+" + Hex.padded(value, width: 4, uppercase: true) }
}
