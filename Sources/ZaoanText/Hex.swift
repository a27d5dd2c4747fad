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

    /// The two digits of a byte, high first.
    public static func digits(of byte: UInt8, uppercase: Bool) -> [UInt8] {
        let base = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        func digit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : base + value - 10 }
        return [digit(byte >> 4), digit(byte & 0x0F)]
    }
}
