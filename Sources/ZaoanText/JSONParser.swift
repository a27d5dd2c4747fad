/// The reading itself: one pass over the bytes, tracking the line as it goes.
struct JSONParser {
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
        var members: [JSONMember] = []
        var seen: [String: TextPosition] = [:]
        if try opens(Self.object) { return JSONValue(.object(members), at: opened) }
        while true {
            guard index < bytes.count else { throw notClosed(Self.object, opened) }
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
                if index >= bytes.count { throw notClosed(Self.object, opened) }
                throw unexpected("':' after the key \"\(Self.shown(key))\"")
            }
            index += 1
            try skipBlanks()
            guard index < bytes.count else { throw notClosed(Self.object, opened) }
            let value = try self.value(depth: depth)
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            if try closes(Self.object, at: opened, else: "',' or '}' after the value of \"\(Self.shown(key))\"") {
                return JSONValue(.object(members), at: opened)
            }
        }
    }

    mutating func array(depth: Int, at opened: TextPosition) throws(JSONSyntaxError) -> JSONValue {
        try checkDepth(depth)
        var items: [JSONValue] = []
        if try opens(Self.array) { return JSONValue(.array(items), at: opened) }
        while true {
            guard index < bytes.count else { throw notClosed(Self.array, opened) }
            if bytes[index] == UInt8(ascii: ",") { throw error(index, "a comma with no value before it") }
            items.append(try value(depth: depth))
            if try closes(Self.array, at: opened, else: "',' or ']' after an item of the array that starts at \(opened)") {
                return JSONValue(.array(items), at: opened)
            }
        }
    }

    /// An object or an array, named in messages, with the byte that closes it.
    struct Container {
        let name: String
        let closer: UInt8
        var closerText: String { String(UnicodeScalar(closer)) }
    }
    static let object = Container(name: "object", closer: UInt8(ascii: "}"))
    static let array = Container(name: "array", closer: UInt8(ascii: "]"))

    /// At the opening bracket: steps over it and the blanks after it; true when the
    /// container closes at once (it is empty).
    mutating func opens(_ container: Container) throws(JSONSyntaxError) -> Bool {
        index += 1
        try skipBlanks()
        guard index < bytes.count, bytes[index] == container.closer else { return false }
        index += 1
        return true
    }

    /// After a member or an item: true when the container closes (after a last comma too,
    /// where the dialect allows one), false after a comma with more to come.
    mutating func closes(_ container: Container, at opened: TextPosition, else expected: @autoclosure () -> String) throws(JSONSyntaxError) -> Bool {
        try skipBlanks()
        guard index < bytes.count else { throw notClosed(container, opened) }
        if bytes[index] == container.closer {
            index += 1
            return true
        }
        guard bytes[index] == UInt8(ascii: ",") else { throw unexpected(expected()) }
        let comma = position(index)  // before the blanks after it move to another line
        index += 1
        try skipBlanks()
        guard index < bytes.count, bytes[index] == container.closer else { return false }
        guard dialect.trailingCommas else { throw trailingComma(comma, container.closerText) }
        index += 1
        return true
    }

    func notClosed(_ container: Container, _ opened: TextPosition) -> JSONSyntaxError {
        JSONSyntaxError(.syntax, at: opened, "the \(container.name) that starts here is not closed: the text ends before its '\(container.closerText)'")
    }

    func trailingComma(_ comma: TextPosition, _ closer: String) -> JSONSyntaxError {
        JSONSyntaxError(.syntax, at: comma, "a comma before '\(closer)'; remove it (only the config file allows one)")
    }

    /// A key or value for a message: at most 40 characters, control characters shown as `?`.
    static func shown(_ text: String) -> String {
        let scalars = text.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }
        return String(String.UnicodeScalarView(scalars)) + (text.unicodeScalars.count > 40 ? "…" : "")
    }
}
