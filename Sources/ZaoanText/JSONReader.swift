/// Reads a JSON text into `JSONValue`s that know their line and column, with no Foundation.
///
/// Two dialects: `.strict` is RFC 8259 JSON; `.jsonc` is what waybar's config and VS Code's
/// settings take — `//` line comments, `/* */` block comments, a comma after the last
/// member of an object or array, and a UTF-8 byte order mark at the start. The config file
/// is read as `.jsonc`; state files and protocol lines (`line(_:)`) stay strict. It is
/// zaoan's one JSON reader; `JSONWriter` is its one writer.
///
/// Nothing in the text can make it trap or grow without bound: the text, each string, each
/// number literal, the number of values and the nesting depth all have limits (`Limits`),
/// and every error is a `JSONSyntaxError` naming line and column in words a user can act on.
///
///     let value = try JSONReader.read(bytes, dialect: .jsonc)
///     value.member("city")?.value.string   // "东京"
public enum JSONReader {
    public struct Dialect: Equatable, Sendable {
        public var comments: Bool
        public var trailingCommas: Bool
        public var byteOrderMark: Bool

        public static let strict = Dialect(comments: false, trailingCommas: false, byteOrderMark: false)
        public static let jsonc = Dialect(comments: true, trailingCommas: true, byteOrderMark: true)
    }

    public struct Limits: Equatable, Sendable {
        /// The whole text, in bytes.
        public var maxBytes: Int
        /// Objects and arrays inside one another, counting the outermost.
        public var maxDepth: Int
        /// One string (or key), in bytes of UTF-8 after escapes are decoded.
        public var maxStringBytes: Int
        /// One number literal, in characters.
        public var maxNumberLength: Int
        /// Values in the whole text, containers and members' values included.
        public var maxValues: Int

        /// One MiB of text, 32 levels, strings of 64 KiB, numbers of 100 characters, 100,000 values.
        public static let standard = Limits(maxBytes: 1 << 20, maxDepth: 32, maxStringBytes: 64 << 10,
                                            maxNumberLength: 100, maxValues: 100_000)

        /// What the clients read from others in one line — the service's blocks and objects,
        /// i3bar's click events: as `standard`, at most 16 levels deep.
        public static let line = Limits(maxBytes: 1 << 20, maxDepth: 16, maxStringBytes: 64 << 10,
                                        maxNumberLength: 100, maxValues: 100_000)

        public init(maxBytes: Int, maxDepth: Int, maxStringBytes: Int, maxNumberLength: Int, maxValues: Int) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
            self.maxStringBytes = maxStringBytes
            self.maxNumberLength = maxNumberLength
            self.maxValues = maxValues
        }
    }

    /// What to do with a key that appears twice in one object.
    public enum DuplicateKeys: Sendable {
        /// An error at the second one.
        case refused
        /// Both kept, in order, for the caller to judge (the config reader names both).
        case kept
    }

    /// Reads one JSON value that fills `bytes` (blanks, and in `.jsonc` comments, around it).
    public static func read(_ bytes: [UInt8], dialect: Dialect = .strict, limits: Limits = .standard,
                            duplicateKeys: DuplicateKeys = .refused) throws(JSONSyntaxError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONSyntaxError(.limit, at: .start, "the text is \(bytes.count) bytes, more than the \(limits.maxBytes) allowed")
        }
        if let bad = UTF8Check.firstInvalid(in: bytes) {
            throw JSONSyntaxError(.encoding, at: UTF8Check.position(of: bad, in: bytes),
                                  "byte 0x\(hex(bytes[bad])) is not UTF-8; save the file as UTF-8")
        }
        var parser = Parser(bytes: bytes, dialect: dialect, limits: limits, duplicateKeys: duplicateKeys)
        return try parser.document()
    }

    /// One line another program sent (a block from the service, a click from i3bar): strict
    /// JSON within `Limits.line`, a key twice refused; nil for anything else. The clients
    /// need only whether it is of zaoan's shape, not where it is wrong.
    public static func line(_ text: String) -> JSONValue? {
        try? read(Array(text.utf8), dialect: .strict, limits: .line, duplicateKeys: .refused)  // where it is wrong: not needed
    }

    static func hex(_ byte: UInt8) -> String {
        String(decoding: Hex.digits(of: byte, uppercase: true), as: UTF8.self)
    }
}

/// A JSON text that could not be read: where, and what was wrong.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// Nothing but blanks (and comments): no value at all.
        case empty
        case syntax
        /// Valid UTF-8 it is not.
        case encoding
        /// Past one of `JSONReader.Limits`.
        case limit
    }

    public let kind: Kind
    public let position: TextPosition
    public let message: String

    public init(_ kind: Kind, at position: TextPosition, _ message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }

    /// `3:14: expected ',' or '}' ...`
    public var description: String { "\(position): \(message)" }
}

