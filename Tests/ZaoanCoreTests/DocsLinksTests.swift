import Foundation
import Testing

/// The README is the front door and docs/ holds the reference: every relative link in them
/// (and in the READMEs under packaging/) must reach a file that exists, and every `#anchor`
/// a heading of that file, as GitHub makes anchors from headings. A page moved or a heading
/// renamed without its links fails here, and so does a README grown past 25,000 bytes or a
/// docs page that cannot be reached from it.
@Suite struct DocsLinksTests {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ZaoanCoreTests/<this file>
        return url.path
    }()

    /// README.md, docs/*.md and every .md under packaging/, relative to the root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var packaging: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root + "/packaging")
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".md") { packaging.append("packaging/" + relative) }
        }
        return ["README.md"] + docs + packaging.sorted()
    }

    static func text(_ document: String) throws -> String {
        try String(contentsOfFile: root + "/" + document, encoding: .utf8)
    }

    /// The lines of a markdown text outside fenced code blocks, with inline code spans taken
    /// out: what is left is where links live.
    static func prose(_ markdown: String) -> [(number: Int, text: String)] {
        var lines: [(Int, String)] = []
        var fenced = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                lines.append((index + 1, String(line).replacing(#/`[^`]*`/#, with: "")))
            }
        }
        return lines
    }

    /// Inline links and images, `[text](target)` and `![alt](target)`: their targets.
    static func links(_ markdown: String) -> [(line: Int, target: String)] {
        prose(markdown).flatMap { line in
            line.text.matches(of: #/\]\(([^)\s]+)\)/#).map { (line.number, String($0.output.1)) }
        }
    }

    /// GitHub's anchor for a heading: lower case, every character but letters, digits,
    /// spaces, `-` and `_` dropped, spaces made `-`; a repeated heading gets `-1`, `-2`, ...
    static func anchor(_ heading: String) -> String {
        let kept = heading.trimmingCharacters(in: .whitespaces).lowercased().filter {
            $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_"
        }
        return kept.replacingOccurrences(of: " ", with: "-")
    }

    static func anchors(_ markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        var fenced = false
        for line in markdown.split(separator: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle() }
            // A code span in a heading counts as its text (the backquotes are dropped anyway).
            guard !fenced, let match = line.firstMatch(of: #/^#{1,6} (.+)$/#) else { continue }
            let base = anchor(String(match.output.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// Every broken link of one document, as `document:line: target: why`.
    static func brokenLinks(in document: String) throws -> [String] {
        let directory = URL(fileURLWithPath: root + "/" + document).deletingLastPathComponent()
        var broken: [String] = []
        for (line, target) in links(try text(document)) {
            guard target.firstMatch(of: #/^[a-zA-Z][a-zA-Z0-9+.-]*:/#) == nil else { continue }  // https:, mailto:
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0])
            let file = path.isEmpty ? root + "/" + document : directory.appendingPathComponent(path).standardized.path
            guard FileManager.default.fileExists(atPath: file) else {
                broken.append("\(document):\(line): \(target): there is no \(file.dropFirst(root.count + 1))")
                continue
            }
            if parts.count == 2, file.hasSuffix(".md") {
                let anchor = String(parts[1])
                let headings = anchors(try String(contentsOfFile: file, encoding: .utf8))
                if !headings.contains(anchor) {
                    broken.append("\(document):\(line): \(target): no heading of \(file.dropFirst(root.count + 1)) has the anchor #\(anchor)")
                }
            }
        }
        return broken
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("Connections: one-shot, session and watch") == "connections-one-shot-session-and-watch")
        #expect(Self.anchor("live add ID START [TITLE...] [end=END] [repeat=RULE]") == "live-add-id-start-title-endend-repeatrule")
        #expect(Self.anchors("# A\n## `packaging/install.sh`\n## A\n```\n## not a heading\n```\n") == ["a", "packaginginstallsh", "a-1"])
    }

    @Test func everyRelativeLinkResolves() throws {
        let documents = try Self.documents()
        #expect(documents.count >= 10, "\(documents)")
        var checked = 0
        var broken: [String] = []
        for document in documents {
            checked += Self.links(try Self.text(document)).count
            broken += try Self.brokenLinks(in: document)
        }
        #expect(checked >= 100, "only \(checked) links found: is the link reader broken?")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func readmeIsTheFrontDoor() throws {
        let size = try #require(FileManager.default.contents(atPath: Self.root + "/README.md")).count
        #expect(size <= 25_000, "README.md is \(size) bytes; keep it at most 25,000 and move reference text into docs/")
        let targets = Set(Self.links(try Self.text("README.md")).map { $0.target.split(separator: "#", omittingEmptySubsequences: false)[0] })
        for page in try Self.documents() where page.hasPrefix("docs/") {
            #expect(targets.contains(Substring(page)), "README.md does not link \(page)")
            let head = try Self.text(page).split(separator: "\n").prefix(4).joined(separator: "\n")
            #expect(head.contains("](../README.md)"), "\(page) does not say near its top what it covers with a link back to the README")
        }
    }
}
