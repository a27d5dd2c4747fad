import Foundation
import Testing

/// What the READMEs show is what the tests run: every command and code block they give for a
/// bar or prompt must be the tested snippet (word for word), and every command is run here
/// against a service with a hostile room ahead. A form in the docs can never drift from the
/// tested one (a table once showed a tmux command that, pasted into tmux.conf, let a title
/// restyle the status line).
@Suite("Integrations: the docs show the tested snippets")
struct IntegrationDocsTests {
    static let integrationsReadme = Snippet.directory + "/README.md"
    static let mainReadme = Locations.packageRoot + "/README.md"
    static let barsPage = Locations.packageRoot + "/docs/bars.md"
    /// The main README's section with its first bar and prompt; docs/bars.md has them all.
    static let readmeSection = "A first bar and a first prompt"

    /// Every snippet file, by its path under packaging/integrations.
    static func snippetFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: Snippet.directory)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasSuffix(".md"), let text = try? Snippet.text(relative) else { continue }
            files[relative] = text
        }
        return files
    }

    /// The fenced code blocks of a markdown text (of `section` only, if given).
    static func codeBlocks(_ markdown: String, section: String? = nil) -> [String] {
        var text = Substring(markdown)
        if let section, let start = markdown.range(of: "\n## " + section + "\n") {
            text = markdown[start.upperBound...]
            if let end = text.range(of: "\n## ") { text = text[..<end.lowerBound] }
        }
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The lines of a block that a snippet must hold: not blank, not a comment, not the
    /// `source` line that loads a shell snippet from wherever the user keeps it.
    static func significantLines(_ block: String) -> [String] {
        block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("//") && !$0.hasPrefix(";") && !$0.hasPrefix("source ")
                && $0 != "..." && $0 != "}" && $0 != "{"
        }
    }

    @Test("every code block of the integrations README, docs/bars.md and the main README's first bar and prompt is in a tested snippet")
    func codeBlocksAreSnippets() throws {
        let files = try Self.snippetFiles()
        let readme = try String(contentsOfFile: Self.mainReadme, encoding: .utf8)
        #expect(readme.contains("\n## " + Self.readmeSection + "\n"), "README.md has no section '\(Self.readmeSection)'")
        let readmeBlocks = Self.codeBlocks(readme, section: Self.readmeSection)
        #expect(readmeBlocks.count >= 2, "\(readmeBlocks.count) blocks in the README's first bar and prompt")
        let blocks = Self.codeBlocks(try String(contentsOfFile: Self.integrationsReadme, encoding: .utf8))
            + Self.codeBlocks(try String(contentsOfFile: Self.barsPage, encoding: .utf8))
            + readmeBlocks
        #expect(blocks.count >= 14, "\(blocks.count) blocks")
        for block in blocks {
            let lines = Self.significantLines(block)
            guard !lines.isEmpty else { continue }
            let home = files.first { _, text in
                let fileLines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                return lines.allSatisfy { line in fileLines.contains(line) || fileLines.contains(line + ",") || fileLines.contains(String(line.dropLast())) }
            }
            #expect(home != nil, "this block of the docs is in no snippet file the tests run:\n\(block)")
        }
    }

    /// The "What it runs" column of the integrations README's table: (file, command).
    static func tableCommands() throws -> [(file: String, command: String)] {
        let text = try String(contentsOfFile: integrationsReadme, encoding: .utf8)
        var rows: [(String, String)] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|").map {
                $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3, let link = cells[1].range(of: #"\]\(([^)]+)\)"#, options: .regularExpression),
                  cells[2].hasPrefix("`zaoan "), cells[2].hasSuffix("`") else { continue }
            let file = String(cells[1][link].dropFirst(2).dropLast())
            rows.append((file, String(cells[2].dropFirst().dropLast())))
        }
        return rows
    }

    @Test("every command in the integrations table is the one in its snippet, and runs safely against a hostile title")
    func tableCommandsRun() throws {
        let rows = try Self.tableCommands()
        #expect(rows.count >= 6, "\(rows)")
        let world = try IntegrationWorld()
        let title = try world.addHostileRoom()
        for (file, command) in rows {
            #expect(try Snippet.text(file).contains(command), "\(file) does not hold the documented command \(command)")
            let isStream = command.hasPrefix("zaoan watch") || command == "zaoan bar"
            // A stream runs until stopped: take what it printed in its first seconds.
            let result = try world.sh(isStream ? "timeout -s TERM 3 \(command)" : command, timeout: 15)
            #expect(!result.output.isEmpty, "\(command): \(result)")
            IntegrationCheck.noControlBytes(result.output, command)
            #expect(result.output.contains("距开播"), "\(command) shows the countdown: \(result.output.prefix(300))")
            _ = title
        }
        IntegrationCheck.nothingRan(world, "the documented commands")
        try world.service.stop()
    }
}
