import Testing
@testable import ZaoanText

/// The markup a client lets through from the service (`month`'s tooltip) and how `zaoan cal`
/// shows it in a terminal.
@Suite struct PangoTagsTests {
    @Test("zaoan's own tags stay; any other tag, attribute or colour form is escaped text", arguments: [
        ("<tt><b>x</b></tt>", "<tt><b>x</b></tt>"),
        (##"<span foreground="#e05561"> 5</span>"##, ##"<span foreground="#e05561"> 5</span>"##),
        (##"<span foreground="red">x</span>"##, ##"&lt;span foreground="red"&gt;x&lt;/span&gt;"##),
        (##"<span foreground="#E05561">x</span>"##, ##"&lt;span foreground="#E05561"&gt;x&lt;/span&gt;"##),
        (##"<span font="99">x</span>"##, ##"&lt;span font="99"&gt;x&lt;/span&gt;"##),
        ("<i>x</i>", "&lt;i&gt;x&lt;/i&gt;"),
        (##"<span font_family="Noto Sans Mono CJK SC,monospace">x</span>"##, ##"<span font_family="Noto Sans Mono CJK SC,monospace">x</span>"##),
        (##"<span font_family="Noto Sans Mono CJK SC,WenQuanYi Zen Hei Mono,monospace">x</span>"##, ##"<span font_family="Noto Sans Mono CJK SC,WenQuanYi Zen Hei Mono,monospace">x</span>"##),
        (##"<span font_family="a;b">x</span>"##, ##"&lt;span font_family="a;b"&gt;x&lt;/span&gt;"##),
        (##"<span font_family="a" size="99999">x</span>"##, ##"&lt;span font_family="a" size="99999"&gt;x&lt;/span&gt;"##),
        ("<b >x", "&lt;b &gt;x"),
        ("<<b>>", "&lt;<b>&gt;</b>"),
    ])
    func filtered(markup: String, kept: String) {
        #expect(SafeText.pangoEntitiesOnly(markup, keepingTags: true) == kept)
        #expect(!SafeText.pangoEntitiesOnly(markup).contains("<"), "without keepingTags no tag passes")
    }

    @Test("balanced always: an end tag that closes nothing open is text, what is left open is closed, nesting is bounded")
    func balanced() {
        #expect(SafeText.pangoEntitiesOnly("</b>x<b>y", keepingTags: true) == "&lt;/b&gt;x<b>y</b>")
        #expect(SafeText.pangoEntitiesOnly("<b><u>x</b></u>", keepingTags: true) == "<b><u>x&lt;/b&gt;</u></b>")
        let deep = String(repeating: "<b>", count: 20) + "x"
        let kept = SafeText.pangoEntitiesOnly(deep, keepingTags: true)
        #expect(kept.split(separator: "<b>", omittingEmptySubsequences: false).count - 1 == PangoTags.maxDepth)
        #expect(kept.hasSuffix(String(repeating: "</b>", count: PangoTags.maxDepth)))
    }

    @Test("in a terminal: SGR for bold, underline and colours, entities decoded, no control character from an entity")
    func terminal() {
        let markup = ##"<tt><b>T</b> <span foreground="#e05561">5</span> <u>7</u> &lt;&amp;&#27;[2J&#x1b;</tt>"##
        let coloured = PangoTerminal.render(markup, colours: true)
        #expect(coloured.contains("\u{1B}[1mT") && coloured.contains("\u{1B}[38;2;224;85;97m5") && coloured.contains("\u{1B}[4m7"))
        let plain = PangoTerminal.render(markup, colours: false)
        #expect(plain == "T 5 7 <&␛[2J␛", "\(plain.debugDescription)")
        #expect(!coloured.contains("\u{1B}[2J"), "an entity's ESC is shown, never sent")
    }
}
