import Testing
@testable import ZaoanText

/// `SafeText.mayNeedAttention`, the first look every answer passes, reads contiguous bytes;
/// the oracle is the same test through `utf8.contains`, as it was written before, and the
/// table it must not miss (`needsAttention`).
@Suite struct SafeTextFirstLookTests {
    static func oldFirstLook(_ text: String) -> Bool {
        text.utf8.contains { byte in
            (byte < 0x20 && byte != 0x09) || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF || byte == 0xF3
        }
    }

    @Test("every scalar, alone and between letters: the same answer as before, and never a miss of the table")
    func everyScalar() {
        var differences: [UInt32] = []
        var misses: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let alone = String(scalar)
            let between = "ab" + alone + "cd"
            if SafeText.mayNeedAttention(alone) != Self.oldFirstLook(alone)
                || SafeText.mayNeedAttention(between) != Self.oldFirstLook(between) {
                differences.append(value)
            }
            if SafeText.needsAttention(scalar) && !SafeText.mayNeedAttention(between) { misses.append(value) }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10).map { String($0, radix: 16) })")
        #expect(misses.isEmpty, "\(misses.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("random strings of many scalars: the same answer as before")
    func randomStrings() {
        var random = SeededGenerator(seed: 34)
        let pieces = JSONWriterEscapeTests.pieces + ["\u{AD}", "\u{61C}", "\u{200B}", "\u{FEFF}", "\u{E0001}", "\u{F0000}", "é"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(random.next() % 30) {
                text += random.next() % 3 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : "早x"
            }
            #expect(SafeText.mayNeedAttention(text) == Self.oldFirstLook(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
