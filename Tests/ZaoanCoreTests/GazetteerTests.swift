import Foundation
import Testing
@testable import ZaoanCore
import ZaoanProtocol

/// The gazetteer's reader on files built here in its format (docs/configuration.md,
/// "Cities"): lookups, the order of a shared name, what a greeting shows, and every damaged
/// or truncated variant of a file answered with `Damage`, never a trap.
@Suite("Gazetteer file reader")
struct GazetteerTests {
    /// A file in the format `scripts/generate/cities.py` writes, from rows given here.
    static func file(cities: [String], names: [(key: String, id: Int, spelling: String)]) -> [UInt8] {
        let header = "zaoan-cities\t1\tcities=0000000000\tnames=0000000000\tend=0000000000\n"
        let comment = "# a test file\n"
        let cityText = cities.map { $0 + "\n" }.joined()
        let sorted = names.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        let nameText = sorted.map { "\($0.key)\t\($0.id)\t\($0.spelling)\n" }.joined()
        let citiesAt = header.utf8.count + comment.utf8.count
        let namesAt = citiesAt + cityText.utf8.count
        let end = namesAt + nameText.utf8.count
        func ten(_ value: Int) -> String { String(repeating: "0", count: 10 - String(value).count) + String(value) }
        let head = "zaoan-cities\t1\tcities=\(ten(citiesAt))\tnames=\(ten(namesAt))\tend=\(ten(end))\n"
        return Array((head + comment + cityText + nameText).utf8)
    }

    static let sample = file(
        cities: [
            "1796236\tShanghai\tCN\t24874500\tAsia/Shanghai\t*zh=上海|ko=상하이|es=Shanghái",
            "1808926\tHangzhou\tCN\t6241971\tAsia/Shanghai\t",
            "2867714\tMunich\tDE\t1505005\tEurope/Berlin\t",
            "4250542\tSpringfield\tUS\t114394\tAmerica/Chicago\t",
            "4409896\tSpringfield\tUS\t170188\tAmerica/Chicago\t",
            "4951788\tSpringfield\tUS\t154341\tAmerica/New_York\t",
        ],
        names: [
            ("shanghai", 1796236, ""), ("上海", 1796236, "="), ("上海市", 1796236, "="),
            ("hangzhou", 1808926, ""), ("杭州", 1808926, "="),
            ("munich", 2867714, ""), ("münchen", 2867714, "München"),
            // Equal keys: most populous first, as the script sorts them.
            ("springfield", 4409896, ""), ("springfield", 4951788, ""), ("springfield", 4250542, ""),
        ])

    func lookUp(_ bytes: [UInt8], _ name: String, limit: Int = 10) throws -> (cities: [GazetteerCity], total: Int) {
        try bytes.withUnsafeBytes { raw in try GazetteerData(raw).cities(named: name, limit: limit) }
    }

    @Test("a name finds its city under any spelling, case and width; GeoNames' spelling of what was typed is kept")
    func names() throws {
        for (typed, name, spelling) in [("杭州", "Hangzhou", "杭州"), ("Hangzhou", "Hangzhou", "Hangzhou"), ("HANGZHOU", "Hangzhou", "Hangzhou"),
                                        ("münchen", "Munich", "München"), ("ＭÜＮＣＨＥＮ", "Munich", "München"), (" München ", "Munich", "München"),
                                        ("munich", "Munich", "Munich")] {
            let found = try lookUp(Self.sample, typed)
            #expect(found.total == 1, "\(typed)")
            #expect(found.cities.first?.name == name, "\(typed)")
            #expect(found.cities.first?.spelling == spelling, "\(typed)")
        }
        #expect(try lookUp(Self.sample, "Xyzzyqq").total == 0)
        #expect(try lookUp(Self.sample, "").total == 0)
        #expect(try lookUp(Self.sample, "springfiel").total == 0)  // a prefix is no name
        #expect(try lookUp(Self.sample, "杭").total == 0)
        #expect(try lookUp(Self.sample, String(repeating: "a", count: 10_000)).total == 0)
    }

