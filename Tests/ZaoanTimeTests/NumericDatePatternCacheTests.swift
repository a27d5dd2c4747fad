import Testing
@testable import ZaoanTime

/// The remembered conversions a bar clock reads every second: the same answer as converting
/// again, the first time and from the cache, and bounded however many patterns arrive.
@Suite struct NumericDatePatternCacheTests {
    static let patterns = [
        "yyyy-MM-dd HH:mm:ss", "HH:mm", "H:m:s", "'50%' HH", "'It''s' H 'o''clock'", "", "'", "EEEE HH:mm", "h:mm a",
        "HH:mm:ss.SSS", "y年M月d日 H时mm分", "HH:mm:ss 🕐", String(repeating: "HH:mm ", count: 60),
        String(repeating: "EEEE ", count: 60),
    ]

    @Test("the cached conversion is the conversion, asked once and again", arguments: patterns)
    func sameAsConverting(pattern: String) {
        let converted = NumericDatePattern.strftimeFormat(for: pattern)
        #expect(NumericDatePattern.cachedStrftimeFormat(for: pattern) == converted)
        #expect(NumericDatePattern.cachedStrftimeFormat(for: pattern) == converted)
    }

    @Test("many different patterns: every answer right, never more than the capacity kept")
    func bounded() {
        let capacity = NumericDatePattern.conversionCacheCapacity
        for index in 0..<(3 * capacity) {
            // Numeric and ICU-only patterns by turns, each new.
            let pattern = index % 2 == 0 ? "HH:mm '\(index)'" : "EEEE '\(index)'"
            let first = NumericDatePattern.cachedStrftimeFormat(for: pattern)
            #expect(first == NumericDatePattern.strftimeFormat(for: pattern))
            #expect(NumericDatePattern.cachedStrftimeFormat(for: pattern) == first)
            #expect(NumericDatePattern.cachedConversionCount <= capacity)
        }
    }
}
