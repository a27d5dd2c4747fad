import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// The files that list requests outside the code: the bash and zsh completions, the
/// command table of docs/protocol.md and the README's request table, read as text (no shell
/// runs) and compared with the request table both ways, so a row missing from a file fails, and so does a word a file
/// offers that the table does not have. CompletionTests runs the completions for real.
@Suite struct RequestTableFilesTests {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ZaoanCoreTests/<this file>
        return url.path
    }()

    // MARK: - What the table says each file should hold

    /// Rows a shell offers as request words: not the option `--format` (completed as an
    /// option), and in `zaoan ask` not `session` or `quit`, which a one-shot client has no
    /// use for. `zaoan watch` (and `ask watch`) offers only what can be watched.
    static func offered(inWatch: Bool) -> [RequestDescriptor] {
        RequestKind.table.filter { row in
            row.shape != .option && !row.effect.controlsConnection && (!inWatch || row.isWatchable)
        }
    }

    /// Words a shell offers in both modes, and those it offers only to `zaoan ask`: the first
    /// words, or for `group` (`live`) the second words of its rows.
    static func expectedWords(group: String? = nil) -> Words {
        func words(_ rows: [RequestDescriptor]) -> Set<String> {
            Set(rows.compactMap { row in
                let parts = row.words.split(separator: " ").map(String.init)
                guard let group else { return parts[0] }
                return parts.count == 2 && parts[0] == group ? parts[1] : nil
            })
        }
        let both = words(offered(inWatch: true))
        return Words(both: both, askOnly: words(offered(inWatch: false)).subtracting(both))
    }

    /// The words of two-word rows that lead others: `live`.
    static let groups: Set<String> = Set(RequestKind.table.compactMap { row in
        let parts = row.words.split(separator: " ")
        return parts.count == 2 ? String(parts[0]) : nil
    })

    struct Words: Equatable, CustomStringConvertible {
        var both: Set<String> = []
        var askOnly: Set<String> = []
        var description: String { "both: \(both.sorted()), ask only: \(askOnly.sorted())" }
    }

    // MARK: - Reading the shell files

    /// Every `NAME=(...)` and `NAME+=(...)` in a shell file: the entries as the shell reads
    /// them (quotes removed), and whether `[[ $mode == ask ]] &&` guards the assignment.
    static func arrays(in text: String) -> [(name: String, askOnly: Bool, entries: [String])] {
        var found: [(String, Bool, [String])] = []
        for match in text.matches(of: #/(\[\[ \$mode == ask \]\] && )?(?:local -a )?([A-Za-z_][A-Za-z0-9_]*)\+?=\(/#) {
            var entries: [String] = []
            var current = ""
            var inWord = false, single = false, double = false, escaped = false
            scan: for character in text[match.range.upperBound...] {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if single {
                    if character == "'" { single = false } else { current.append(character) }
                } else if double {
                    if character == "\"" { double = false } else { current.append(character) }
                } else {
                    switch character {
                    case "'": single = true; inWord = true
                    case "\"": double = true; inWord = true
                    case "\\": escaped = true; inWord = true
                    case ")", " ", "\t", "\n":
                        if inWord { entries.append(current) }
                        current = ""
                        inWord = false
                        if character == ")" { break scan }
                    default: current.append(character); inWord = true
                    }
                }
            }
            found.append((String(match.output.2), match.output.1 != nil, entries))
        }
        return found
    }

    /// The words the arrays called `name` offer: an entry's text before a `:` (zsh's
    /// `word:description`), leaving out expansions such as `$live` and `"${live[@]}"`.
    static func offeredWords(_ file: String, array name: String) throws -> Words {
        let text = try String(contentsOfFile: root + "/packaging/completions/" + file, encoding: .utf8)
        var words = Words()
        for array in arrays(in: text) where array.name == name {
            for entry in array.entries where !entry.hasPrefix("$") {
                let word = String(entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if array.askOnly { words.askOnly.insert(word) } else { words.both.insert(word) }
            }
        }
        return words
    }

    /// The completion files and the name of the array that holds their first words.
    static let shellFiles = [("zaoan.bash", "words"), ("_zaoan", "requests")]

    @Test(arguments: shellFiles)
    func completionsOfferTheTablesFirstWords(file: String, array: String) throws {
        let offered = try Self.offeredWords(file, array: array)
        let expected = Self.expectedWords()
        #expect(offered == expected, """
            \(file) offers request words unlike the table (Sources/ZaoanProtocol/RequestKind.swift).
              missing: \(expected.both.subtracting(offered.both).union(expected.askOnly.subtracting(offered.askOnly)).sorted())
              not in the table, or offered in the wrong mode: \(offered.both.subtracting(expected.both).union(offered.askOnly.subtracting(expected.askOnly)).sorted())
            """)
    }

    @Test(arguments: shellFiles)
    func completionsOfferTheTablesSecondWords(file: String, array _: String) throws {
        #expect(!Self.groups.isEmpty)
        for group in Self.groups.sorted() {
            let offered = try Self.offeredWords(file, array: group)
            let expected = Self.expectedWords(group: group)
            #expect(offered == expected, "\(file)'s \(group) words: \(offered); the table's: \(expected)")
        }
    }

    // MARK: - The protocol's command table

    /// The command words of each row of the first table in a document's section (by default
    /// docs/protocol.md's "Commands"): the leading lowercase words of its first code span
    /// (`live add ID ...` → `live add`). A leading `--format=i3bar` in front of a request is
    /// an example of use (`blocks`); alone before arguments it is the option's own row
    /// (`--format`).
    static func documentedWords(in document: String = "docs/protocol.md", section heading: String = "Commands") throws -> [String] {
        let text = try String(contentsOfFile: root + "/" + document, encoding: .utf8)
        guard let section = text.range(of: "\n## \(heading)\n") else { return [] }
        var words: [String] = []
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            guard let span = line.firstMatch(of: #/^\| `([^`]+)`/#) else { continue }
            var tokens = span.output.1.split(separator: " ").map(String.init)
            let isCommandWord = { (token: String) in token.wholeMatch(of: #/[a-z][a-z-]*/#) != nil }
            if let first = tokens.first, first.hasPrefix("--"), let equals = first.firstIndex(of: "=") {
                if tokens.count > 1, isCommandWord(tokens[1]) {
                    tokens.removeFirst()
                } else {
                    words.append(String(first[..<equals]))
                    continue
                }
            }
            words.append(tokens.prefix(while: isCommandWord).joined(separator: " "))
        }
        return words
    }

    @Test func protocolDocumentsEveryRowsWords() throws {
        let documented = try Self.documentedWords()
        let table = Set(RequestKind.table.map(\.words))
        #expect(documented.count == Set(documented).count, "a command documented twice: \(documented)")
        #expect(Set(documented) == table, """
            docs/protocol.md's command table and the request table differ.
              not documented: \(table.subtracting(documented).sorted())
              not in the table: \(Set(documented).subtracting(table).sorted())
            """)
    }

    /// The README's short request table reaches every request: one row for each of the
    /// table's words (`schedule`, `url`, `live skip`, `blocks` and `watch events` were once
    /// left out), none that the table does not have.
    @Test func readmeListsEveryRowsWords() throws {
        let documented = try Self.documentedWords(in: "README.md", section: "Requests")
        let table = Set(RequestKind.table.map(\.words))
        #expect(documented.count == Set(documented).count, "a request listed twice in the README: \(documented)")
        #expect(Set(documented) == table, """
            README.md's request table ("## Requests") and the request table differ.
              not in the README: \(table.subtracting(documented).sorted())
              not in the table: \(Set(documented).subtracting(table).sorted())
            """)
    }
}
