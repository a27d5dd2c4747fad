import Testing
import ZaoanCore

/// The safe-text table (docs/protocol.md, "Safe text"), every code point of every class.
@Suite struct SafeTextClassTests {
    private func visible(_ scalars: [UInt32]) -> [UInt32] {
        SafeText.visible(String(String.UnicodeScalarView(scalars.map { Unicode.Scalar($0)! }))).unicodeScalars.map(\.value)
    }

    @Test func controlsBecomePictures() {
        for value in UInt32(0)..<0x20 where value != 0x09 {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0x2400 + value, 0x62], "U+\(String(value, radix: 16))")
        }
        #expect(visible([0x09]) == [0x09])
        #expect(visible([0x7F]) == [0x2421])
        for value in UInt32(0x80)...0x9F {
            #expect(visible([0x61, value]) == [0x61, 0xFFFD], "U+\(String(value, radix: 16))")
        }
    }

    @Test func bidiControlsAreNeutralised() {
        let bidi: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in bidi {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0xFFFD, 0x62], "U+\(String(value, radix: 16))")
        }
    }

    @Test func separatorsAndAnnotations() {
        for value: UInt32 in [0x2028, 0x2029] {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0x2424, 0x62])
        }
        for value in UInt32(0xFFF9)...0xFFFB {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0xFFFD, 0x62])
        }
    }

    @Test func invisibleOnesAreRemoved() {
        for value: UInt32 in [0x00AD, 0x200B, 0x2060, 0xFEFF] {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0x62], "U+\(String(value, radix: 16))")
            #expect(visible([value]) == [])
        }
    }

    @Test func zeroWidthJoinerOnlyInsideEmojiSequences() {
        #expect(SafeText.visible("👩\u{200D}💻") == "👩\u{200D}💻")
        #expect(SafeText.visible("👍🏽\u{200D}👍") == "👍🏽\u{200D}👍")
        #expect(SafeText.visible("❤\u{FE0F}\u{200D}🔥") == "❤\u{FE0F}\u{200D}🔥")
        #expect(SafeText.visible("a\u{200D}b") == "ab")
        #expect(SafeText.visible("\u{200D}👩") == "👩")
        #expect(SafeText.visible("👩\u{200D}") == "👩")
        #expect(SafeText.visible("<\u{200D}b>") == "<b>")
    }

    @Test func zeroWidthNonJoinerOnlyBetweenLetters() {
        #expect(SafeText.visible("می\u{200C}خواهم") == "می\u{200C}خواهم")
        #expect(SafeText.visible("क\u{094D}\u{200C}ष") == "क\u{094D}\u{200C}ष")
        #expect(SafeText.visible("1\u{200C}2") == "12")
        #expect(SafeText.visible("<\u{200C}") == "<")
    }

    @Test func tagsOnlyInFlagSequences() {
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(SafeText.visible(scotland) == scotland)
        for value in UInt32(0xE0000)...0xE007F {
            #expect(visible([0x61, value, 0x62]) == [0x61, 0x62], "U+\(String(value, radix: 16))")
        }
    }

    @Test func everythingElseIsKept() {
        let kept = "北京 Ünïcödé a\u{0301} ≮ e\u{FE0F} 👩‍🚀 ١٢٣"
        #expect(SafeText.visible(kept) == kept)
    }

    @Test func escapingIsPerScalar() {
        // A `<` in one grapheme cluster with a combining overlay (≮ as < U+0338), and after a
        // prepended concatenation mark, is escaped all the same.
        #expect(SafeText.pango("<\u{0338}b>") == "&lt;\u{0338}b&gt;")
        #expect(SafeText.pango("\u{0600}<b>") == "\u{0600}&lt;b&gt;")
        #expect(SafeText.tmux("\u{0600}#[fg=red]") == "\u{0600}##[fg=red]")
        #expect(SafeText.tmux("B## #{host} #(x) ##[y] #") == "B######## ####{host} ####(x) ####[y] ####")
        #expect(SafeText.polybar("%\u{0301}{F#f00}") == "%\u{0301}{F#f00}")
        #expect(SafeText.polybar("%{F#f00}x%{F-}") == "\u{FF05}{F#f00}x\u{FF05}{F-}")
        #expect(SafeText.polybar(SafeText.visible("a\u{1B}]0;t\u{07}\u{7F}\u{202E}%{A1:x:}")) == "a^[]0;t^G^??\u{FF05}{A1:x:}")
        #expect(SafeText.pangoEntitiesOnly("&amp; &#60; &#x41; &bogus; &#27; <b>") == "&amp; &#60; &#x41; &amp;bogus; &amp;#27; &lt;b&gt;")
    }
}
