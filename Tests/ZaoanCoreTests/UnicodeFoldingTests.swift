import Foundation
import Testing
import ZaoanText

/// `UnicodeFolding` against Python's `unicodedata` (the generator's source): the committed
/// tables are what the script makes, and on random texts built from every scalar the tables
/// change, combining marks, Hangul jamo and other assigned scalars, NFKC + case folding and
/// case folding alone give Python's answer.
@Suite struct UnicodeFoldingTests {
    static let python = "/usr/bin/python3"

    @Test("the committed UnicodeFolding+Data.swift is what scripts/generate/unicode-folding.py makes")
    func generated() throws {
        let root = DocsLinksTests.root
        let result = DateOracle.run(Self.python, [root + "/scripts/generate/unicode-folding.py"], environment: [:])
        #expect(result.status == 0, "\(result.errorText)")
        let committed = try String(contentsOfFile: root + "/Sources/ZaoanText/UnicodeFolding+Data.swift", encoding: .utf8)
        #expect(result.output == committed, "run scripts/generate/unicode-folding.py > Sources/ZaoanText/UnicodeFolding+Data.swift")
    }

    @Test("20,000 random texts: Python's normalize(\"NFKC\", s).casefold() and s.casefold()")
    func sameAsPython() throws {
        let script = """
        import random, unicodedata
        rng = random.Random(34)
        pool = []
        for cp in range(0x110000):
            if 0xD800 <= cp <= 0xDFFF: continue
            c = chr(cp)
            if unicodedata.normalize("NFKC", c) != c or c.casefold() != c or unicodedata.combining(c): pool.append(c)
        pool += [chr(c) for c in range(0x1100, 0x1176)] + [chr(c) for c in range(0x11A8, 0x11C3)] + list("AZaz09 ßΣσς")
        assigned = [chr(c) for c in range(0x20, 0x30000) if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) not in ("Cn", "Cs", "Co", "Cc")]
        hexed = lambda s: " ".join("%X" % ord(c) for c in s)
        for _ in range(20000):
            s = "".join(rng.choice(pool if rng.random() < 0.8 else assigned) for _ in range(rng.randint(1, 6)))
            print(hexed(s) + ";" + hexed(unicodedata.normalize("NFKC", s).casefold()) + ";" + hexed(s.casefold()))
        """
        let result = DateOracle.run(Self.python, ["-c", script], environment: [:])
        try #require(result.status == 0, "\(result.errorText)")
        func text(_ hex: Substring) -> String {
            String(String.UnicodeScalarView(hex.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }))
        }
        func scalars(_ text: String) -> String { text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") }
        var compared = 0
        var differences: [String] = []
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            try #require(fields.count == 3, "\(line)")
            let input = text(fields[0])
            // Compared scalar by scalar: `==` on String would forgive a missing composition.
            let nfkc = scalars(UnicodeFolding.nfkcCaseFolded(input)), folded = scalars(UnicodeFolding.caseFolded(input))
            if nfkc != String(fields[1]) && differences.count < 10 { differences.append("NFKC+fold \(fields[0]): \(nfkc) vs Python \(fields[1])") }
            if folded != String(fields[2]) && differences.count < 10 { differences.append("fold \(fields[0]): \(folded) vs Python \(fields[2])") }
            compared += 1
        }
        #expect(compared == 20_000)
        #expect(differences.isEmpty, "\(differences)")
    }
}
