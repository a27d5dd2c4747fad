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
                                  "byte 0x\(Hex.padded(UInt32(bytes[bad]), width: 2, uppercase: true)) is not UTF-8; save the file as UTF-8")
        }
        var parser = JSONParser(bytes: bytes, dialect: dialect, limits: limits, duplicateKeys: duplicateKeys)
        return try parser.document()
    }

    /// One line another program sent (a block from the service, a click from i3bar): strict
    /// JSON within `Limits.line`, a key twice refused; nil for anything else. The clients
    /// need only whether it is of zaoan's shape, not where it is wrong.
    public static func line(_ text: String) -> JSONValue? {
        try? read(Array(text.utf8), dialect: .strict, limits: .line, duplicateKeys: .refused)  // where it is wrong: not needed
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
