/// A place in a text file as an editor shows it: line and column, both counted from 1. The
/// column counts Unicode scalars (a tab, an `é` and a `東` are one each), so `3:5` is the
/// fifth character of the third line.
public struct TextPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let start = TextPosition(line: 1, column: 1)

    public var description: String { "\(line):\(column)" }

    public static func < (left: TextPosition, right: TextPosition) -> Bool {
        (left.line, left.column) < (right.line, right.column)
    }
}

/// One value of a JSON text read by `JSONReader`, with where it starts in the text.
public struct JSONValue: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        /// Members in the order of the text; a key appears once unless the reader was told
        /// to keep repeated keys (`JSONReader.DuplicateKeys.kept`).
        case object([JSONMember])
    }

    public var kind: Kind
    /// Where the value's first character is (its `{`, `[`, `"`, digit or letter).
    public var position: TextPosition

    public init(_ kind: Kind, at position: TextPosition) {
        self.kind = kind
        self.position = position
    }

    public var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    public var number: JSONNumber? {
        if case .number(let value) = kind { return value }
        return nil
    }

    public var items: [JSONValue]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    public var members: [JSONMember]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    public var isNull: Bool { kind == .null }

    /// A whole number that fits an Int (`60`, `60.0`, `6e1`), or nil.
    public var integer: Int? {
        number?.integer.flatMap { Int(exactly: $0) }
    }

    /// The first member named `key`, if this is an object.
    public func member(_ key: String) -> JSONMember? {
        members?.first { $0.key == key }
    }

    /// The value of the first member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? {
        member(key)?.value
    }

    /// What the value is, for messages: "a string", "an object", "a number".
    public var kindName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A key and its value in an object, with where the key starts (its opening quote).
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var keyPosition: TextPosition
    public var value: JSONValue

    public init(key: String, keyPosition: TextPosition, value: JSONValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// A number as written: the text, and the whole number it means exactly, if any.
///
/// `integer` is decided on the decimal text, not through a Double, so it is exact at any
/// size: `60`, `60.0`, `6e1` and `600e-1` are 60; `60.5` and `1e-3` are no whole number;
/// `9223372036854775807` is Int64.max and one more is none (too large). Nothing here traps,
/// whatever the digits or the exponent.
public struct JSONNumber: Equatable, Sendable, CustomStringConvertible {
    /// The literal as it appears in the text (already checked against JSON's grammar).
    public let text: String
    /// The whole number the literal means, when it is one and fits in an Int64.
    public let integer: Int64?
    /// Whether the literal is a whole number, whether or not it fits in an Int64.
    public let isWhole: Bool

    public init?(_ text: String) {
        guard let parsed = JSONNumber.parse(Array(text.utf8)) else { return nil }
        self.text = text
        self.integer = parsed.integer
        self.isWhole = parsed.isWhole
    }

    init(text: String, integer: Int64?, isWhole: Bool) {
        self.text = text
        self.integer = integer
        self.isWhole = isWhole
    }

    /// The nearest Double; nil when the literal is beyond Double's range.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    public var description: String { text }

    /// Reads a literal of JSON's grammar (`-? int frac? exp?`). Returns nil for anything
    /// else; for a good one, whether it is whole and its Int64 value if it has one.
    static func parse(_ bytes: [UInt8]) -> (integer: Int64?, isWhole: Bool)? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        guard isDigit(index) else { return nil }
        // Most literals: a whole number of at most 18 digits, which fits an Int64 as it is.
        if bytes.count - index <= 18, bytes[index] != 0x30 || bytes.count - index == 1,
           bytes[index...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            var value: Int64 = 0
            for byte in bytes[index...] { value = value * 10 + Int64(byte - 0x30) }
            return (negative ? -value : value, true)
        }
        // Every digit of the integer and fraction parts, and how many are fraction.
        var digits: [UInt8] = []
        if bytes[index] == 0x30 {
            index += 1
            guard !isDigit(index) else { return nil }  // no leading zeros
            digits.append(0)
        } else {
            while isDigit(index) {
                digits.append(bytes[index] - 0x30)
                index += 1
            }
        }
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                digits.append(bytes[index] - 0x30)
                fractionDigits += 1
                index += 1
            }
        }
        // The exponent, saturated far beyond anything that could still be an Int64.
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                exponent = min(exponent * 10 + Int(bytes[index] - 0x30), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.count else { return nil }

        // value = digits × 10^(exponent − fractionDigits); trailing zeros move into the power.
        var power = exponent - fractionDigits
        while digits.count > 1, digits.last == 0 {
            digits.removeLast()
            power += 1
        }
        let isZero = digits.allSatisfy { $0 == 0 }
        if isZero { return (0, true) }
        guard power >= 0 else { return (nil, false) }
        // Whole. It fits in an Int64 only with at most 19 digits in all.
        guard digits.count + power <= 19 else { return (nil, true) }
        // Accumulated as a negative number, which reaches Int64.min.
        var value: Int64 = 0
        for digit in digits + [UInt8](repeating: 0, count: power) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return (nil, true) }
            value = next
        }
        if negative { return (value, true) }
        guard value != Int64.min else { return (nil, true) }
        return (-value, true)
    }
}
