import ZaoanSystem

/// A strftime format read once, the way GNU `date` 9.1 reads `date +FORMAT` (coreutils with
/// gnulib's `nstrftime`): `%` conversions with the flags `_ - 0 + ^ #`, a field width, an
/// `E` or `O` modifier, and literal text (quotes included) copied byte for byte.
///
/// What `date` does not know — `%Q`, `%:Y`, `%Ed`, `%5%`, a `%` at the end — it prints as it
/// stands; zaoan refuses it instead, naming it as written, so a typo is not shown on a bar.
/// Rendering is `StrftimeRenderer`'s.
///
///     let format = try StrftimeFormat.cached("%a %b %e %H:%M:%S %Z %Y")
///     var renderer = StrftimeRenderer(time: time, locale: .english)
///     try renderer.render(format.pieces)   // "Tue Dec  1 09:30:00 CST 2026"
public struct StrftimeFormat: Sendable {
    /// A run of literal bytes, or one conversion.
    package enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case conversion(Conversion)
    }

    /// One `%` conversion as written.
    package struct Conversion: Sendable, Equatable {
        /// `_`, `-`, `+`, `0`, or 0 for none (the last one given wins).
        var pad: UInt8 = 0
        /// `^`: upper case.
        var upcase = false
        /// `#`: the opposite case (upper for names, lower for `%p` and `%Z`).
        var changeCase = false
        /// -1 when none was given.
        var width = -1
        /// `E`, `O`, or 0.
        var modifier: UInt8 = 0
        /// The conversion letter; `z` for `%:z`, `%::z`, `%:::z` too.
        var letter: UInt8
        /// The colons of `%:z` (0...3).
        var colons = 0

        init(letter: UInt8) { self.letter = letter }
    }

    package let pieces: [Piece]

    /// The widest field width taken (`%1024Y`); GNU accepts any, but a width is memory.
    public static let maxWidth = 1024
    /// The most bytes one answer may have.
    public static let maxOutputBytes = 16 * 1024
    /// The longest format taken, in UTF-16 units (as for LDML patterns).
    public static let maxLength = 1024

    /// Reads `format`.
    /// - Throws: `StrftimeError` naming each conversion `date` would not convert, or a width
    ///   past `maxWidth`, or a format past `maxLength`.
    public init(_ format: String) throws(StrftimeError) {
        let length = format.utf16.count
        guard length <= Self.maxLength else { throw .formatTooLong(length: length) }
        var parser = FormatParser(written: Array(format.utf8))
        pieces = try parser.parse()
    }

    /// Formats compiled before, by format text: a bar asking for `%H:%M:%S` every second
    /// costs a lookup. Shared by every responder; at most `cacheCapacity` formats.
    package static func cached(_ format: String) throws(StrftimeError) -> StrftimeFormat {
        try cache.format(format)
    }

    package static let cacheCapacity = 128
    private static let cache = FormatCache(capacity: cacheCapacity)
    /// How many formats are kept now (at most `cacheCapacity`).
    package static var cachedCount: Int { cache.count }
    /// `format` is kept (a lookup that keeps nothing new).
    package static func isCached(_ format: String) -> Bool { cache.holds(format) }

    /// Format text → compiled format, bounded: when full, the oldest half is dropped.
    private final class FormatCache: @unchecked Sendable {
        private let lock = Lock()
        private let capacity: Int
        private var formats: [String: StrftimeFormat] = [:]
        private var order: [String] = []

        init(capacity: Int) { self.capacity = capacity }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return formats.count
        }

        func holds(_ text: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return formats[text] != nil
        }

        func format(_ text: String) throws(StrftimeError) -> StrftimeFormat {
            lock.lock()
            if let known = formats[text] {
                lock.unlock()
                return known
            }
            lock.unlock()
            let compiled = try StrftimeFormat(text)  // errors are not kept: they are cheap to find again
            lock.lock()
            defer { lock.unlock() }
            if formats[text] == nil {
                if formats.count >= capacity {
                    for old in order.prefix(capacity / 2) { formats[old] = nil }
                    order.removeFirst(min(order.count, capacity / 2))
                }
                formats[text] = compiled
                order.append(text)
            }
            return compiled
        }
    }
}

