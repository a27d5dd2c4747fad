/// Finds a key that appears twice in one JSON object. Foundation's decoders keep one of the
/// two without a word (JSONDecoder the first, JSONSerialization the last), so a config with
/// `"05:00"` twice would mean whichever the decoder picked; zaoan refuses it instead.
///
/// Expects JSON that a decoder has accepted; on anything else it stops and returns nil,
/// leaving the error to the decoder. Keys are compared after their escapes are decoded
/// (`"a"` and `"\u0061"` are the same key). No recursion: depth costs one array entry.
public enum JSONDuplicateKeys {
    /// The dotted path of the first duplicate key (`greetings.05:00`), or nil.
    public static func first(in bytes: [UInt8]) -> String? {
        struct Frame {
            var isObject: Bool
            /// Where this object or array sits, e.g. `greetings`.
            var path: String
            var keys: Set<String> = []
            var lastKey = ""
        }
        func joined(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
        var stack: [Frame] = []
        var expectingKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let path = stack.last.map { $0.isObject ? joined($0.path, $0.lastKey) : $0.path } ?? ""
                let isObject = bytes[index] == UInt8(ascii: "{")
                stack.append(Frame(isObject: isObject, path: path))
                expectingKey = isObject
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = stack.last?.isObject ?? false
            case UInt8(ascii: "\""):
                guard let (text, end) = string(bytes, from: index + 1) else { return nil }
                index = end
                if expectingKey, let top = stack.indices.last {
                    guard stack[top].keys.insert(text).inserted else { return joined(stack[top].path, text) }
                    stack[top].lastKey = text
                    expectingKey = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// Decodes the string starting after its opening quote.
    /// - Returns: the text and the index of the closing quote, or nil if it never closes.
    static func string(_ bytes: [UInt8], from start: Int) -> (String, Int)? {
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var index = start
        var pendingHigh: UInt32?
        func flushRaw() {
            if !raw.isEmpty {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flushRaw()
                return (String(scalars), index)
            }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            flushRaw()
            guard index + 1 < bytes.count else { return nil }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count, let unit = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else { return nil }
                index += 4
                if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                    continue
                }
                if (0xDC00...0xDFFF).contains(unit), let high = pendingHigh {
                    let value = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                } else {
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            default: scalars.append(Unicode.Scalar(escape))
            }
            pendingHigh = nil
        }
        return nil
    }
}
