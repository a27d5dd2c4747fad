/// What a request's first word names, from the table's words: a row (`ping`), rows chosen by
/// the second word (`live add`, `live rm`), or both (a row of its own that also leads others,
/// as `watch REQUEST` would beside a `watch events`).
///
/// Looked up on every request, so words are compared as integers (`PackedWord`) in a short
/// array rather than hashed: a lookup in a `[String: CommandWord]` cost more than the
/// whole `switch` over words this replaced, and a few dozen this way.
struct CommandWord: Sendable {
    let key: PackedWord
    /// The row the word names when no second word picks one.
    let row: RequestKind?
    /// Where in `groups` the rows named by a second word are, for a word that leads some
    /// (`live`). An index rather than the group, so that an entry holds no reference and
    /// reading one costs no retain.
    let group: Int?

    /// The rows a first word leads, by their second words (aliases too): `add` → `.liveAdd`,
    /// `remove` → `.liveRemove`.
    struct SecondWords: Sendable {
        let first: PackedWord
        var keys: [PackedWord] = []
        var rows: [RequestKind] = []

        /// The row a lowercase second word names.
        func row(_ word: String) -> RequestKind? {
            keys.firstIndex(of: PackedWord(word)).map { rows[$0] }
        }
    }

    /// A row's words and aliases, packed: the first word and the second, if any. An option's
    /// first word ends in `=` (`--format=`), as it does when typed: `--format` alone is no
    /// command.
    private static func spellings(_ row: RequestDescriptor) -> [(first: PackedWord, second: PackedWord?)] {
        ([row.words] + row.aliases).map { spelling in
            precondition((row.shape == .option) == spelling.hasPrefix("-"), "'\(spelling)': only an option's word starts with -")
            let space = spelling.utf8.firstIndex(of: UInt8(ascii: " "))
            let first = space.map { spelling[..<$0] } ?? spelling[...]
            let second = space.map { spelling[spelling.utf8.index(after: $0)...] }
            precondition(first.utf8.count + (row.shape == .option ? 1 : 0) <= PackedWord.capacity
                         && (second?.utf8.count ?? 0) <= PackedWord.capacity,
                         "'\(spelling)': words of at most \(PackedWord.capacity) bytes")
            return (PackedWord(row.shape == .option ? first + "=" : first), second.map { PackedWord($0) })
        }
    }

    /// Every first word that leads others, with them, built once.
    static let groups: [SecondWords] = {
        var groups: [SecondWords] = []
        for row in RequestKind.table {
            for case let (first, second?) in spellings(row) {
                let index = groups.firstIndex { $0.first == first } ?? {
                    groups.append(SecondWords(first: first))
                    return groups.count - 1
                }()
                guard !groups[index].keys.contains(second) else { continue }
                groups[index].keys.append(second)
                groups[index].rows.append(row.kind)
            }
        }
        return groups
    }()

    /// Every first word, in the table's order, built once. Of rows with the same words, the
    /// first keeps them (`time`); its parser tells them apart.
    static let all: [CommandWord] = {
        var words: [CommandWord] = []
        for row in RequestKind.table {
            for (first, second) in spellings(row) {
                let oneWordRow = second == nil ? row.kind : nil
                if let index = words.firstIndex(where: { $0.key == first }) {
                    if words[index].row == nil, let oneWordRow {
                        words[index] = CommandWord(key: first, row: oneWordRow, group: words[index].group)
                    }
                } else {
                    words.append(CommandWord(key: first, row: oneWordRow, group: groups.firstIndex { $0.first == first }))
                }
            }
        }
        return words
    }()

    /// The entry of a lowercased first word.
    static func find(_ word: PackedWord) -> CommandWord? {
        for entry in all where entry.key == word { return entry }
        return nil
    }

    /// Every first word as typed, in the table's order, for suggestions: `greeting`,
    /// `live`, and `--format=` for an option (aliases left out, as `help` leaves them).
    static let firstWordList: [String] = {
        var words: [String] = []
        for row in RequestKind.table {
            let first = String(row.words.split(separator: " ").first ?? "")
            let typed = row.shape == .option ? first + "=" : first
            if !words.contains(typed) { words.append(typed) }
        }
        return words
    }()

    /// The second words `first` leads, as `help` shows them (`add`, `rm`, ...).
    static func secondWordList(after first: String) -> [String] {
        RequestKind.table.compactMap { row -> String? in
            let words = row.words.split(separator: " ", maxSplits: 1)
            return words.count == 2 && words[0] == first ? String(words[1]) : nil
        }
    }

    /// The first word a lone second word belongs to (`add` → `live`), if exactly one has it.
    static func firstWord(leading second: String) -> String? {
        let leaders = RequestKind.table.compactMap { row -> String? in
            let words = row.words.split(separator: " ", maxSplits: 1)
            return words.count == 2 && words[1] == second ? String(words[0]) : nil
        }
        return Set(leaders).count == 1 ? leaders.first : nil
    }

    /// For errors: the second words `first` leads, as `help` shows them, `add, rm, list or show`.
    static func secondWords(after first: String) -> String {
        let listed = RequestKind.table.compactMap { row -> Substring? in
            let words = row.words.split(separator: " ", maxSplits: 1)
            return words.count == 2 && words[0] == first ? words[1] : nil
        }
        guard let last = listed.last else { return "" }
        return listed.count == 1 ? String(last) : listed.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A command word of up to 16 bytes as integers, so that comparing two is a few integer
/// compares (every command word is far shorter). An option's word (`-` first) ends at its
/// `=`: `--format=json` packs as `--format=`, the key of the `--format` row. The length is
/// kept whole: `ping` and `ping\0` differ, and a longer word matches no command word.
struct PackedWord: Equatable, Sendable {
    static let capacity = 16
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private(set) var count = 0

    /// The empty word: no command's.
    init() {}

    /// Packs the word's first 16 bytes: a word of 8 or more with one load, shorter ones a
    /// byte at a time. The parser packs the bytes it has just lowercased.
    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        if bytes.first == UInt8(ascii: "-"), let equals = bytes.firstIndex(of: UInt8(ascii: "=")) { count = equals + 1 }
        let length = min(count, Self.capacity)
        if length >= 8 {
            low = bytes.loadUnaligned(as: UInt64.self)
        } else {
            for index in 0..<length { low |= UInt64(bytes[index]) &<< (8 &* index) }
        }
        if length > 8 {
            for index in 8..<length { high |= UInt64(bytes[index]) &<< (8 &* (index &- 8)) }
        }
    }

    /// The same for a word's UTF-8, read in place (a short String is copied to the stack, not
    /// walked index by index).
    init(_ word: some StringProtocol) {
        self = word.utf8.withContiguousStorageIfAvailable { PackedWord(UnsafeRawBufferPointer($0)) }
            ?? Array(word.utf8).withUnsafeBytes { PackedWord($0) }
    }
}
