/// Unicode's full case folding and NFKC without Foundation, for the two places text is
/// compared regardless of case: city names (`CityName.key`, NFKC then case folding, as the
/// gazetteer's generator keys names with Python's `unicodedata.normalize("NFKC", s).casefold()`)
/// and `schedule search=` (case folding alone: `ß` finds `ss`, `ﬁ` finds `fi`, accents kept).
///
/// The per-scalar mappings come from Unicode 14.0.0 (scripts/generate/unicode-folding.py);
/// composing a mapped text back to NFC uses the Swift standard library's own Unicode data
/// (`_nfcCodeUnits`, which swift-foundation uses for the same). Mapping each scalar to its
/// NFKC form and composing the whole is NFKC of the whole: both are the one composed form
/// of the text's compatibility decomposition.
public enum UnicodeFolding {
    /// `text` with every scalar replaced by its full case folding (`Straße` → `strasse`,
    /// `ΟΔΟΣ` → `οδοσ`, `ﬁ` → `fi`, Cherokee to its capitals, as Unicode folds it).
    public static func caseFolded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(text) }
        return mapped(text.unicodeScalars, keys: caseFoldingKeys, ends: caseFoldingEnds, values: caseFoldingValues)
    }

    /// `text` in NFKC, then case folded: `ＭÜＮＣＨＥＮ`, `München` and `Mu\u{308}nchen` are
    /// all `münchen`.
    public static func nfkcCaseFolded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(text) }
        let compatible = mapped(text.unicodeScalars, keys: compatibilityKeys, ends: compatibilityEnds, values: compatibilityValues)
        let composed = String(decoding: compatible._nfcCodeUnits, as: UTF8.self)
        return mapped(composed.unicodeScalars, keys: caseFoldingKeys, ends: caseFoldingEnds, values: caseFoldingValues)
    }

    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Each scalar of `scalars` replaced by its mapping in the table, where it has one.
    private static func mapped(_ scalars: String.UnicodeScalarView, keys: [UInt32], ends: [UInt16], values: [UInt32]) -> String {
        var out = String.UnicodeScalarView()
        for scalar in scalars {
            guard let index = index(of: scalar.value, in: keys) else {
                out.append(scalar)
                continue
            }
            let start = index == 0 ? 0 : Int(ends[index - 1])
            for value in values[start..<Int(ends[index])] {
                // The table holds scalars only (the generator skips surrogates).
                if let mappedScalar = Unicode.Scalar(value) { out.append(mappedScalar) }
            }
        }
        return String(out)
    }

    /// Where `value` is in the ascending `keys`, by binary search.
    private static func index(of value: UInt32, in keys: [UInt32]) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            if keys[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == value ? low : nil
    }
}
