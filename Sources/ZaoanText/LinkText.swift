/// What a link (an event's URL, on its way to `bar_url_opener`) may not hold: anything that
/// is not plainly visible ink. No URL needs such a scalar, and each can make a link read as
/// something it is not: a no-break space or U+3000 splits it where the opener does not, a
/// right-to-left override (U+202E) shows `https://example.org/‮gpj.exe` as ending in `.jpg`,
/// a zero-width space or a Hangul filler (U+3164) hides in a host name, and a private-use or
/// unassigned code point shows as whatever a font makes of it, or as nothing. The service
/// keeps a calendar's URL by this rule and `zaoan bar` opens one only by it, so a hostile
/// server is held to it too.
///
/// The classes come from the Unicode data Swift carries (`Unicode.Scalar.Properties`); only
/// `blankSymbols` is a list, for the few blank-looking symbols that data does not flag.
public enum LinkText {
    /// Why a scalar may not be in a link, said after "it holds U+XXXX, ".
    public enum Refusal: Equatable, Sendable, CustomStringConvertible {
        /// General categories Zs, Zl, Zp, Cc and Cf (U+00A0, U+2028, ESC, U+202E, U+200B).
        case spaceOrControl
        /// Co: U+E000–U+F8FF and planes 15 and 16.
        case privateUse
        /// Cn: no character yet (in the Unicode version Swift carries), noncharacters among them.
        case unassigned
        /// Default_Ignorable_Code_Point and not Cf: the combining grapheme joiner (U+034F),
        /// variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), the Hangul fillers
        /// (U+115F, U+1160, U+3164, U+FFA0), the Khmer inherent vowels (U+17B4, U+17B5), the
        /// Mongolian free variation selectors (U+180B–U+180D, U+180F).
        case invisible
        /// `blankSymbols`.
        case blank

        public var description: String {
            switch self {
            case .spaceOrControl: return "a space, control or format character"
            case .privateUse: return "a private-use character, which only a font gives a look"
            case .unassigned: return "an unassigned code point"
            case .invisible: return "an invisible character (Unicode: default ignorable)"
            case .blank: return "a character that shows as a blank"
            }
        }
    }

    /// Symbols that show as a blank but that the Unicode data marks neither as a space nor
    /// as default ignorable (both are So, Other Symbol), so no property finds them:
    /// - U+2800 BRAILLE PATTERN BLANK: a braille cell with no dots raised. The Unicode code
    ///   chart for Braille Patterns (U+2800–U+28FF) notes that it does not act as a space,
    ///   a note added after public review in 2006, and fonts draw it as a fixed-width blank.
    /// - U+1D159 MUSICAL SYMBOL NULL NOTEHEAD: no visible glyph, a base for stems and flags
    ///   (Ken Whistler on the Unicode mailing list, 2016-09-15, "Why isn't MUSICAL SYMBOL
    ///   NULL NOTEHEAD default ignorable?": So is not special-cased into the property).
    /// The Hangul fillers, which look as blank, are default ignorable and need no entry.
    static let blankSymbols: [UInt32] = [0x2800, 0x1D159]

    /// The first scalar of `text` a link may not hold, and why; nil when there is none.
    public static func firstRefused(in text: String) -> (scalar: Unicode.Scalar, refusal: Refusal)? {
        for scalar in text.unicodeScalars {
            if let refusal = refusal(of: scalar) { return (scalar, refusal) }
        }
        return nil
    }

    /// Why `scalar` may not be in a link, or nil when it may.
    public static func refusal(of scalar: Unicode.Scalar) -> Refusal? {
        // ASCII from `!` to `~` is every scalar of nearly every URL: decided without a look-up.
        if scalar.value > 0x20 && scalar.value < 0x7F { return nil }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format: return .spaceOrControl
        case .privateUse: return .privateUse
        case .unassigned: return .unassigned
        default: break
        }
        if properties.isDefaultIgnorableCodePoint { return .invisible }
        if blankSymbols.contains(scalar.value) { return .blank }
        return nil
    }

    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        refusal(of: scalar) != nil
    }

    /// Whether `scalar` shows nothing at all where it stands: default ignorable (the Cf
    /// controls and the invisible marks and letters above) or one of `blankSymbols`.
    public static func showsNothing(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || blankSymbols.contains(scalar.value)
    }
}
