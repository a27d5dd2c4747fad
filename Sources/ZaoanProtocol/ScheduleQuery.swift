import ZaoanText

/// What `schedule` is asked for: how many hours ahead, one calendar's events, and words every
/// listed room or event must hold. Read here from the request's words; the Responder checks
/// the calendar's name against the config and does the matching.
///
/// The grammar (docs/protocol.md, "schedule"):
///
///     schedule [HOURS] [calendar=NAME] [search=WORDS]      keys in any order, each at most once
///
/// A key's value is the rest of its word and every word after it up to the next word that
/// starts with a key (`calendar=`, `search=`, in any case), so neither a calendar's name nor
/// the words searched for need quotes: `schedule 24 calendar=Work Team search=standup notes`
/// and `schedule 24 search=standup notes calendar=Work Team` ask the same. A value that must
/// hold a word starting with a key is quoted as part of its key's word
/// (`"calendar=Work search=later"`).
public struct ScheduleQuery: Hashable, Sendable {
    /// Hours ahead, 1 to `Request.maxScheduleHours`.
    public var hours: Int
    /// `calendar=NAME`: that calendar's events alone (compared in any case by the Responder).
    public var calendar: String?
    /// `search=WORDS` split at white space, as typed: each must be found, in any case, in the
    /// title, location or description of what is listed. Empty for no search.
    public var search: [String]

    public init(hours: Int = Request.defaultScheduleHours, calendar: String? = nil, search: [String] = []) {
        self.hours = hours
        self.calendar = calendar
        self.search = search
    }

    /// The most words `search=` takes, and the most bytes (UTF-8) its value may have: every
    /// word is looked for in three fields of every room and event within HOURS, each second
    /// for a watch, so the work a request can ask for stays a small multiple of listing them.
    /// Sixteen words and 256 bytes are more than any phrase a person types to find a meeting.
    public static let maxSearchWords = 16
    public static let maxSearchBytes = 256

    /// The keys, as their words begin.
    enum Key: String, CaseIterable {
        case calendar = "calendar="
        case search = "search="

        /// The key `word` starts with, in any case of its ASCII letters; nil for none.
        init?(startOf word: String) {
            guard let key = Self.allCases.first(where: { Self.hasPrefix(word, $0.rawValue) }) else { return nil }
            self = key
        }

        /// Compares the first bytes alone: the keys are ASCII, and a long word is not
        /// lowercased whole to read its first few letters.
        private static func hasPrefix(_ word: String, _ prefix: String) -> Bool {
            var bytes = word.utf8.makeIterator()
            for expected in prefix.utf8 {
                guard let byte = bytes.next(), (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected else { return false }
            }
            return true
        }
    }

    /// Reads `schedule`'s words (after the command word), checking all that can be checked
    /// without the config; each refusal says what to write instead.
    static func read(_ words: [String]) throws(ProtocolError) -> ScheduleQuery {
        var rest = words[...]
        var query = ScheduleQuery()
        if let first = rest.first, Key(startOf: first) == nil, !Self.looksLikeKey(first) {
            guard let number = Int(first), (1...Request.maxScheduleHours).contains(number) else {
                throw ProtocolError(.badArgument, "schedule HOURS must be a whole number from 1 to \(Request.maxScheduleHours), e.g. schedule 24")
            }
            query.hours = number
            rest = rest.dropFirst()
        }
        var given: Set<Key> = []
        while let word = rest.first {
            guard let key = Key(startOf: word) else {
                if Self.looksLikeKey(word) {
                    let name = RequestParser.shorten(String(word.prefix { $0 != "=" }))
                    throw ProtocolError(.badArgument, "schedule has no key '\(name)='; it takes calendar=NAME and search=WORDS, e.g. schedule 24 search=standup")
                }
                throw ProtocolError(.badArgument, "schedule takes HOURS and calendar=NAME, e.g. schedule 24 calendar=Work, and search=WORDS, "
                                    + "e.g. schedule 24 search=standup; '\(RequestParser.shorten(word))' is neither (HOURS comes first)")
            }
            guard given.insert(key).inserted else {
                throw ProtocolError(.badArgument, "\(key.rawValue) is given twice; give it once, e.g. schedule 24 calendar=Work search=standup notes")
            }
            rest = rest.dropFirst()
            // The value: the rest of the key's word, then every word up to the next key.
            var value = [String(decoding: word.utf8.dropFirst(key.rawValue.utf8.count), as: UTF8.self)]
            while let next = rest.first, Key(startOf: next) == nil {
                value.append(next)
                rest = rest.dropFirst()
            }
            switch key {
            case .calendar: query.calendar = try Self.calendarName(value.joined(separator: " "))
            case .search: query.search = try Self.searchWords(value.joined(separator: " "))
            }
        }
        return query
    }

    /// A word that reads as a key, `desc=` or `from=`: a letter, then letters, digits, `_`
    /// or `-`, then `=`. Such a word where a key is expected is a key schedule does not have,
    /// said so rather than taken for a stray word.
    private static func looksLikeKey(_ word: String) -> Bool {
        guard let equals = word.utf8.firstIndex(of: UInt8(ascii: "=")), equals != word.utf8.startIndex else { return false }
        let name = word.utf8[..<equals]
        guard let first = name.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
        return name.allSatisfy { byte in
            ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// `calendar=`'s value: its words joined by one space as before (quote the key's word to
    /// keep other spacing), not empty, at most `CalendarNameRule.maxBytes`.
    private static func calendarName(_ name: String) throws(ProtocolError) -> String {
        guard !name.isEmpty else {
            throw ProtocolError(.badArgument, "calendar= needs a calendar's name, e.g. schedule 24 calendar=Work (quote a name with spaces)")
        }
        guard name.utf8.count <= CalendarNameRule.maxBytes else {
            throw ProtocolError(.badArgument, "a calendar's name is at most \(CalendarNameRule.maxBytes) bytes; no calendar has '\(RequestParser.shorten(name))'")
        }
        return name
    }

    /// `search=`'s value split at white space (spaces, tabs, a quoted value's newlines), 1 to
    /// `maxSearchWords` words in at most `maxSearchBytes`.
    private static func searchWords(_ value: String) throws(ProtocolError) -> [String] {
        guard value.utf8.count <= maxSearchBytes else {
            throw ProtocolError(.badArgument, "search= takes at most \(maxSearchBytes) bytes, this is \(value.utf8.count); search for fewer or shorter words")
        }
        let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else {
            throw ProtocolError(.badArgument, "search= needs words to look for in titles, locations and descriptions, e.g. schedule 24 search=standup")
        }
        guard words.count <= maxSearchWords else {
            throw ProtocolError(.badArgument, "search= takes at most \(maxSearchWords) words, this is \(words.count); search for fewer")
        }
        return words
    }
}
