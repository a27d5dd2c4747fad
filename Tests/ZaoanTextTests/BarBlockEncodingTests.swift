import Testing
import ZaoanText

/// `I3barBlock.encoded` writes its constant keys as they are and escapes only the values;
/// the oracle is how it was written before, an object through `JSONWriter.write`, compared
/// byte for byte over random blocks: every field present or not, values from every escape class.
@Suite struct BarBlockEncodingTests {
    @Test("random blocks encode exactly as through JSONWriter.write of the object")
    func matchesObjectWriter() throws {
        var random = SeededGenerator(seed: 34)
        let colors = [nil, BarColor(hex: "#FF0000"), BarColor(hex: "#00ff0080")]
        func text(_ random: inout SeededGenerator) -> String {
            var out = ""
            for _ in 0..<Int(random.next() % 12) {
                out += random.next() % 3 == 0 ? JSONWriterEscapeTests.pieces[Int(random.next() % UInt64(JSONWriterEscapeTests.pieces.count))] : "早x"
            }
            return out
        }
        for _ in 0..<2000 {
            var block = I3barBlock(instance: text(&random), fullText: text(&random),
                                   shortText: random.next() % 2 == 0 ? nil : text(&random),
                                   urgent: random.next() % 2 == 0, pango: random.next() % 2 == 0,
                                   color: colors[Int(random.next() % UInt64(colors.count))])
            if random.next() % 4 == 0 { block.name = text(&random) }
            #expect(block.encoded == Self.oldEncoding(block))
        }
    }

    /// The encoding before the keys were written as they are.
    static func oldEncoding(_ block: I3barBlock) -> String {
        var fields: [(String, JSONWriter.Value)] = [("name", .string(block.name)), ("instance", .string(block.instance)),
                                                    ("full_text", .string(block.fullText))]
        if let shortText = block.shortText { fields.append(("short_text", .string(shortText))) }
        if let color = block.color { fields.append(("color", .string(color.hex))) }
        fields.append(("urgent", .bool(block.urgent)))
        fields.append(("markup", .string(block.markup)))
        return JSONWriter.write(.object(fields))
    }
}
