/// "Did you mean ...?" for a word that is not one of a known list: the config's keys, the
/// requests' words, the client's commands.
///
/// The distance is optimal string alignment (Damerau–Levenshtein where each substring is
/// edited once): insertions, deletions, substitutions and swaps of two neighbours each
/// cost one, so `soon_treshold` and `greting` are one from `soon_threshold` and `greeting`,
/// and `gerting` is two. ASCII letters are compared without case. A word is a
/// suggestion only when it is close for its length — at most one edit up to 5 characters,
/// two beyond — so a short typo does not get a far-fetched answer and a long unrelated word
/// gets none. Bounded work: words longer than `maxLength` get no suggestion.
public enum Spelling {
    public static let maxLength = 64

    /// "did you mean 'soon_threshold'?" when a candidate is close enough, else `otherwise`
    /// (what the known words are): the hint after "unknown key; ".
    public static func hint(for word: String, among candidates: some Sequence<String>, otherwise: @autoclosure () -> String) -> String {
        suggestion(for: word, among: candidates).map { "did you mean '\($0)'?" } ?? otherwise()
    }

    /// The candidate closest to `word`, if one is close enough; ties go to the earlier
    /// candidate. Nil when `word` is itself a candidate.
    public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let typed = folded(word)
        guard !typed.isEmpty, typed.count <= maxLength else { return nil }
        let allowed = allowedDistance(typed.count)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            if candidate == word { return nil }
            let known = folded(candidate)
            guard known.count <= maxLength, abs(known.count - typed.count) <= allowed else { continue }
            let limit = min(allowed, (best?.distance ?? allowed + 1) - 1)
            guard limit >= 0, let distance = distance(typed, known, limit: limit) else { continue }
            best = (candidate, distance)
            if distance == 0 { break }
        }
        return best?.candidate
    }

    /// The most edits a word of `length` characters may be from its suggestion.
    public static func allowedDistance(_ length: Int) -> Int {
        length <= 5 ? 1 : 2
    }

    /// The optimal-string-alignment distance of `a` and `b`, or nil when it is above `limit`.
    public static func distance(_ a: String, _ b: String, limit: Int = maxLength) -> Int? {
        distance(folded(a), folded(b), limit: limit)
    }

    static func folded(_ word: String) -> [Unicode.Scalar] {
        word.unicodeScalars.map { $0.value >= 0x41 && $0.value <= 0x5A ? Unicode.Scalar($0.value | 0x20)! : $0 }
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the table: two back (for swaps), the last one and the current one.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return nil }  // every later row is at least this
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        let result = previous[b.count]
        return result <= limit ? result : nil
    }
}
