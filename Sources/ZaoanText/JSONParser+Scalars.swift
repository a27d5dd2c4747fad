/// The parser's scalars: strings with their escapes, and numbers.
extension JSONParser {
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
                let name = byte == 0x09 ? "a tab" : "the control character \(Unicode.Scalar(byte).codePoint)"
                throw error(index, "\(name) inside a string; write it as \(byte == 0x09 ? "\\t" : "\\u" + Hex.padded(UInt32(byte), width: 4, uppercase: true))")
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
                    throw error(backslash, "\\u\(Hex.padded(unit, width: 4, uppercase: true)) is the first half of a surrogate pair with no second half after it")
                }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                    throw error(backslash, "\\u\(Hex.padded(unit, width: 4, uppercase: true)) is the first half of a surrogate pair, and the \\u after it is not a second half")
                }
                value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error(backslash, "\\u\(Hex.padded(unit, width: 4, uppercase: true)) is the second half of a surrogate pair with no first half before it")
            }
            guard let scalar = Unicode.Scalar(value) else { throw error(backslash, "\\u escape of no character") }
            UTF8.encode(scalar) { decoded.append($0) }
        default:
            throw error(backslash, "unknown escape \(found(at: backslash + 1).replacingFirstQuote()) in a string; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
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
