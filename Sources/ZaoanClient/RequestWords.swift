import ZaoanText
/// Turns the words a user gave into one request line, refusing what would change its
/// meaning on the wire: a line break would end the request and start another with the
/// caller's rights (`zaoan ask greeting $'Tokyo\nlive add x +1h'`), and other control
/// characters have no place in a request.
public enum RequestWords {
    /// A single word is sent as it is (`zaoan ask "greeting New York"`); with several,
    /// words holding blanks or quotes are quoted.
    public static func line(_ words: [String]) throws(ClientError) -> String {
        for word in words {
            if let bad = word.unicodeScalars.first(where: isForbidden) {
                throw .badArgument("the request must not hold control characters or line breaks (found \(bad.codePoint) in '\(display(word))')")
            }
        }
        if words.count == 1 { return words[0] }
        return words.map { word in
            guard word.isEmpty || word.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return word }
            var quoted = "\""
            for scalar in word.unicodeScalars {
                if scalar == "\\" || scalar == "\"" { quoted += "\\" }
                quoted.unicodeScalars.append(scalar)
            }
            return quoted + "\""
        }.joined(separator: " ")
    }

    /// C0 controls but TAB, DEL, C1 controls, and the Unicode line and paragraph separators.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029
    }

    private static func display(_ word: String) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.map { isForbidden($0) ? "\u{FFFD}" : $0 }).prefix(40))
    }
}
