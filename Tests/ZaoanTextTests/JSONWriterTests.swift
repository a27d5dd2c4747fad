import Testing
import ZaoanText

/// The one JSON writer and the clients' one-line reading (`JSONReader.line`), which replaced
/// a second reader (`ZaoanText.JSON`) and hand-written objects.
@Suite struct JSONWriterTests {
    @Test("a line: members in order, no spaces; DEL and U+2028/U+2029 escaped besides what JSON requires, '/' not")
    func lineLayout() {
        let value = JSONWriter.Value.object([
            ("text", .string("a/b \"c\" \\ \u{07}\u{1F}\u{7F}\u{2028}\u{2029}é\n\t\r")), ("n", .integer(-3)),
            ("x", .double(0.5)), ("ok", .bool(true)), ("none", .null), ("list", .array([])), ("empty", .object([])),
        ])
        #expect(JSONWriter.write(value) ==
            #"{"text":"a/b \"c\" \\ \u0007\u001f\u007f\u2028\u2029é\n\t\r","n":-3,"x":0.5,"ok":true,"none":null,"list":[],"empty":{}}"#)
    }

    @Test("the state file's layout: sorted keys, two-space indent, ' : ', empty containers on three lines, '/' escaped")
    func stateFileLayout() {
        let value = JSONWriter.Value.object([("b", .array([.double(1_796_000_000), .double(1e-7)])), ("a", .string("x/y\u{08}\u{7F}")),
                                             ("c", .array([])), ("d", .object([]))])
        #expect(JSONWriter.write(value, layout: .stateFile) == """
            {
              "a" : "x\\/y\\b\u{7F}",
              "b" : [
                1796000000,
                1e-07
              ],
              "c" : [

              ],
              "d" : {

              }
            }
            """)
    }

    @Test("numbers as Swift spells a Double, without '.0'; not finite is null", arguments: [
        (1_796_000_000.0, "1796000000"), (-0.0, "-0"), (0.1, "0.1"), (1e300, "1e+300"), (9.3e18, "9.3e+18"),
        (123_456_789_012_345_680, "1.2345678901234568e+17"), (Double.infinity, "null"), (Double.nan, "null"),
    ])
    func numbers(value: Double, text: String) {
        #expect(JSONWriter.number(value) == text)
    }

    @Test("bar blocks are the bytes bars have always read")
    func barBlocks() {
        let block = I3barBlock(instance: "0", fullText: "早安·北京 <b>", shortText: "早安", urgent: true, pango: false)
        #expect(block.encoded == #"{"name":"zaoan","instance":"0","full_text":"早安·北京 <b>","short_text":"早安","urgent":true,"markup":"none"}"#)
        #expect(WaybarObject(text: "a\u{2028}b", tooltip: "t", state: "soon").encoded == #"{"text":"a\u2028b","tooltip":"t","class":"soon","alt":"soon"}"#)
        #expect(SafeText.jsonString("\u{7F}/") == #""\u007f/""#)
    }

    @Test("what the writer writes, the line reader reads back")
    func roundTrip() throws {
        let text = "夜读 \u{0}\u{1F}\u{7F}\u{2028}\"\\/ 🀄 e\u{301}"
        let line = JSONWriter.write(.object([("text", .string(text)), ("list", .array([.integer(1), .double(2.5)]))]))
        let read = try #require(JSONReader.line(line))
        #expect(read["text"]?.string == text && read["list"]?.items?.count == 2 && read["list"]?.items?[0].integer == 1)
    }

    @Test("a line is strict JSON, 16 levels at most, each key once; anything else is nil", arguments: [
        (String(repeating: "[", count: 16) + String(repeating: "]", count: 16), true),
        (String(repeating: "[", count: 17) + String(repeating: "]", count: 17), false),
        (#"{"a":1,"a":2}"#, false), (#"{"a":1,}"#, false), (#"{"a":1} // c"#, false), (#"{"a":+1}"#, false),
        (#"{"a":01}"#, false), (#" {"button": 1, "x": 1.5e3} "#, true), ("", false), ("\u{FEFF}{}", false),
    ])
    func lineReading(text: String, read: Bool) {
        #expect((JSONReader.line(text) != nil) == read, "\(text)")
    }

    @Test("a click's button is a whole number however it is written")
    func integers() {
        #expect(JSONReader.line(#"{"button": 3}"#)?["button"]?.integer == 3)
        #expect(JSONReader.line(#"{"button": 3.0}"#)?["button"]?.integer == 3)
        #expect(JSONReader.line(#"{"button": 3.5}"#)?["button"]?.integer == nil)
        #expect(JSONReader.line(#"{"button": 1e300}"#)?["button"]?.integer == nil)
    }
}
