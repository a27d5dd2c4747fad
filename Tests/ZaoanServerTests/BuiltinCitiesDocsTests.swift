import Foundation
import Testing
import ZaoanCore

/// The built-in cities are one list: the code's `BuiltinCities.all`, docs/configuration.md
/// and zaoan.conf(5) list the same cities with the same names and zones, and the real service
/// answers every one of those names (a docs page once promised 协调世界时 while the service
/// said `unknown city`).
@Suite("Built-in cities: code, docs/configuration.md and man page agree")
struct BuiltinCitiesDocsTests {
    struct City: Hashable, CustomStringConvertible {
        let chinese: String, english: String, zone: String
        var description: String { "\(chinese) \(english) → \(zone)" }
    }

    /// Parses `北京 Beijing, 上海 Shanghai → Asia/Shanghai; 香港 Hong Kong → ...`, in the
    /// order written; text before the first `;`-group with an arrow is skipped.
    static func parse(_ text: String, arrow: String) -> [City] {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var cities: [City] = []
        for group in flat.split(separator: ";") {
            let parts = group.components(separatedBy: " \(arrow) ")
            guard parts.count == 2 else { continue }
            var zone = parts[1].trimmingCharacters(in: .whitespaces)
            if zone.hasSuffix(".") { zone.removeLast() }
            for name in parts[0].split(separator: ",") {
                let words = name.split(separator: " ")
                guard let first = words.first else { continue }
                cities.append(City(chinese: String(first), english: words.dropFirst().joined(separator: " "), zone: zone))
            }
        }
        return cities
    }

    static func section(_ text: String, from start: String, to end: String) throws -> String {
        let head = try #require(text.range(of: start), "'\(start)' not found")
        let rest = text[head.upperBound...]
        let tail = try #require(rest.range(of: end), "'\(end)' not found after '\(start)'")
        return String(rest[..<tail.lowerBound])
    }

    static var code: [City] { BuiltinCities.all.map { City(chinese: $0.chinese, english: $0.english, zone: $0.zone) } }

    @Test("docs/configuration.md's list is the code's list")
    func readme() throws {
        let readme = try String(contentsOfFile: Locations.packageRoot + "/docs/configuration.md", encoding: .utf8)
        let text = try Self.section(readme, from: "Built-in cities (Chinese / English name → zone):", to: "\n\n")
        #expect(Self.parse(text, arrow: "→") == Self.code)
    }

    @Test("zaoan.conf(5) lists the code's list")
    func manPage() throws {
        let page = try String(contentsOfFile: Locations.packageRoot + "/docs/man/zaoan.conf.5.scd", encoding: .utf8)
        let text = try Self.section(page, from: "checks both against the code:\n", to: "\n\n")
        #expect(Self.parse(text, arrow: "→") == Self.code)
    }

    /// The languages of the table of other names, in its column order.
    static let otherLanguages: [Language] = [.zhHant, .ja, .ko, .de, .fr, .es]

    @Test("docs/configuration.md's table of names in the other languages is the code's")
    func otherNamesTable() throws {
        let page = try String(contentsOfFile: Locations.packageRoot + "/docs/configuration.md", encoding: .utf8)
        let text = try Self.section(page, from: "| English | zh-Hant | ja | ko | de | fr | es |\n|---|---|---|---|---|---|---|\n", to: "\n\n")
        let rows = text.split(separator: "\n").map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let expected = BuiltinCities.all.filter { $0.zone != "UTC" }.map { city in
            [city.english] + Self.otherLanguages.map { city.name(in: $0) }
        }
        #expect(rows == expected)
        #expect(Language.allCases.allSatisfy { BuiltinCities.name(forZone: "UTC", language: $0) == "UTC" })
    }

    /// What a greeting calls a built-in city, however it was typed (issue 33: the name in
    /// the configured language; it was the name as typed). UTC is UTC in every language.
    static func shown(_ city: BuiltinCities.City, in language: Language) -> String {
        city.zone == "UTC" ? "UTC" : city.name(in: language)
    }

    /// Every name in the other languages greets under the city's Japanese name, with the
    /// zone's offset, and a service in that language without a city names its zone's city so.
    @Test("the service answers every name in the other languages")
    func otherNamesThroughTheService() throws {
        let service = try TestService.start(arguments: ["--language", "ja", "--timezone", "Asia/Seoul"])
        defer { try? service.stop() }
        #expect(try service.ask("greeting").hasSuffix("·ソウル\n"))
        for city in BuiltinCities.all {
            let offset = try #require(TimeZone(identifier: city.zone)).secondsFromGMT()
            let expected = (offset < 0 ? "-" : "+") + String(format: "%02d%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
            for name in Set(Self.otherLanguages.map { city.name(in: $0) }) {
                #expect(try service.ask("greeting \(name)").hasSuffix("·\(Self.shown(city, in: .ja))\n"), "greeting \(name)")
                #expect(try service.ask(#"time xx @""# + name + #"""#) == expected + "\n", "\(name) → \(city.zone)")
            }
        }
    }

    /// Every name of every city, in both languages and any case, greets under its Chinese
    /// name, and `time` for it (`time xx @NAME`) has the offset of the city's zone.
    @Test("the service answers every built-in name")
    func service() throws {
        let service = try TestService.start(arguments: ["--language", "zh", "--timezone", "UTC"])
        defer { try? service.stop() }
        for city in Self.code {
            for name in [city.chinese, city.english, city.english.lowercased()] {
                let answer = try service.ask("greeting \(name)")
                #expect(!answer.hasPrefix("ERR"), "greeting \(name): \(answer)")
                #expect(answer.hasSuffix("·\(city.zone == "UTC" ? "UTC" : city.chinese)\n"), "greeting \(name): \(answer)")
                // The city's zone: its offset now, as Foundation (ICU) has it for the zone.
                let offset = try #require(TimeZone(identifier: city.zone)).secondsFromGMT()
                let expected = (offset < 0 ? "-" : "+") + String(format: "%02d%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
                #expect(try service.ask(#"time xx @""# + name + #"""#) == expected + "\n", "\(name) → \(city.zone)")
            }
        }
        #expect(try service.ask("greeting 协调世界时").hasSuffix("·UTC\n"))
    }
}