/// The reading itself: one pass over the bytes, tracking the line as it goes.
private struct Parser {
    let bytes: [UInt8]
    let dialect: JSONReader.Dialect
    let limits: JSONReader.Limits
    let duplicateKeys: JSONReader.DuplicateKeys
    var index = 0
    var line = 1
    /// Where the current line starts.
    var lineStart = 0
    /// The last position asked for on this line, so columns are counted once, not from
    /// the start of the line every time (a long one-line file would be quadratic).
    var markIndex = 0
    var markColumn = 1
    var values = 0

    init(bytes: [UInt8], dialect: JSONReader.Dialect, limits: JSONReader.Limits, duplicateKeys: JSONReader.DuplicateKeys) {
        self.bytes = bytes
        self.dialect = dialect
        self.limits = limits
        self.duplicateKeys = duplicateKeys
    }

    // MARK: - Positions and errors

    /// The position of `at`, which must be on the current line: ask before skipping blanks
    /// that may hold a line break.
    mutating func position(_ at: Int) -> TextPosition {
        if markIndex < lineStart || markIndex > at {
            markIndex = lineStart
            markColumn = 1
        }
        var column = markColumn
        var scan = markIndex
        while scan < at, scan < bytes.count {
            if bytes[scan] & 0xC0 != 0x80 { column += 1 }
            scan += 1
        }
        markIndex = at
        markColumn = column
        return TextPosition(line: line, column: column)
    }

    mutating func error(_ at: Int, _ message: String, kind: JSONSyntaxError.Kind = .syntax) -> JSONSyntaxError {
        JSONSyntaxError(kind, at: position(at), message)
    }

    /// "expected X, found Y" at the current byte.
    mutating func unexpected(_ expected: String) -> JSONSyntaxError {
        error(index, "expected \(expected), found \(found(at: index))")
    }