/// Why a strftime format is refused. `protocolError` (ZaoanCore) says it to the client.
public enum StrftimeError: Error, Equatable, Sendable {
    /// Conversions GNU date would not convert, each as written, with why.
    case notConversions([StrftimeProblem])
    /// A field width past `StrftimeFormat.maxWidth`.
    case widthTooLarge(written: String, width: Int)
    case formatTooLong(length: Int)
    /// The answer would pass `StrftimeFormat.maxOutputBytes`.
    case outputTooLong
    /// The instant is too far from 1970 to render.
    case instantOutOfRange
}

/// One thing in a format that is not a conversion GNU date knows.
public struct StrftimeProblem: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// `%Q`: no such conversion.
        case unknownConversion
        /// `%Ed`, `%Oa`: the conversion does not take this modifier (`E` or `O`).
        case modifierNotAllowed(Character)
        /// `%5%`, `%-%`: `%%` takes no flags, width or modifier.
        case decoratedPercent
        /// `%:Y`: colons only go before `z`.
        case colonNotBeforeZ
        /// `%::::z`: at most three colons.
        case tooManyColons
        /// `%O:z`: glibc has no `O` form of `%:z`.
        case alternativeColonOffset
        /// `%`, `%-5` at the very end.
        case endOfFormat
        /// A NUL byte, where `date` would stop reading.
        case nulByte
    }

    /// The text as the user wrote it, from its `%`.
    public let written: String
    public let reason: Reason
}

/// Reads a format's bytes into pieces, collecting every problem before throwing.
private struct FormatParser {
    /// The format as written (for naming problems).
    let written: [UInt8]
    /// The format as `date` reads it: coreutils turns each `%-N` into `%9N` (the clock's
    /// resolution) before formatting, scanning `%%` as one unit.
    let bytes: [UInt8]
    var problems: [StrftimeProblem] = []
    var pieces: [StrftimeFormat.Piece] = []
    var literal: [UInt8] = []

    init(written: [UInt8]) {
        self.written = written
        var adjusted = written
        var index = 0
        while index < adjusted.count {
            if adjusted[index] == UInt8(ascii: "%") {
                if index + 2 < adjusted.count, adjusted[index + 1] == UInt8(ascii: "-"), adjusted[index + 2] == UInt8(ascii: "N") {
                    adjusted[index + 1] = UInt8(ascii: "9")
                    index += 2
                } else if index + 1 < adjusted.count, adjusted[index + 1] == UInt8(ascii: "%") {
                    index += 1
                }
            }
            index += 1
        }
        bytes = adjusted
    }

