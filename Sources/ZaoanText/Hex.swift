/// Hexadecimal digits, both ways, for every reader and writer that needs them (JSON's
/// `\uXXXX` escapes, bar colours' `#rrggbb`).
public enum Hex {
    /// The value of one hex digit (either case), or nil.
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The digit of a value 0–15 (its low four bits).
    public static func digit(_ value: UInt8, uppercase: Bool) -> UInt8 {
        let nibble = value & 0x0F
        return nibble < 10 ? UInt8(ascii: "0") + nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }

    /// The two digits of a byte, high first.
    public static func digits(of byte: UInt8, uppercase: Bool) -> [UInt8] {
        [digit(byte >> 4, uppercase: uppercase), digit(byte, uppercase: uppercase)]
    }

    /// `value`'s digits, at least `width` of them (zeros in front): `U+` and `\u` escapes.
    public static func padded(_ value: UInt32, width: Int, uppercase: Bool) -> String {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(digit(UInt8(truncatingIfNeeded: rest), uppercase: uppercase))
            rest >>= 4
        } while rest > 0 || digits.count < width
        return String(decoding: digits.reversed(), as: UTF8.self)
    }
}
