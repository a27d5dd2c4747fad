import Foundation
import Testing
@testable import ZaoanTime

/// The LDML engine's own checks: the generated table is the generator's output, patterns
/// are read or refused as documented and any input is one of the two, and the fields whose
/// mistakes the differential test would only see in some languages are pinned here.
@Suite struct LDMLPatternTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("the committed LDMLWords+CLDR.swift and LDMLZoneWords+CLDR.swift are what ldml-words.py and ldml-zones.py make from Babel 2.17.0 (CLDR 47)",
          arguments: [("ldml-words.py", "LDMLWords+CLDR.swift"), ("ldml-zones.py", "LDMLZoneWords+CLDR.swift")])
    func generatedTable(script: String, table: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.root + "/scripts/generate/" + script, Self.root + "/.build/oracle-python"]
        process.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run scripts/ensure-oracles first (it installs Babel into .build/oracle-python)")
        let committed = try String(contentsOfFile: Self.root + "/Sources/ZaoanTime/" + table, encoding: .utf8)
        #expect(String(decoding: data, as: UTF8.self) == committed, "run scripts/generate/\(script) > Sources/ZaoanTime/\(table)")
    }

    @Test("letters make fields, quotes make literals, '' is a quote")
    func reading() throws {
        let pattern = try LDMLPattern("HH'h'mm 'o''clock' ''x, é日")
        #expect(pattern.pieces == [.field(.hour23, width: 2), .literal("h"), .field(.minute, width: 2), .literal(" o'clock '"),
                                   .field(.zoneISO, width: 1), .literal(", é日")])
        #expect(try LDMLPattern("").pieces.isEmpty)
        #expect(try LDMLPattern("''").pieces == [.literal("'")])
    }

    @Test("unsupported letters, widths, open quotes and long patterns are refused by name")
    func refusals() {
        #expect(throws: LDMLPatternError.unsupportedField(letter: "u", width: 2)) { try LDMLPattern("uu") }
        #expect(throws: LDMLPatternError.unsupportedField(letter: "F", width: 1)) { try LDMLPattern("HH:mm F") }
        #expect(throws: LDMLPatternError.shortZoneID) { try LDMLPattern("HH:mm V") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "v", width: 2)) { try LDMLPattern("vv") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "z", width: 5)) { try LDMLPattern("zzzzz") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "W", width: 2)) { try LDMLPattern("WW") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "V", width: 5)) { try LDMLPattern("VVVVV") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "M", width: 6)) { try LDMLPattern("MMMMMM") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "O", width: 2)) { try LDMLPattern("OO") }
        #expect(throws: LDMLPatternError.unsupportedWidth(letter: "d", width: 3)) { try LDMLPattern("ddd") }
        #expect(throws: LDMLPatternError.unterminatedQuote) { try LDMLPattern("HH 'Uhr") }
        #expect(throws: LDMLPatternError.tooLong(length: 1_025)) { try LDMLPattern(String(repeating: "y", count: 1_025)) }
        #expect(LDMLPatternError.unsupportedField(letter: "u", width: 2).description
                == "the pattern field 'uu' is not one zaoan formats; quote letters meant as text ('at')")
    }

    @Test("random patterns are read or refused, never trap, and render within bounds")
    func randomPatterns() throws {
        var random = LDMLDifferentialTests.Generator(state: 0xF022)
        let zone = try ZoneInfoStore.shared.zoneInfo(named: "Asia/Kathmandu")
        let alphabet = Array("GyQqMLdDEecahHKkmsSZxXOwWYuUgzvVjJAbB'' :-.日é\u{0}\nzzvvvvVVVwwWYYbbBB")
        var (read, refused) = (0, 0)
        for round in 0..<20_000 {
            let text: String
            if round % 2 == 0 {
                let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                text = String((0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
            guard let pattern = try? LDMLPattern(text) else {
                refused += 1
                continue
            }
            read += 1
            let instant = Int.random(in: Int.min...Int.max, using: &random)
            let nanoseconds = Int.random(in: -2_000_000_000...2_000_000_000, using: &random)
            for language in LDMLLanguage.allCases {
                let output = LDMLRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone,
                                                 zoneIdentifier: round % 3 == 0 ? nil : "Asia/Kathmandu", language: language)
                // Each field is at most a name (under 64 bytes) or a number padded to the
                // pattern's own length: the answer is bounded by the pattern.
                #expect(output.utf8.count <= 64 * (text.utf8.count + 1))
            }
        }
        #expect(read > 1_000 && refused > 1_000)
    }
}
