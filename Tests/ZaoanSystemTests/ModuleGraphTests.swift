import Foundation
import Testing

/// Issue 35, point 8: the modules and their one-way arrows, as docs/development.md draws
/// them, are Package.swift's, and every module a source file imports is one its target
/// declares (not one that only arrives through another module's dependencies). Read as
/// text: Package.swift's `name:` and `dependencies:` of each target under Sources, each
/// file's `import` lines, and the doc's block of arrows.
@Suite struct ModuleGraphTests {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ZaoanSystemTests/<this file>
        return url.path
    }()

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// Each target of Package.swift whose sources are Sources/<name>, with the targets it
    /// declares (system libraries and C targets included; plugins left out).
    static func declared() throws -> [String: Set<String>] {
        let manifest = try text("Package.swift")
        let target = /\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(,\s*dependencies:\s*\[([^\]]*)\])?([^\n]*)/
        var graph: [String: Set<String>] = [:]
        for match in manifest.matches(of: target) where !match.output.4.contains("path:") {
            let names = (match.output.3?.matches(of: /"([^"]+)"/) ?? []).map { String($0.output.1) }
            graph[String(match.output.1)] = Set(names)
        }
        return graph
    }

    @Test("every target under Sources is read from Package.swift, with its dependencies")
    func manifestIsRead() throws {
        let graph = try Self.declared()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/Sources")
        #expect(Set(graph.keys) == Set(folders), "Package.swift's targets and Sources' folders differ")
        #expect(graph["ZaoanTime"] == ["ZaoanSystem"])
        #expect(graph["ZaoanText"] == [])
    }

    @Test("a file imports only modules its target declares")
    func importsAreDeclared() throws {
        let graph = try Self.declared()
        let modules = Set(graph.keys)
        let importLine = /^(?:@_exported |@preconcurrency )?import ([A-Za-z_]+)/
        var undeclared: [String] = []
        for (target, dependencies) in graph {
            let folder = Self.root + "/Sources/" + target
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                for line in try Self.text("Sources/\(target)/\(file)").split(separator: "\n") {
                    guard let imported = line.firstMatch(of: importLine)?.output.1, modules.contains(String(imported)),
                          !dependencies.contains(String(imported)) else { continue }
                    undeclared.append("Sources/\(target)/\(file) imports \(imported), which \(target) does not declare")
                }
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared.sorted().joined(separator: "\n"))")
    }

    @Test("docs/development.md's arrows are Package.swift's")
    func documentedArrows() throws {
        // The first fenced block after the section's heading.
        let doc = try Self.text("docs/development.md")
        let section = try #require(doc.firstRange(of: "### Modules and their arrows\n"), "the doc has no such section")
        let fences = doc[section.upperBound...].ranges(of: "```\n").prefix(2)
        try #require(fences.count == 2, "the section has no block of arrows")
        let block = doc[fences[fences.startIndex].upperBound..<fences[fences.index(after: fences.startIndex)].lowerBound]
        let arrow = /^([A-Za-z_-]+) +→ (.*)$/
        var drawn: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") {
            guard let match = line.firstMatch(of: arrow) else { continue }
            let targets = match.output.2 == "nothing" ? [] : match.output.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(drawn.updateValue(Set(targets), forKey: String(match.output.1)) == nil, "\(match.output.1) is drawn twice")
        }
        let declared = try Self.declared()
        for (target, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(drawn[target] == dependencies, "\(target): the doc draws \(drawn[target].map { $0.sorted() } ?? []), Package.swift declares \(dependencies.sorted())")
        }
        #expect(Set(drawn.keys) == Set(declared.keys), "the doc draws modules Package.swift does not have")
    }
}
