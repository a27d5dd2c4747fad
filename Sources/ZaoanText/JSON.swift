/// A small JSON reader for what the clients read from others — the blocks the service sends
/// `zaoan bar`, and the click events i3bar sends it — with no Foundation. Strict where it
/// matters (strings, escapes, nesting) and bounded: at most `maxDepth` levels, and the
/// input is one line the caller has already capped in length. (The config file is read by
/// `JSONReader`, which knows lines and columns; issue 16 makes that the only reader.)
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public static let maxDepth = 16

    /// Parses one JSON value that fills `text` (blanks around it allowed), or nil. A key
    /// that appears twice in one object makes it nil too.
    public static func parse(_ text: String) -> JSON? {
        parse(bytes: Array(text.utf8)).value
    }

    /// `parse` of UTF-8 bytes (a file's).
    public static func parse(_ bytes: [UInt8]) -> JSON? {
        parse(bytes: bytes).value
    }

    private static func parse(bytes: [UInt8]) -> (value: JSON?, duplicate: String?) {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return (nil, reader.duplicate) }
        reader.skipBlanks()
        return (reader.atEnd ? value : nil, nil)
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A whole number that fits in an Int, or nil.
    public var integer: Int? {
        guard case .number(let value) = self, value.isFinite, value == value.rounded(),
              value >= -9.0e15, value <= 9.0e15 else { return nil }
        return Int(value)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        /// The keys leading to the object being read.
        var path: [String] = []
        /// Set when a key appeared twice in one object.
        var duplicate: String?
        var atEnd: Bool { index >= bytes.count }

        mutating func skipBlanks() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSON? {
            guard depth <= JSON.maxDepth else { return nil }
            skipBlanks()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSON.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ result: JSON) -> JSON? {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else { return nil }
            index += expected.count
            return result
        }

        mutating func number() -> JSON? {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else { return nil }
            return .number(value)
        }

        mutating func array(depth: Int) -> JSON? {
            index += 1
            var items: [JSON] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipBlanks()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }

        mutating func object(depth: Int) -> JSON? {
            index += 1
            var fields: [String: JSON] = [:]
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard fields[key] == nil else {
                    duplicate = (path + [key]).joined(separator: ".")
                    return nil
                }
                path.append(key)
                let item = value(depth: depth + 1)
                path.removeLast()
                guard let item else { return nil }
                fields[key] = item
                skipBlanks()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(fields)
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }

        /// A string starting at its opening quote; escapes decoded, control bytes refused.
        mutating func string() -> String? {
            index += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty {
                    scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                    raw.removeAll()
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case 0x00..<0x20:
                    return nil
                case UInt8(ascii: "\\"):
                    flush()
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(unit) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                            index += 2
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                        } else {
                            guard let scalar = Unicode.Scalar(unit) else { return nil }  // a lone low surrogate
                            scalars.append(scalar)
                        }
                    default:
                        return nil
                    }
                default:
                    raw.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count, let value = JSONHex.value(of: bytes[index..<(index + 4)]) else { return nil }
            index += 4
            return value
        }
    }
}
