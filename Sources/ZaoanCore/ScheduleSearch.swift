
/// `schedule ... search=WORDS`: which rooms and calendar events hold every word, each
/// somewhere in the title, location or description (not across two of them), in any case.
///
/// Case is set aside by Unicode's full case folding (`UnicodeFolding`): `STANDUP` finds `standup`, `STRASSE` and
/// `strasse` find `Straße` (ß folds to ss), `ΟΔΟΣ` finds `οδος` (final ς folds to σ), `ﬁ`
/// finds `fi`. Accents are kept: `cafe` does not find `café`. After folding, a word is found
/// as a run of whole characters (`String.contains`, canonically equivalent), so a word
/// in any script needs no word breaks: `周会` finds `产品周会`, and `e` is not found in
/// `é` written as e and a combining accent.
///
/// The words are folded once a request; each room's fields are folded only while words
/// remain unfound, and text that is all ASCII (most titles) is folded and searched byte by
/// byte.
struct ScheduleSearch {
    /// The words, folded.
    private let words: [String]

    /// nil for no words, so a schedule without a search pays nothing.
    /// - Parameter words: `ScheduleQuery.search`, at most `ScheduleQuery.maxSearchWords`.
    init?(_ words: [String]) {
        guard !words.isEmpty else { return nil }
        self.words = words.map(Self.fold)
    }

    /// Whether every word is in the room's title, location or description (not its ID, which
    /// `schedule` shows for a room without a title).
    func matches(_ room: LiveRoom) -> Bool {
        var unfound = words
        for field in [room.title, room.location, room.description] {
            guard let field, !field.isEmpty else { continue }
            let folded = Self.fold(field)
            unfound.removeAll { Self.contains(folded, $0) }
            if unfound.isEmpty { return true }
        }
        return false
    }

    /// `text` with its case folded (ASCII letters lowercased byte by byte).
    static func fold(_ text: String) -> String {
        UnicodeFolding.caseFolded(text)
    }

    /// Whether folded `text` holds folded `word`: bytes compared when both are ASCII (the
    /// same answer, as ASCII has no combining marks), characters otherwise.
    static func contains(_ text: String, _ word: String) -> Bool {
        let bytes = text.utf8, wanted = word.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }), wanted.allSatisfy({ $0 < 0x80 }) else { return text.contains(word) }
        guard let first = wanted.first, wanted.count <= bytes.count else { return wanted.isEmpty }
        let haystack = Array(bytes), needle = Array(wanted)
        var start = 0
        while start + needle.count <= haystack.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}
