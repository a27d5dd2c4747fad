import Testing
@testable import ZaoanText

/// What a link may not hold (`LinkText`), class by class, at the edges of each class and
/// beside them.
@Suite struct LinkTextTests {
    typealias Refusal = LinkText.Refusal

    @Test("each scalar's class, and the plain scalars beside the refused ones", arguments: [
        // ASCII: the space and the controls only.
        (0x20, .spaceOrControl), (0x21, nil), (0x7E, nil), (0x7F, .spaceOrControl), (0x1F, .spaceOrControl),
        (0xA0, .spaceOrControl), (0x3000, .spaceOrControl), (0x2028, .spaceOrControl), (0x202E, .spaceOrControl),
        (0x200B, .spaceOrControl), (0x00AD, .spaceOrControl), (0xFEFF, .spaceOrControl), (0xE0001, .spaceOrControl),
        // Braille: the blank cell alone; the cells with dots are ink.
        (0x27FF, nil), (0x2800, .blank), (0x2801, nil), (0x28FF, nil),
        // Hangul fillers, default ignorable; the jamo beside them are letters.
        (0x115E, nil), (0x115F, .invisible), (0x1160, .invisible), (0x1161, nil),
        (0x3163, nil), (0x3164, .invisible), (0x3165, nil), (0xFF9F, nil), (0xFFA0, .invisible), (0xFFA1, nil),
        // The combining grapheme joiner; the combining marks beside it are visible.
        (0x034E, nil), (0x034F, .invisible), (0x0350, nil), (0x0301, nil),
        // Variation selectors.
        (0xFDFF, nil), (0xFE00, .invisible), (0xFE0F, .invisible), (0xFE10, nil),
        (0xE0100, .invisible), (0xE01EF, .invisible),
        // Khmer inherent vowels, Mongolian free variation selectors.
        (0x17B3, nil), (0x17B4, .invisible), (0x17B5, .invisible), (0x17B6, nil), (0x180B, .invisible), (0x180F, .invisible),
        // The null notehead; the noteheads beside it have ink.
        (0x1D158, nil), (0x1D159, .blank), (0x1D15A, nil),
        // Private use: the BMP's area and planes 15 and 16.
        (0xE000, .privateUse), (0xE0A0, .privateUse), (0xF8FF, .privateUse), (0xF900, nil), (0xF0000, .privateUse), (0x10FFFD, .privateUse),
        // Unassigned, noncharacters among them; reserved default-ignorable ranges count as unassigned.
        (0x0378, .unassigned), (0xFDD0, .unassigned), (0xFFFE, .unassigned), (0xFFFF, .unassigned), (0x10FFFF, .unassigned),
        (0xE01F0, .unassigned), (0xFFF0, .unassigned),
        // Ordinary text.
        (0x4F8B, nil), (0x1F600, nil), (0x00E9, nil), (0x0410, nil), (0x0661, nil),
    ] as [(UInt32, Refusal?)])
    func classes(value: UInt32, refusal: Refusal?) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(LinkText.refusal(of: scalar) == refusal, "\(scalar.codePoint)")
        #expect(LinkText.isRefused(scalar) == (refusal != nil), "\(scalar.codePoint)")
    }

    @Test("the first refused scalar of a link is named with its class", arguments: [
        ("https://example.org/path?q=1#frag", nil),
        ("https://example.org/\u{3164}/login", "U+3164 an invisible character (Unicode: default ignorable)"),
        ("https://exa\u{2800}mple.org", "U+2800 a character that shows as a blank"),
        ("https://example.org/\u{E000}\u{0378}", "U+E000 a private-use character, which only a font gives a look"),
        ("https://example.org/\u{0378}\u{E000}", "U+0378 an unassigned code point"),
        ("https://example.org/\u{202E}\u{3164}", "U+202E a space, control or format character"),
        ("https://例え.jp/パス", nil),
    ] as [(String, String?)])
    func firstRefused(link: String, said: String?) {
        let found = LinkText.firstRefused(in: link).map { "\($0.scalar.codePoint) \($0.refusal)" }
        #expect(found == said, "\(link.debugDescription)")
    }

    /// ASCII is decided without a look-up: exactly its controls, the space and DEL refused.
    @Test func asciiWithoutALookUp() {
        for value in UInt32(0)...0x7F {
            let refused = value <= 0x20 || value == 0x7F
            #expect(LinkText.isRefused(Unicode.Scalar(UInt8(value))) == refused, "\(Unicode.Scalar(UInt8(value)).codePoint)")
        }
    }
}