    @Test("a shared name: every city, most populous first; limit cuts the list, not the count")
    func sharedName() throws {
        let all = try lookUp(Self.sample, "Springfield")
        #expect(all.cities.map(\.population) == [170188, 154341, 114394])
        #expect(all.cities.map(\.zone) == ["America/Chicago", "America/New_York", "America/Chicago"])
        let first = try lookUp(Self.sample, "springfield", limit: 1)
        #expect(first.cities.count == 1 && first.total == 3)
    }

    @Test("shown: CLDR's name in the language for a zone's exemplar city (the main name where CLDR's is the same), else as typed")
    func shownNames() throws {
        let shanghai = try #require(try lookUp(Self.sample, "上海市").cities.first)
        #expect(shanghai.shownName(in: .zh) == "上海")
        #expect(shanghai.shownName(in: .ko) == "상하이")
        #expect(shanghai.shownName(in: .de) == "Shanghai")
        #expect(shanghai.shownName(in: .es) == "Shanghái")
        let munich = try #require(try lookUp(Self.sample, "münchen").cities.first)
        #expect(munich.shownName(in: .zh) == "München")
        #expect(munich.shownName(in: .de) == "München")
    }

    @Test("normalized as Python's NFKC + casefold + strip: ß, final sigma, Cherokee, zero-width space")
    func normalization() {
        #expect(CityName.key("Straße") == "strasse")
        #expect(CityName.key("ΟΔΟΣ") == "οδοσ")
        #expect(CityName.key("ᏣᎳᎩ") == "ᏣᎳᎩ")
        #expect(CityName.key("ꮳꮃꭹ") == "ᏣᎳᎩ")
        #expect(CityName.key("\u{200B}ບານ") == "\u{200B}ບານ")
        #expect(CityName.key("\u{3000}大阪\t") == "大阪")
        #expect(CityName.key("ｏｓａｋａ") == "osaka")
    }

    @Test("a truncated file, at every length, is refused whole or answers without a trap")
    func truncated() throws {
        for length in 0..<Self.sample.count {
            let cut = Array(Self.sample.prefix(length))
            #expect(throws: GazetteerData.Damage.self) { try lookUp(cut, "Springfield") }
        }
    }

    @Test("every byte of the file changed, one at a time: each lookup answers or says the file is damaged")
    func damagedBytes() throws {
        var refused = 0
        for index in Self.sample.indices {
            for value: UInt8 in [0x0A, 0x09, 0x00, 0x39, 0xFF] where Self.sample[index] != value {
                var bytes = Self.sample
                bytes[index] = value
                for name in ["Springfield", "上海", "münchen", "Hangzhou"] {
                    do { _ = try lookUp(bytes, name) } catch { refused += 1 }
                }
            }
        }
        #expect(refused > 0)
    }

    @Test("garbage: lines longer than the reader takes, no newline at all, a name index pointing nowhere")
    func garbage() throws {
        let long = Self.file(cities: ["1\tA\tXX\t1\tUTC\t"], names: [(String(repeating: "a", count: 5000), 1, "")])
        #expect(throws: GazetteerData.Damage.self) { try lookUp(long, "b") }
        var noNewline = Self.sample
        for index in noNewline.indices.dropFirst(GazetteerData.headerBytes) where noNewline[index] == 0x0A { noNewline[index] = 0x20 }
        #expect(throws: GazetteerData.Damage.self) { try lookUp(noNewline, "springfield") }
        let dangling = Self.file(cities: ["1\tA\tXX\t1\tUTC\t"], names: [("b", 2, "")])
        #expect(throws: GazetteerData.Damage.self) { try lookUp(dangling, "b") }
        #expect(throws: GazetteerData.Damage.self) { try lookUp(Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 200), "a") }
    }
}