    mutating func parse() throws(StrftimeError) -> [StrftimeFormat.Piece] {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 {
                problems.append(StrftimeProblem(written: "\u{0}", reason: .nulByte))
                break
            }
            guard byte == UInt8(ascii: "%") else {
                literal.append(byte)
                index += 1
                continue
            }
            index = try conversion(at: index)
        }
        flushLiteral()
        if !problems.isEmpty { throw .notConversions(problems) }
        return pieces
    }

    /// Reads the conversion whose `%` is at `percent`; returns where reading goes on.
    private mutating func conversion(at percent: Int) throws(StrftimeError) -> Int {
        var index = percent + 1
        var conversion = StrftimeFormat.Conversion(letter: 0)
        flags: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "0"): conversion.pad = bytes[index]
            case UInt8(ascii: "^"): conversion.upcase = true
            case UInt8(ascii: "#"): conversion.changeCase = true
            default: break flags
            }
            index += 1
        }
        if index < bytes.count, Self.isDigit(bytes[index]) {
            var width = 0
            while index < bytes.count, Self.isDigit(bytes[index]) {
                // Saturating, as C's int does in date: the width is refused further down.
                width = min(Int(Int32.max), width * 10 + Int(bytes[index] - UInt8(ascii: "0")))
                index += 1
            }
            conversion.width = width
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "E") || bytes[index] == UInt8(ascii: "O") {
            conversion.modifier = bytes[index]
            index += 1
        }
        guard index < bytes.count, bytes[index] != 0 else {
            problem(percent..<index, .endOfFormat)
            return index
        }
        let letter = bytes[index]
        conversion.letter = letter
        switch letter {
        case UInt8(ascii: "%"):
            guard index == percent + 1 else {
                // date prints the text before this `%` and reads the `%` as the start of a new
                // conversion; named whole here, and reading goes on after it.
                problem(percent..<(index + 1), .decoratedPercent)
                return index + 1
            }
            literal.append(letter)
            return index + 1
        case UInt8(ascii: ":"):
            var colons = 0
            while index + colons < bytes.count, bytes[index + colons] == UInt8(ascii: ":") { colons += 1 }
            let after = index + colons
            guard after < bytes.count, bytes[after] != 0 else {
                problem(percent..<after, .endOfFormat)
                return after
            }
            guard bytes[after] == UInt8(ascii: "z") else {
                let end = after + Self.characterLength(at: after, in: bytes)
                problem(percent..<end, .colonNotBeforeZ)
                return end
            }
            if colons > 3 {
                problem(percent..<(after + 1), .tooManyColons)
            } else if conversion.modifier == UInt8(ascii: "O") {
                problem(percent..<(after + 1), .alternativeColonOffset)
            } else {
                conversion.letter = UInt8(ascii: "z")
                conversion.colons = colons
                try add(conversion, written: percent..<(after + 1))
            }
            return after + 1
        default:
            let end = index + Self.characterLength(at: index, in: bytes)
            switch Self.validity(of: letter, modifier: conversion.modifier) {
            case .valid: try add(conversion, written: percent..<end)
            case .unknown: problem(percent..<end, .unknownConversion)
            case .modifierNotAllowed: problem(percent..<end, .modifierNotAllowed(Character(Unicode.Scalar(conversion.modifier))))
            }
            return end
        }
    }

    private mutating func add(_ conversion: StrftimeFormat.Conversion, written range: Range<Int>) throws(StrftimeError) {
        guard conversion.width <= StrftimeFormat.maxWidth else {
            throw .widthTooLarge(written: String(decoding: written[range], as: UTF8.self), width: conversion.width)
        }
        flushLiteral()
        pieces.append(.conversion(conversion))
    }

    private mutating func problem(_ range: Range<Int>, _ reason: StrftimeProblem.Reason) {
        problems.append(StrftimeProblem(written: String(decoding: written[range], as: UTF8.self), reason: reason))
    }

    private mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        pieces.append(.literal(literal))
        literal.removeAll()
    }

    enum Validity { case valid, unknown, modifierNotAllowed }

    /// Which letters and modifiers GNU date 9.1 converts. Where gnulib hands a conversion to
    /// glibc (`%Oq`), what glibc does not know counts as unknown too.
    static func validity(of letter: UInt8, modifier: UInt8) -> Validity {
        let e = modifier == UInt8(ascii: "E")
        let o = modifier == UInt8(ascii: "O")
        switch letter {
        case UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "D"), UInt8(ascii: "F"):
            return modifier == 0 ? .valid : .modifierNotAllowed
        case UInt8(ascii: "b"), UInt8(ascii: "h"), UInt8(ascii: "B"):
            return e ? .modifierNotAllowed : .valid
        case UInt8(ascii: "c"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "Y"), UInt8(ascii: "q"):
            return o ? .modifierNotAllowed : .valid
        case UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "H"), UInt8(ascii: "I"), UInt8(ascii: "k"), UInt8(ascii: "l"),
             UInt8(ascii: "j"), UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "S"), UInt8(ascii: "U"), UInt8(ascii: "V"),
             UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "W"), UInt8(ascii: "w"), UInt8(ascii: "N"):
            return e ? .modifierNotAllowed : .valid
        case UInt8(ascii: "C"), UInt8(ascii: "y"), UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "p"), UInt8(ascii: "P"),
             UInt8(ascii: "r"), UInt8(ascii: "R"), UInt8(ascii: "T"), UInt8(ascii: "s"), UInt8(ascii: "u"), UInt8(ascii: "Z"),
             UInt8(ascii: "z"):
            return .valid
        default:
            return .unknown
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The bytes of the UTF-8 character starting at `index` (1 past the end).
    static func characterLength(at index: Int, in bytes: [UInt8]) -> Int {
        guard index < bytes.count else { return 0 }
        let lead = bytes[index]
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return min(length, bytes.count - index)
    }
}
