/// What a request's first word names, from the table's words: a row (`ping`), rows chosen by
/// the second word (`live add`, `live rm`), or both (a row of its own that also leads others,
/// as `watch REQUEST` would beside a `watch events`).
///
/// Looked up once per request: a plain word costs one dictionary read and copies no
/// reference (`group` is nil for it).
struct CommandWord: Sendable {
    /// The row the word names when no second word picks one.
    let row: RequestKind?
    /// The rows named by a second word, for a word that leads some (`live`).
    let group: SecondWords?

    final class SecondWords: Sendable {
        /// Lowercase second words, aliases too: `add` → `.liveAdd`, `remove` → `.liveRemove`.
        let rows: [String: RequestKind]
        /// The second words as `help` shows them, in its order, for errors: `add, rm, list or show`.
        let listed: String

        init(rows: [String: RequestKind], listed: [String]) {
            self.rows = rows
            let last = listed.last ?? ""
            self.listed = listed.count < 2 ? last : listed.dropLast().joined(separator: ", ") + " or " + last
        }
    }

    /// Every first word, built once. An option's key ends in `=` (`--format=`), as its word
    /// does when typed: `--format` alone is no command. Of rows with the same words, the
    /// first keeps them (`time`); its parser tells them apart.
    static let all: [String: CommandWord] = {
        var rows: [String: RequestKind] = [:]
        var secondRows: [String: [String: RequestKind]] = [:]
        var secondListed: [String: [String]] = [:]
        for row in RequestKind.table {
            for (spelling, isAlias) in [(row.words, false)] + row.aliases.map({ ($0, true) }) {
                let parts = spelling.split(separator: " ", maxSplits: 1).map(String.init)
                let first = parts[0] + (row.shape == .option ? "=" : "")
                if parts.count == 1 {
                    if rows[first] == nil { rows[first] = row.kind }
                } else if secondRows[first, default: [:]][parts[1]] == nil {
                    secondRows[first, default: [:]][parts[1]] = row.kind
                    if !isAlias { secondListed[first, default: []].append(parts[1]) }
                }
            }
        }
        var words: [String: CommandWord] = [:]
        for first in Set(rows.keys).union(secondRows.keys) {
            let group = secondRows[first].map { SecondWords(rows: $0, listed: secondListed[first] ?? []) }
            words[first] = CommandWord(row: rows[first], group: group)
        }
        return words
    }()

    /// The entry for a lowercased first word, and an option's value (`json` of
    /// `--format=json`).
    static func named(_ word: String) -> (entry: CommandWord, optionValue: Substring?)? {
        if word.utf8.first == UInt8(ascii: "-"), let equals = word.utf8.firstIndex(of: UInt8(ascii: "=")) {
            let afterEquals = word.utf8.index(after: equals)
            guard let entry = all[String(word[..<afterEquals])] else { return nil }
            return (entry, word[afterEquals...])
        }
        guard let entry = all[word] else { return nil }
        return (entry, nil)
    }
}
