/// LDML patterns made only of numeric fields — `yyyy-MM-dd HH:mm:ss`, `H:mm`, `d/M` — as
/// the strftime format that prints the same, so a bar clock ticking every second is
/// rendered by the strftime engine (written when the alternative was ICU's DateFormatter).
///
/// Only fields whose ICU output is plain ASCII digits in every language are taken: `y`,
/// `yyy`, `yyyy` (`%Y`), `yy` (`%y`), `M`/`MM`, `d`/`dd`, `H`/`HH`, `m`/`mm`, `s`/`ss`
/// (`%-m`/`%m` and so on), with literal text and `'quoted'` text between them. Anything
/// else — month names, weekdays, AM/PM, zones, fractions, other calendars — stays with
/// the LDML engine. Years outside 1000–9999, where ICU's `y` and `%Y` pad differently, stay
/// with it too (`covers`). NumericDatePatternTests compares the two over many instants and zones.
package enum NumericDatePattern {
    /// The strftime format for `pattern`, or nil if it has a field this does not take.
    package static func strftimeFormat(for pattern: String) -> String? {
        var format = ""
        var bytes = Array(pattern.utf8)[...]
        while let byte = bytes.first {
            if byte == UInt8(ascii: "'") {
                bytes = bytes.dropFirst()
                if bytes.first == UInt8(ascii: "'") {  // '' is one quote
                    format += "'"
                    bytes = bytes.dropFirst()
                    continue
                }
                // Quoted text up to the closing quote ('' inside is one quote).
                var literal: [UInt8] = []
                while let next = bytes.first {
                    bytes = bytes.dropFirst()
                    if next == UInt8(ascii: "'") {
                        if bytes.first == UInt8(ascii: "'") {
                            literal.append(next)
                            bytes = bytes.dropFirst()
                            continue
                        }
                        break
                    }
                    literal.append(next)
                }
                format += escaped(literal)
                continue
            }
            guard isLetter(byte) else {
                var literal: [UInt8] = []
                while let next = bytes.first, !isLetter(next), next != UInt8(ascii: "'") {
                    literal.append(next)
                    bytes = bytes.dropFirst()
                }
                format += escaped(literal)
                continue
            }
            let run = bytes.prefix { $0 == byte }.count
            bytes = bytes.dropFirst(run)
            guard let conversion = conversion(letter: byte, count: run) else { return nil }
            format += conversion
        }
        // A conversion can be longer than its pattern (`H` is `%-H`): one past strftime's
        // limit stays with the LDML engine, which takes any pattern up to its own.
        return format.utf16.count <= StrftimeFormat.maxLength ? format : nil
    }

    /// Whether the instant's year (in any zone) is within 1000–9999, where the fields agree.
    package static func covers(unixSeconds: Int) -> Bool {
        // 1000-01-02 and 9999-12-30 UTC: a day inside, whatever the zone's offset.
        unixSeconds >= -30_610_137_600 && unixSeconds <= 253_402_128_000
    }

    private static func conversion(letter: UInt8, count: Int) -> String? {
        switch (letter, count) {
        case (UInt8(ascii: "y"), 1), (UInt8(ascii: "y"), 3), (UInt8(ascii: "y"), 4): return "%Y"
        case (UInt8(ascii: "y"), 2): return "%y"
        case (UInt8(ascii: "M"), 1): return "%-m"
        case (UInt8(ascii: "M"), 2): return "%m"
        case (UInt8(ascii: "d"), 1): return "%-d"
        case (UInt8(ascii: "d"), 2): return "%d"
        case (UInt8(ascii: "H"), 1): return "%-H"
        case (UInt8(ascii: "H"), 2): return "%H"
        case (UInt8(ascii: "m"), 1): return "%-M"
        case (UInt8(ascii: "m"), 2): return "%M"
        case (UInt8(ascii: "s"), 1): return "%-S"
        case (UInt8(ascii: "s"), 2): return "%S"
        default: return nil
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Literal text for strftime: `%` doubled.
    private static func escaped(_ literal: [UInt8]) -> String {
        String(decoding: literal, as: UTF8.self).replacingPercent()
    }
}

private extension String {
    func replacingPercent() -> String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var result = ""
        for character in self { result += character == "%" ? "%%" : String(character) }
        return result
    }
}
