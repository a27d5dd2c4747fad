/// Writes a `StrftimeFormat` for one broken-down time, byte for byte as GNU date 9.1 does:
/// gnulib's `nstrftime` rules for numbers, padding, widths, signs and case, and glibc's
/// strftime (`LibcTimeText`) for the locale's names and formats.
///
/// The rules that surprise (each checked against `date`):
/// - padding counts bytes, and pads with zeros for `0` and `+`, spaces otherwise (`-`: none);
/// - years (`%Y %C %y %G %g`) take a sign with `+` only past their usual digits or width;
///   `%F` pads its year to four digits with `+`, or gives `%Y` the width less 6;
/// - `%D %F %R %T` pass their flag to the years inside and pad the whole;
/// - names, `%c %x %X %r %p`, and every `O` form come from glibc and are then padded and
///   recased as text, so `%_Od` is `01` and `%10Oz` pads `+0800` with spaces;
/// - `%N` drops trailing zeros, then pads *after* the digits; `%-N` means `%9N`.
package struct StrftimeRenderer {
    let time: BrokenDownTime
    let locale: TimeLocale
    package private(set) var output: [UInt8] = []

    package init(time: BrokenDownTime, locale: TimeLocale) {
        self.time = time
        self.locale = locale
        output.reserveCapacity(64)
    }

    /// Renders `pieces` (nstrftime's `__strftime_internal`).
    /// - Parameters:
    ///   - upcase: `^` given to an enclosing `%D`, `%F`, `%R` or `%T`.
    ///   - yearPad: the enclosing conversion's pad flag, for years that have none.
    ///   - firstWidth: the width the first conversion has unless it gives its own.
    package mutating func render(_ pieces: [StrftimeFormat.Piece], upcase: Bool = false, yearPad: UInt8 = 0,
                         firstWidth: Int = -1) throws(StrftimeError) {
        var inheritedWidth = firstWidth
        for piece in pieces {
            switch piece {
            case .literal(let bytes):
                try append(bytes)
            case .conversion(let conversion):
                try render(conversion, upcase: upcase, yearPad: yearPad,
                           width: conversion.width >= 0 ? conversion.width : inheritedWidth)
            }
            inheritedWidth = -1
        }
    }

    /// The state of one conversion while it is written (nstrftime's locals).
    private struct Field {
        var pad: UInt8
        var width: Int
        var upper: Bool
        var lower = false
    }

    private mutating func render(_ conversion: StrftimeFormat.Conversion, upcase: Bool, yearPad: UInt8, width: Int) throws(StrftimeError) {
        var field = Field(pad: conversion.pad, width: width, upper: upcase || conversion.upcase)
        let letter = conversion.letter
        let modifier = conversion.modifier
        let time = time
        switch letter {
        case UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "b"), UInt8(ascii: "h"), UInt8(ascii: "B"):
            if conversion.changeCase { (field.upper, field.lower) = (true, false) }
            try appendLibc(letter, modifier: modifier, field)
        case UInt8(ascii: "c"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "r"):
            try appendLibc(letter, modifier: modifier, field)
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            if letter == UInt8(ascii: "P") || conversion.changeCase { (field.upper, field.lower) = (false, true) }
            try appendLibc(UInt8(ascii: "p"), modifier: modifier, field)
        case UInt8(ascii: "Z"):
            if conversion.changeCase { (field.upper, field.lower) = (false, true) }
            try appendText(time.zoneAbbreviation.utf8, field)
        case UInt8(ascii: "%"):
            try appendText(CollectionOfOne(letter), field)
        case UInt8(ascii: "n"):
            try appendText(CollectionOfOne(0x0A), field)
        case UInt8(ascii: "t"):
            try appendText(CollectionOfOne(0x09), field)

        case UInt8(ascii: "D"):
            try appendSubformat(Self.monthDayYear, field, subwidth: -1)
        case UInt8(ascii: "R"):
            try appendSubformat(Self.hourMinute, field, subwidth: -1)
        case UInt8(ascii: "T"):
            try appendSubformat(Self.hourMinuteSecond, field, subwidth: -1)
        case UInt8(ascii: "F"):
            var subwidth = max(0, field.width - 6)
            if field.pad == 0 && field.width < 0 {
                field.pad = UInt8(ascii: "+")
                subwidth = 4
            }
            try appendSubformat(Self.isoDate, field, subwidth: subwidth)

        case UInt8(ascii: "Y"):
            if modifier == UInt8(ascii: "E") { return try appendLibc(letter, modifier: modifier, field) }
            try appendYearish(time.year.magnitude, negative: time.year < 0, digits: 4, field, yearPad: yearPad, letter: letter, modifier: modifier)
        case UInt8(ascii: "C"):
            if modifier == UInt8(ascii: "E") { return try appendLibc(letter, modifier: modifier, field) }
            let negativeYear = time.year < 0
            let tmYear = time.year - 1900
            let zeroThrough1899 = !negativeYear && tmYear < 0
            let century = (tmYear - (zeroThrough1899 ? 99 : 0)) / 100 + 19
            try appendYearish(century.magnitude, negative: negativeYear, digits: 2, field, yearPad: yearPad, letter: letter, modifier: modifier)
        case UInt8(ascii: "y"):
            if modifier == UInt8(ascii: "E") { return try appendLibc(letter, modifier: modifier, field) }
            let tmYear = time.year - 1900
            var twoDigits = tmYear % 100
            if twoDigits < 0 { twoDigits = tmYear < -1900 ? -twoDigits : twoDigits + 100 }
            try appendYearish(UInt(twoDigits), negative: false, digits: 2, field, yearPad: yearPad, letter: letter, modifier: modifier)
        case UInt8(ascii: "G"), UInt8(ascii: "g"), UInt8(ascii: "V"):
            let week = ISOWeek(time)
            let tmYear = time.year - 1900
            if letter == UInt8(ascii: "V") {
                try appendNumber(week.week, digits: 2, field, letter: letter, modifier: modifier)
            } else if letter == UInt8(ascii: "G") {
                let year = time.year + week.yearAdjustment
                try appendYearish(year.magnitude, negative: year < 0, digits: 4, field, yearPad: yearPad, letter: letter, modifier: modifier)
            } else {
                let twoDigits = (tmYear % 100 + week.yearAdjustment) % 100
                let value = twoDigits >= 0 ? twoDigits : (tmYear < -1900 - week.yearAdjustment ? -twoDigits : twoDigits + 100)
                try appendYearish(UInt(value), negative: false, digits: 2, field, yearPad: yearPad, letter: letter, modifier: modifier)
            }

        case UInt8(ascii: "d"): try appendNumber(time.day, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "e"): try appendNumber(time.day, digits: 2, spaced(field), letter: letter, modifier: modifier)
        case UInt8(ascii: "H"): try appendNumber(time.hour, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "I"): try appendNumber(time.hour12, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "k"): try appendNumber(time.hour, digits: 2, spaced(field), letter: letter, modifier: modifier)
        case UInt8(ascii: "l"): try appendNumber(time.hour12, digits: 2, spaced(field), letter: letter, modifier: modifier)
        case UInt8(ascii: "j"): try appendNumber(time.dayOfYear + 1, digits: 3, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "M"): try appendNumber(time.minute, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "m"): try appendNumber(time.month, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "S"): try appendNumber(time.second, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "u"): try appendNumber((time.weekday + 6) % 7 + 1, digits: 1, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "w"): try appendNumber(time.weekday, digits: 1, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "U"): try appendNumber((time.dayOfYear - time.weekday + 7) / 7, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "W"):
            try appendNumber((time.dayOfYear - (time.weekday + 6) % 7 + 7) / 7, digits: 2, field, letter: letter, modifier: modifier)
        case UInt8(ascii: "q"): try appendNumber((((time.month - 1) * 11) >> 5) + 1, digits: 1, field, letter: letter, modifier: modifier)

        case UInt8(ascii: "s"):
            // Straight to the sign and padding: no O form.
            try appendSignedDigits(Self.digits(of: time.unixSeconds.magnitude), negative: time.unixSeconds < 0,
                                   alwaysSign: false, digits: 1, field)
        case UInt8(ascii: "N"):
            try appendNanoseconds(field)
        case UInt8(ascii: "z"):
            try appendOffset(colons: conversion.colons, field, modifier: modifier)
        default:
            // StrftimeFormat keeps everything else out.
            break
        }
    }

    // MARK: - Numbers

    /// `%e %k %l`: spaces unless a flag says otherwise.
    private func spaced(_ field: Field) -> Field {
        var field = field
        if field.pad == 0 { field.pad = UInt8(ascii: "_") }
        return field
    }

    /// nstrftime's `DO_NUMBER`: a value that is never negative here.
    private mutating func appendNumber(_ value: Int, digits: Int, _ field: Field, letter: UInt8, modifier: UInt8) throws(StrftimeError) {
        if modifier == UInt8(ascii: "O") && value >= 0 { return try appendLibc(letter, modifier: modifier, field) }
        try appendSignedDigits(Self.digits(of: value.magnitude), negative: value < 0, alwaysSign: false, digits: digits, field)
    }

    /// nstrftime's `DO_YEARISH`: the enclosing pad if none is given, and with `+` a sign
    /// once the year needs more than its usual digits or the width asks for more.
    private mutating func appendYearish(_ magnitude: UInt, negative: Bool, digits: Int, _ field: Field, yearPad: UInt8,
                                        letter: UInt8, modifier: UInt8) throws(StrftimeError) {
        var field = field
        if field.pad == 0 { field.pad = yearPad }
        let usual: UInt = digits == 2 ? 99 : 9999
        let alwaysSign = field.pad == UInt8(ascii: "+") && (usual < magnitude || digits < field.width)
        if modifier == UInt8(ascii: "O") && !negative { return try appendLibc(letter, modifier: modifier, field) }
        try appendSignedDigits(Self.digits(of: magnitude), negative: negative, alwaysSign: alwaysSign, digits: digits, field)
    }

    /// `%z %:z %::z %:::z`: always signed; colons placed among the digits.
    private mutating func appendOffset(colons: Int, _ field: Field, modifier: UInt8) throws(StrftimeError) {
        let offset = time.utcOffset
        let negative = offset < 0 || (offset == 0 && time.zoneAbbreviation.utf8.first == UInt8(ascii: "-"))
        if modifier == UInt8(ascii: "O") && !negative { return try appendLibc(UInt8(ascii: "z"), modifier: modifier, field) }
        let (hours, minutes, seconds) = (offset.magnitude / 3600, offset.magnitude / 60 % 60, offset.magnitude % 60)
        var form = colons
        if form == 3 { form = seconds != 0 ? 2 : minutes != 0 ? 1 : 3 }
        let digits: [UInt8]
        let minimum: Int
        switch form {
        case 0: (digits, minimum) = (Self.digits(of: hours * 100 + minutes), 5)
        case 1: (digits, minimum) = (Self.digits(of: hours * 100 + minutes, colonAfter: [2]), 6)
        case 2: (digits, minimum) = (Self.digits(of: hours * 10_000 + minutes * 100 + seconds, colonAfter: [2, 4]), 9)
        default: (digits, minimum) = (Self.digits(of: hours), 3)
        }
        try appendSignedDigits(digits, negative: negative, alwaysSign: true, digits: minimum, field)
    }

    /// `%N`: nine digits cut to the width, trailing zeros dropped, then the width filled
    /// after them.
    private mutating func appendNanoseconds(_ field: Field) throws(StrftimeError) {
        var field = field
        let width = field.width <= 0 ? 9 : field.width
        var value = time.nanoseconds
        var count = 9
        while width < count || (count > 1 && value % 10 == 0) {
            count -= 1
            value /= 10
        }
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: count)
        for index in stride(from: count - 1, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        if field.pad == 0 { field.pad = UInt8(ascii: "0") }
        try append(digits)
        try appendPadding(field.pad == UInt8(ascii: "-") ? 0 : width - count, pad: field.pad)
    }

    /// nstrftime's `do_number_sign_and_padding`: zeros (default), spaces before the sign
    /// (`_`) or nothing (`-`) up to the width, which defaults to `digits`.
    private mutating func appendSignedDigits(_ number: [UInt8], negative: Bool, alwaysSign: Bool, digits: Int, _ field: Field) throws(StrftimeError) {
        var field = field
        if field.pad == 0 { field.pad = UInt8(ascii: "0") }
        if field.width < 0 { field.width = digits }
        let sign: UInt8? = negative ? UInt8(ascii: "-") : alwaysSign ? UInt8(ascii: "+") : nil
        if let sign {
            if field.pad == UInt8(ascii: "_") {
                let padding = max(0, field.width - 1 - number.count)
                try appendPadding(padding, pad: field.pad)
                field.width -= padding
            }
            try append(CollectionOfOne(sign))
            field.width -= 1
        }
        try appendText(number, field)
    }

    /// The decimal digits of `value`, with a colon before each digit counted (from the
    /// right, from 0) in `colonAfter`; as many leading zeros as the colons need.
    static func digits(of value: UInt, colonAfter colons: [Int] = []) -> [UInt8] {
        var reversed: [UInt8] = []
        var value = value
        var position = 0
        let lastColon = colons.max() ?? -1
        repeat {
            if colons.contains(position) { reversed.append(UInt8(ascii: ":")) }
            reversed.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
            position += 1
        } while value != 0 || position <= lastColon
        return reversed.reversed()
    }

    // MARK: - Text

    /// nstrftime's `cpy`: text padded in front to the width (zeros for `0` and `+`, spaces
    /// otherwise, none for `-`), with ASCII letters recased.
    private mutating func appendText(_ text: some Collection<UInt8>, _ field: Field) throws(StrftimeError) {
        if field.pad != UInt8(ascii: "-") && field.width > text.count {
            try appendPadding(field.width - text.count, pad: field.pad)
        }
        if field.lower {
            try append(text.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        } else if field.upper {
            try append(text.map { $0 >= 0x61 && $0 <= 0x7A ? $0 & ~0x20 : $0 })
        } else {
            try append(text)
        }
    }

    /// What glibc writes for `%<modifier><letter>`, then padded and recased here.
    private mutating func appendLibc(_ letter: UInt8, modifier: UInt8, _ field: Field) throws(StrftimeError) {
        var text: [UInt8] = []
        LibcTimeText.append(letter, modifier: modifier, time: time, locale: locale, to: &text)
        try appendText(text, field)
    }

    /// `%D %F %R %T`: the inner format with this conversion's case and pad, then the whole
    /// padded to the width (nstrftime's `add`).
    private mutating func appendSubformat(_ pieces: [StrftimeFormat.Piece], _ field: Field, subwidth: Int) throws(StrftimeError) {
        let start = output.count
        try render(pieces, upcase: field.upper, yearPad: field.pad, firstWidth: subwidth)
        let length = output.count - start
        if field.pad != UInt8(ascii: "-"), field.width > length {
            let padding = field.width - length
            guard output.count + padding <= StrftimeFormat.maxOutputBytes else { throw .outputTooLong }
            let fill = field.pad == UInt8(ascii: "0") || field.pad == UInt8(ascii: "+") ? UInt8(ascii: "0") : UInt8(ascii: " ")
            output.insert(contentsOf: repeatElement(fill, count: padding), at: start)
        }
    }

    private mutating func appendPadding(_ count: Int, pad: UInt8) throws(StrftimeError) {
        guard count > 0 else { return }
        let fill = pad == UInt8(ascii: "0") || pad == UInt8(ascii: "+") ? UInt8(ascii: "0") : UInt8(ascii: " ")
        try append(repeatElement(fill, count: count))
    }

    private mutating func append(_ bytes: some Collection<UInt8>) throws(StrftimeError) {
        guard output.count + bytes.count <= StrftimeFormat.maxOutputBytes else { throw .outputTooLong }
        output.append(contentsOf: bytes)
    }

    private static func conversion(_ letter: Character) -> StrftimeFormat.Piece {
        .conversion(StrftimeFormat.Conversion(letter: letter.asciiValue!))
    }

    static let monthDayYear: [StrftimeFormat.Piece] = [conversion("m"), .literal([UInt8(ascii: "/")]), conversion("d"), .literal([UInt8(ascii: "/")]), conversion("y")]
    static let hourMinute: [StrftimeFormat.Piece] = [conversion("H"), .literal([UInt8(ascii: ":")]), conversion("M")]
    static let hourMinuteSecond: [StrftimeFormat.Piece] = [conversion("H"), .literal([UInt8(ascii: ":")]), conversion("M"), .literal([UInt8(ascii: ":")]), conversion("S")]
    static let isoDate: [StrftimeFormat.Piece] = [conversion("Y"), .literal([UInt8(ascii: "-")]), conversion("m"), .literal([UInt8(ascii: "-")]), conversion("d")]
}
