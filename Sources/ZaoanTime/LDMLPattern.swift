/// An LDML date pattern (`yyyy-MM-dd HH:mm`, `EEEE d MMMM`, `HH:mm 'Uhr'`) read once into
/// fields and literals, as Unicode's UTS #35 has them: a run of one ASCII letter is a field,
/// its length the field's width; text between single quotes is literal (`''` is a quote,
/// inside quotes or out); everything else is literal. Letters this engine does not render
/// (`u`, `g`, `A`, `F`, the short zone id `V`, …) are refused when read, naming
/// the field, so no pattern is ever rendered half right. Total: any string is read or refused
/// with an `LDMLPatternError`, never a trap, and a pattern is at most `maxLength` UTF-16
/// units (the service's bound on patterns, shared with strftime formats).
package struct LDMLPattern: Sendable, Equatable {
    package enum Piece: Sendable, Equatable {
        case literal(String)
        case field(Field, width: Int)
    }

    /// The fields rendered (UTS #35's letters).
    package enum Field: Character, Sendable, Equatable, CaseIterable {
        case era = "G", year = "y", quarter = "Q", standaloneQuarter = "q"
        case month = "M", standaloneMonth = "L", day = "d", dayOfYear = "D"
        case weekday = "E", localWeekday = "e", standaloneLocalWeekday = "c"
        case dayPeriod = "a", hour12 = "h", hour23 = "H", hour11 = "K", hour24 = "k"
        case minute = "m", second = "s", fraction = "S"
        case zoneRFC = "Z", zoneISO = "x", zoneISOWithZ = "X", zoneGMT = "O"
        case zoneSpecific = "z", zoneGeneric = "v", zoneID = "V"
        case weekYear = "Y", weekOfYear = "w", weekOfMonth = "W"
        case noonPeriod = "b", flexibleDayPeriod = "B"
        /// The Chinese calendar's cyclic year name (丙午) and the Gregorian year its year
        /// began in (LDMLChineseRenderer); in the Gregorian calendar both are the year.
        case cyclicYear = "U", relatedYear = "r"

        /// Whether UTS #35 defines the field at this width (`O` and `v` are 1 or 4 letters;
        /// `V` is 1–4, of which `V`, the short bcp47 id, is refused before this).
        func takes(width: Int) -> Bool {
            self == .zoneGMT || self == .zoneGeneric ? width == 1 || width == 4 : widths.contains(width)
        }

        /// The widths UTS #35 defines for the field (years and days of the year pad to any).
        private var widths: ClosedRange<Int> {
            switch self {
            case .era, .quarter, .standaloneQuarter, .month, .standaloneMonth, .dayPeriod, .zoneRFC, .zoneISO, .zoneISOWithZ,
                 .noonPeriod, .flexibleDayPeriod, .cyclicYear: return 1...5
            case .weekday, .localWeekday, .standaloneLocalWeekday: return 1...6
            case .day, .hour12, .hour23, .hour11, .hour24, .minute, .second, .weekOfYear: return 1...2
            case .zoneGMT, .zoneGeneric, .zoneSpecific, .zoneID: return 1...4
            case .weekOfMonth: return 1...1
            case .year, .dayOfYear, .weekYear, .relatedYear: return 1...LDMLPattern.maxLength
            case .fraction: return 1...9
            }
        }
    }

    /// The longest pattern taken, in UTF-16 units: the service's `maxPatternLength`.
    package static let maxLength = StrftimeFormat.maxLength

    package let pieces: [Piece]

    /// Whether the pattern shows minutes (seconds): ICU's `b` and `B` call 12:00 noon only
    /// when the minutes (seconds) shown, if any, are zero; unshown ones do not count.
    var showsMinutes: Bool { pieces.contains { if case .field(.minute, _) = $0 { true } else { false } } }
    var showsSeconds: Bool { pieces.contains { if case .field(.second, _) = $0 { true } else { false } } }
    /// Whether a field names the zone (`z`, `v`, `V`): only then are CLDR's zone tables read.
    var namesZones: Bool {
        pieces.contains {
            guard case .field(let field, _) = $0 else { return false }
            return field == .zoneSpecific || field == .zoneGeneric || field == .zoneID
        }
    }

    package init(_ pattern: String) throws(LDMLPatternError) {
        let length = pattern.utf16.count
        guard length <= Self.maxLength else { throw .tooLong(length: length) }
        var pieces: [Piece] = []
        var literal = ""
        var scalars = pattern.unicodeScalars[...]
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        while let scalar = scalars.first {
            if scalar == "'" {
                scalars = scalars.dropFirst()
                if scalars.first == "'" {  // '' outside quotes
                    literal.unicodeScalars.append("'")
                    scalars = scalars.dropFirst()
                    continue
                }
                var closed = false
                while let inner = scalars.first {
                    scalars = scalars.dropFirst()
                    if inner == "'" {
                        if scalars.first == "'" {
                            literal.unicodeScalars.append("'")
                            scalars = scalars.dropFirst()
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        literal.unicodeScalars.append(inner)
                    }
                }
                guard closed else { throw .unterminatedQuote }
            } else if scalar.isASCII, scalar.properties.isAlphabetic {
                let width = scalars.prefix { $0 == scalar }.count
                scalars = scalars.dropFirst(width)
                let letter = Character(scalar)
                guard let field = Field(rawValue: letter) else { throw .unsupportedField(letter: letter, width: width) }
                if field == .zoneID, width == 1 { throw .shortZoneID }
                guard field.takes(width: width) else { throw .unsupportedWidth(letter: letter, width: width) }
                flush()
                pieces.append(.field(field, width: width))
            } else {
                literal.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
            }
        }
        flush()
        self.pieces = pieces
    }
}

/// Why a pattern was not read, in words a config's author can act on.
package enum LDMLPatternError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong(length: Int)
    case unterminatedQuote
    case unsupportedField(letter: Character, width: Int)
    case unsupportedWidth(letter: Character, width: Int)
    case shortZoneID

    package var description: String {
        switch self {
        case .tooLong(let length):
            return "the pattern is \(length) characters long; at most \(LDMLPattern.maxLength)"
        case .unterminatedQuote:
            return "the pattern opens a quote (') it never closes; write '' for a quote itself"
        case .unsupportedField(let letter, let width):
            return "the pattern field '\(String(repeating: letter, count: min(width, 8)))' is not one zaoan formats; "
                + "quote letters meant as text ('at')"
        case .unsupportedWidth(let letter, let width):
            return "the pattern field '\(letter)' is not taken \(width) letters long"
        case .shortZoneID:
            return "the pattern field 'V' (the short zone id, such as cnsha) is not one zaoan formats: "
                + "it has no copy of CLDR's bcp47 zone ids; 'VV' is the zone's name (Asia/Shanghai)"
        }
    }
}
