import Testing
@testable import ZaoanText

@Suite struct SpellingTests {
    @Test("distances: insertions, deletions, substitutions and swaps cost one each", arguments: [
        ("soon_treshold", "soon_threshold", 1), ("greting", "greeting", 1), ("gerting", "greeting", 2),
        ("pnig", "ping", 1), ("ping", "ping", 0), ("PING", "ping", 0), ("", "abc", 3), ("abc", "", 3),
        ("idletimeout", "idle_timeout", 1), ("ca", "abc", 3),  // one edit per substring: not 2
        ("kitten", "sitting", 3), ("東京", "东京", 1),
    ])
    func distances(a: String, b: String, distance: Int) {
        #expect(Spelling.distance(a, b) == distance)
        #expect(Spelling.distance(b, a) == distance)
    }

    @Test func aboveTheLimitIsNil() {
        #expect(Spelling.distance("kitten", "sitting", limit: 2) == nil)
        #expect(Spelling.distance("kitten", "sitting", limit: 3) == 3)
        #expect(Spelling.distance("a", "abcdef", limit: 2) == nil)
    }

    static let keys = ["language", "city", "timezone", "idle_timeout", "soon_threshold", "max_connections", "max_connections_per_user"]

    @Test("a suggestion only when it is close for the word's length", arguments: [
        ("soon_treshold", "soon_threshold"), ("Language", "language"), ("idleTimeout", "idle_timeout"),
        ("cty", "city"), ("citty", "city"), ("timzone", "timezone"), ("max_connection", "max_connections"),
        ("max_connections_per_usr", "max_connections_per_user"),
        ("colour", nil), ("c", nil), ("ci", nil), ("zone", nil), ("", nil),
        ("language", nil),  // a known word needs none
        (String(repeating: "a", count: 65), nil),
    ] as [(String, String?)])
    func suggestions(word: String, expected: String?) {
        #expect(Spelling.suggestion(for: word, among: Self.keys) == expected)
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(Spelling.suggestion(for: "bat", among: ["cat", "hat"]) == "cat")
        #expect(Spelling.suggestion(for: "bat", among: ["hat", "cat"]) == "hat")
        #expect(Spelling.suggestion(for: "caat", among: ["cats", "cat"]) == "cat")  // nearer beats earlier
    }
}
