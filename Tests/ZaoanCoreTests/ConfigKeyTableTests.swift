import Foundation
import Testing
@testable import ZaoanCore

/// The config keys are written once, in `ConfigKey.all`: the page that documents them
/// (docs/configuration.md, "Every key") lists exactly those keys, with each whole number's
/// bounds as the table has them, and the reader takes every key of the table.
@Suite struct ConfigKeyTableTests {
    static let page: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ZaoanCoreTests/<this file>
        return (try? String(contentsOf: url.appendingPathComponent("docs/configuration.md"), encoding: .utf8)) ?? ""
    }()

    /// The rows of the "Every key" table: the keys of each (a row may name two) and its text.
    static var rows: [(keys: [String], text: String)] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(of: "## Every key") else { return [] }
        var rows: [(keys: [String], text: String)] = []
        for line in lines[(heading + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            let first = line.dropFirst(2).prefix { $0 != "|" }
            let keys = first.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            rows.append((keys, line))
        }
        return rows
    }

    @Test("docs/configuration.md lists exactly the table's keys, each once")
    func docsListTheTable() {
        let documented = Self.rows.flatMap(\.keys)
        #expect(documented.count >= 29, "\(documented)")
        #expect(documented.count == Set(documented).count, "a key listed twice: \(documented)")
        #expect(Set(documented) == Set(ConfigKey.all.map(\.name)),
                "only in the docs: \(Set(documented).subtracting(ConfigKey.all.map(\.name))); only in the table: \(Set(ConfigKey.all.map(\.name)).subtracting(documented))")
    }

    @Test("each whole number's bounds in docs/configuration.md are the table's")
    func docsGiveTheBounds() {
        for key in ConfigKey.all {
            guard let range = key.range else { continue }
            let row = Self.rows.first { $0.keys.contains(key.name) }?.text ?? ""
            #expect(row.contains("\(range.lowerBound)–\(range.upperBound)"), "\(key.name): \(row)")
        }
    }

    @Test("the table names each key once, in snake_case, with a line saying what it is for")
    func tableIsWellFormed() {
        let names = ConfigKey.all.map(\.name)
        #expect(names.count == Set(names).count)
        for key in ConfigKey.all {
            #expect(key.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } && !key.summary.isEmpty, "\(key.name)")
            #expect(ConfigKey.named(key.name) == key)
            if case .integer(let range, let fallback) = key.kind, let range, let fallback {
                #expect(range.contains(fallback), "\(key.name)'s default is outside its bounds")
            }
        }
    }

    @Test("the reader takes every key of the table, and a value out of bounds is named with them")
    func readerTakesEveryKey() {
        for key in ConfigKey.all {
            let reading = ConfigFile.read(Array(#"{"\#(key.name)": null}"#.utf8))
            #expect(reading.problems.isEmpty, "\(key.name): \(reading.problems)")
        }
        for key in ConfigKey.all {
            guard let range = key.range else { continue }
            let reading = ConfigFile.read(Array(#"{"\#(key.name)": \#(range.upperBound + 1)}"#.utf8))
            #expect(reading.problems.isEmpty)
            let resolved = Settings.resolving(reading.file, positions: reading.positions, systemZone: Zone.named("UTC")!)
            #expect(resolved.problems.map(\.message) == ["config key '\(key.name)': must be between \(range.lowerBound) and \(range.upperBound), got \(range.upperBound + 1)"])
        }
    }
}
