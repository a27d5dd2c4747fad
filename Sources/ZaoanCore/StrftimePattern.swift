/// Translates a strftime format, as `date +FORMAT` reads it, into the equivalent LDML date
/// pattern, so both kinds share one formatter cache. Only conversions with an exact LDML
/// equivalent are accepted; the rest are named in the error.
public enum StrftimePattern {
    /// Conversion letter → LDML field.
    static let fields: [Character: String] = [
        "Y": "yyyy", "y": "yy", "m": "MM", "d": "dd", "H": "HH", "I": "hh", "M": "mm", "S": "ss",
        "A": "EEEE", "a": "EEE", "B": "MMMM", "b": "MMM", "h": "MMM", "p": "a", "j": "DDD",
        "Z": "zzz", "z": "xx", "F": "yyyy-MM-dd", "T": "HH:mm:ss", "R": "HH:mm", "D": "MM/dd/yy",
    ]
    /// GNU's `-` flag (no padding): `%-d`, `%-H`, ...
    static let unpadded: [Character: String] = [
        "m": "M", "d": "d", "H": "H", "I": "h", "M": "m", "S": "s", "j": "D",
    ]

    /// Whether a `time` pattern should be read as strftime rather than LDML.
    public static func isStrftime(_ pattern: String) -> Bool {
        pattern.contains("%")
    }

    /// - Returns: the LDML pattern.
    /// - Throws: `PatternError` naming every unsupported conversion.
    public static func ldml(from format: String) throws(PatternError) -> String {
        var output = ""
        var literal = ""
        var unsupported: [String] = []

        func flushLiteral() {
            guard !literal.isEmpty else { return }
            // In LDML, ASCII letters are fields; quote runs of literal text, doubling quotes.
            if literal.contains(where: { $0.isASCII && ($0.isLetter || $0 == "'") }) {
                output += "'" + literal.replacingOccurrences(of: "'", with: "''") + "'"
            } else {
                output += literal
            }
            literal = ""
        }

        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                literal.append(character)
                continue
            }
            guard var conversion = characters.next() else {
                unsupported.append("% at the end")
                break
            }
            if conversion == "%" {
                literal.append("%")
                continue
            }
            var table = fields
            var spelled = "%\(conversion)"
            if conversion == "-" {
                guard let next = characters.next() else {
                    unsupported.append("%- at the end")
                    break
                }
                conversion = next
                table = unpadded
                spelled = "%-\(conversion)"
            }
            guard let field = table[conversion] else {
                unsupported.append(spelled)
                continue
            }
            flushLiteral()
            output += field
        }
        flushLiteral()
        if !unsupported.isEmpty {
            throw PatternError(unsupported: unsupported)
        }
        return output
    }
}

/// A strftime format used conversions zaoan cannot translate exactly.
public struct PatternError: Error, Equatable, CustomStringConvertible {
    public let unsupported: [String]
    public var description: String {
        "unsupported strftime conversion\(unsupported.count == 1 ? "" : "s") \(unsupported.joined(separator: " ")); "
            + "supported: %Y %y %m %d %H %I %M %S %A %a %B %b %h %p %j %Z %z %F %T %R %D %% and %-d %-m %-H %-I %-M %-S %-j"
    }
}