    /// What is at `at`, for messages: a word as a whole (`'zh'`), a character, or the end.
    func found(at: Int) -> String {
        guard at < bytes.count else { return "the end of the text" }
        let byte = bytes[at]
        if isWordByte(byte) {
            var end = at
            while end < bytes.count, end - at < 24, isWordByte(bytes[end]) { end += 1 }
            let more = end < bytes.count && isWordByte(bytes[end]) ? "…" : ""
            return "'" + String(decoding: bytes[at..<end], as: UTF8.self) + more + "'"
        }
        if byte == UInt8(ascii: "'") { return "a single quote (keys and strings take double quotes)" }
        if byte >= 0x21 && byte < 0x7F { return "'" + String(UnicodeScalar(byte)) + "'" }
        // A control character or a scalar beyond ASCII (the text is valid UTF-8).
        var length = 1
        while at + length < bytes.count, bytes[at + length] & 0xC0 == 0x80, length < 4 { length += 1 }
        let scalar = String(decoding: bytes[at..<(at + length)], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        return byte < 0x80 ? scalar.codePoint : "'\(scalar)' (\(scalar.codePoint))"
    }

    func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "_")
    }

    // MARK: - The text

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if dialect.byteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3  // the mark is invisible in an editor: the first character is column 1
            markIndex = 3
        }
        try skipBlanks()
        guard index < bytes.count else {
            throw error(index, dialect.comments ? "no JSON value, only blanks and comments" : "no JSON value, only blanks", kind: .empty)
        }
        let value = try self.value(depth: 0)
        try skipBlanks()
        guard index == bytes.count else {
            throw unexpected("the end of the text after the value that starts at \(value.position)")
        }
        return value
    }

    /// Spaces, tabs, line breaks and, in `.jsonc`, comments.
    mutating func skipBlanks() throws(JSONSyntaxError) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: "/"):
                guard dialect.comments else {
                    throw error(index, "a comment (or a stray '/'); comments are allowed in the config file, not here")
                }
                try skipComment()
            default:
                return
            }
        }
    }

    mutating func skipComment() throws(JSONSyntaxError) {
        let start = index
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") else {
            throw error(start, "a '/' that starts no comment; comments are // to the end of the line or /* ... */")
        }
        if bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            return
        }
        let opened = position(start)
        index += 2
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                return
            }
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        throw JSONSyntaxError(.syntax, at: opened, "the comment that starts here is not closed with */")
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw unexpected("a value") }
        values += 1
        guard values <= limits.maxValues else {
            throw error(index, "more than \(limits.maxValues) values in one text", kind: .limit)
        }
        let start = position(index)
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try object(depth: depth + 1, at: start)
        case UInt8(ascii: "["):
            return try array(depth: depth + 1, at: start)
        case UInt8(ascii: "\""):
            return JSONValue(.string(try string()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try number()), at: start)
        case UInt8(ascii: "t"):
            return JSONValue(try literal("true", .bool(true)), at: start)
        case UInt8(ascii: "f"):
            return JSONValue(try literal("false", .bool(false)), at: start)
        case UInt8(ascii: "n"):
            return JSONValue(try literal("null", .null), at: start)
        default:
            throw unexpected("a value (an object, array, string, number, true, false or null)")
        }
    }

    mutating func literal(_ word: StaticString, _ kind: JSONValue.Kind) throws(JSONSyntaxError) -> JSONValue.Kind {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        let end = index + expected.count
        guard end <= bytes.count, bytes[index..<end].elementsEqual(expected), end == bytes.count || !isWordByte(bytes[end]) else {
            throw unexpected("a value (an object, array, string, number, true, false or null)")
        }
        index = end
        return kind
    }

    mutating func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= limits.maxDepth else {
            throw error(index, "objects and arrays nested more than \(limits.maxDepth) deep", kind: .limit)
        }
    }

    mutating func object(depth: Int, at opened: TextPosition) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var members: [JSONMember] = []
        var seen: [String: TextPosition] = [:]
        try skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONValue(.object(members), at: opened)
        }
        while true {
            guard index < bytes.count else { throw notClosed("object", opened, "}") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: ",") { throw error(index, "a comma with no member before it") }
                throw unexpected("a key in double quotes")
            }
            let keyPosition = position(index)
            let key = try string()
            if duplicateKeys == .refused {
                if let first = seen[key] {
                    throw JSONSyntaxError(.syntax, at: keyPosition, "the key \"\(Self.shown(key))\" appears twice in one object (first at \(first)); keep one")
                }
                seen[key] = keyPosition
            }
            try skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                if index >= bytes.count { throw notClosed("object", opened, "}") }
                throw unexpected("':' after the key \"\(Self.shown(key))\"")
            }
            index += 1
            try skipBlanks()
            guard index < bytes.count else { throw notClosed("object", opened, "}") }
            let value = try self.value(depth: depth)
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            try skipBlanks()
            guard index < bytes.count else { throw notClosed("object", opened, "}") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONValue(.object(members), at: opened)
            }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw unexpected("',' or '}' after the value of \"\(Self.shown(key))\"")
            }
            let comma = position(index)  // before the blanks after it move to another line
            index += 1
            try skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                guard dialect.trailingCommas else { throw trailingComma(comma, "}") }
                index += 1
                return JSONValue(.object(members), at: opened)
            }
        }
    }

    mutating func array(depth: Int, at opened: TextPosition) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        index += 1
        var items: [JSONValue] = []
        try skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONValue(.array(items), at: opened)
        }
        while true {
            guard index < bytes.count else { throw notClosed("array", opened, "]") }
            if bytes[index] == UInt8(ascii: ",") { throw error(index, "a comma with no value before it") }
            items.append(try value(depth: depth))
            try skipBlanks()
            guard index < bytes.count else { throw notClosed("array", opened, "]") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONValue(.array(items), at: opened)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw unexpected("',' or ']' after an item of the array that starts at \(opened)") }
            let comma = position(index)  // before the blanks after it move to another line
            index += 1
            try skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                guard dialect.trailingCommas else { throw trailingComma(comma, "]") }
                index += 1
                return JSONValue(.array(items), at: opened)
            }
        }
    }

    func notClosed(_ what: String, _ opened: TextPosition, _ closer: String) -> JSONSyntaxError {
        JSONSyntaxError(.syntax, at: opened, "the \(what) that starts here is not closed: the text ends before its '\(closer)'")
    }

    func trailingComma(_ comma: TextPosition, _ closer: String) -> JSONSyntaxError {
        JSONSyntaxError(.syntax, at: comma, "a comma before '\(closer)'; remove it (only the config file allows one)")
    }

    /// A key or value for a message: at most 40 characters, control characters shown as `?`.
    static func shown(_ text: String) -> String {
        let scalars = text.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }
        return String(String.UnicodeScalarView(scalars)) + (text.unicodeScalars.count > 40 ? "…" : "")
    }

    /// A string starting at its opening quote; escapes decoded, control characters refused.
    mutating func string() throws(JSONSyntaxError) -> String {
        let opened = position(index)
        index += 1
        var decoded: [UInt8] = []
        var escaped = false
        var run = index
        func tooLong() -> JSONSyntaxError {
            JSONSyntaxError(.limit, at: opened, "the string that starts here is longer than \(limits.maxStringBytes) bytes")
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if !escaped {  // most strings: the bytes as they are, with no copy first
                    guard index - run <= limits.maxStringBytes else { throw tooLong() }
                    let text = String(decoding: bytes[run..<index], as: UTF8.self)
                    index += 1
                    return text
                }
                decoded.append(contentsOf: bytes[run..<index])
                index += 1
                guard decoded.count <= limits.maxStringBytes else { throw tooLong() }
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[run..<index])
                guard decoded.count <= limits.maxStringBytes else { throw tooLong() }
                escaped = true
                try escape(into: &decoded)
                run = index
            case 0x0A, 0x0D:
                throw JSONSyntaxError(.syntax, at: opened, "the string that starts here does not end on its line; close it with \" (a line break inside one is written \\n)")
            case 0x00..<0x20:
                let name = byte == 0x09 ? "a tab" : "the control character U+00\(JSONReader.hex(byte))"
                throw error(index, "\(name) inside a string; write it as \(byte == 0x09 ? "\\t" : "\\u00" + JSONReader.hex(byte))")
            default:
                index += 1
            }
        }
        throw JSONSyntaxError(.syntax, at: opened, "the string that starts here is not closed: the text ends before its closing \"")
    }

    /// One escape, from its backslash.
    mutating func escape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        let backslash = index
        index += 1
        guard index < bytes.count else { throw error(backslash, "the text ends inside an escape") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { throw error(backslash, "\\u must be followed by four hex digits, as \\u00e9") }
            var value = unit
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error(backslash, "\\u\(Self.hex16(unit)) is the first half of a surrogate pair with no second half after it")
                }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                    throw error(backslash, "\\u\(Self.hex16(unit)) is the first half of a surrogate pair, and the \\u after it is not a second half")
                }
                value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error(backslash, "\\u\(Self.hex16(unit)) is the second half of a surrogate pair with no first half before it")
            }
            guard let scalar = Unicode.Scalar(value) else { throw error(backslash, "\\u escape of no character") }
            UTF8.encode(scalar) { decoded.append($0) }
        default:
            throw error(backslash, "unknown escape \(found(at: backslash + 1).replacingFirstQuote()) in a string; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    static func hex16(_ value: UInt32) -> String {
        JSONReader.hex(UInt8(value >> 8)) + JSONReader.hex(UInt8(value & 0xFF))
    }

    /// The four hex digits of a `\uXXXX` escape, or nil if they are not four hex digits.
    mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = Hex.value(of: byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// A number literal, checked against JSON's grammar with a message for each way to miss it.
    mutating func number() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        switch bytes[index] {
        case UInt8(ascii: "+"): throw error(start, "a number cannot start with '+'; write 5, not +5")
        case UInt8(ascii: "."): throw error(start, "a number cannot start with '.'; write 0.5, not .5")
        default: break
        }
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard isDigit(index) else { throw error(start, "a '-' must be followed by digits") }
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error(start, "a number cannot have a leading zero; write 10, not 010") }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error(start, "a digit must follow the decimal point; write 1.0 or 1, not 1.") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw error(start, "digits must follow the exponent's 'e', as in 1e3") }
            while isDigit(index) { index += 1 }
        }
        guard index - start <= limits.maxNumberLength else {
            throw error(start, "a number longer than \(limits.maxNumberLength) characters", kind: .limit)
        }
        let literal = Array(bytes[start..<index])
        guard let parsed = JSONNumber.parse(literal) else { throw error(start, "not a number") }  // the grammar was checked above
        return JSONNumber(text: String(decoding: literal, as: UTF8.self), integer: parsed.integer, isWhole: parsed.isWhole)
    }
}

private extension String {
    /// `'q'` → `\q`, for the escape message.
    func replacingFirstQuote() -> String {
        hasPrefix("'") && hasSuffix("'") && count >= 3 ? "'\\" + dropFirst() : self
    }
}

/// UTF-8 as RFC 3629 has it: no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Check {
    /// The index of the first byte that is not part of well-formed UTF-8, or nil.
    static func firstInvalid(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < bytes.count else { return index }
                let byte = bytes[index + offset]
                let range = offset == 1 ? low...high : 0x80...0xBF
                guard range.contains(byte) else { return index }
            }
            index += length
        }
        return nil
    }

    /// Line and column of `index` (counting scalars up to it; a stray continuation byte
    /// before it counts as one).
    static func position(of index: Int, in bytes: [UInt8]) -> TextPosition {
        var line = 1
        var column = 1
        var at = 0
        while at < index {
            if bytes[at] == 0x0A {
                line += 1
                column = 1
            } else if bytes[at] & 0xC0 != 0x80 {
                column += 1
            }
            at += 1
        }
        return TextPosition(line: line, column: column)
    }
}
