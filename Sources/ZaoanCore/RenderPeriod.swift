/// How long a rendering of a `time` pattern stays right, from its smallest field: patterns
/// with fractions of a second are rendered for every request, patterns with seconds once a
/// second, the rest (minutes and larger) once a minute.
public enum RenderPeriod {
    /// nil: render on every request.
    public static func seconds(forTimePattern pattern: String) -> Int? {
        // A `%` makes a pattern strftime (`Responder.time`).
        let smallest = pattern.utf8.contains(UInt8(ascii: "%")) ? strftimeSmallest(pattern) : ldmlSmallest(pattern)
        switch smallest {
        case .fraction: return nil
        case .second: return 1
        case .minute: return 60
        }
    }

    enum Smallest: Int, Comparable {
        case fraction, second, minute
        static func < (a: Smallest, b: Smallest) -> Bool { a.rawValue < b.rawValue }
    }

    /// Conversions after `%`, skipping flags, width, `E`/`O` and colons: `N` is a fraction;
    /// `S s T r c X +` show seconds (`%c`, `%X` do in every language).
    static func strftimeSmallest(_ pattern: String) -> Smallest {
        var smallest = Smallest.minute
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else { continue }
            var conversion = scalars.next()
            while let current = conversion, "-_0^#+:EO123456789".unicodeScalars.contains(current) {
                conversion = scalars.next()
            }
            guard let conversion else { break }
            if conversion == "N" { return .fraction }
            if "sSTrcX+".unicodeScalars.contains(conversion) { smallest = min(smallest, .second) }
        }
        return smallest
    }

    /// LDML fields outside quotes: `S` (fraction) and `A` (milliseconds in day) change every
    /// millisecond, `s` every second.
    static func ldmlSmallest(_ pattern: String) -> Smallest {
        var smallest = Smallest.minute
        var quoted = false
        for scalar in pattern.unicodeScalars {
            if scalar == "'" { quoted.toggle(); continue }
            guard !quoted else { continue }
            if scalar == "S" || scalar == "A" { return .fraction }
            if scalar == "s" { smallest = .second }
        }
        return smallest
    }
}
