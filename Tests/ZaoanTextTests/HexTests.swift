import Testing
import ZaoanText

/// The one hex writer (`Hex`): the same digits as the standard library's `String(_:radix:)`,
/// zeros in front up to the width asked, either case.
@Suite struct HexTests {
    @Test(arguments: [0, 1, 4, 8])
    func paddedIsRadix16WithLeadingZeros(width: Int) {
        var generator = SystemRandomNumberGenerator()
        let values: [UInt32] = [0, 9, 10, 15, 16, 0xFF, 0x1F, 0x202E, 0xFFFF, 0x10000, 0x10FFFF, .max]
            + (0..<2000).map { _ in UInt32.random(in: 0 ... .max, using: &generator) >> UInt32.random(in: 0...31, using: &generator) }
        for value in values {
            for uppercase in [false, true] {
                let plain = String(value, radix: 16, uppercase: uppercase)
                let expected = String(repeating: "0", count: max(0, width - plain.count)) + plain
                #expect(Hex.padded(value, width: width, uppercase: uppercase) == expected)
            }
        }
    }

    @Test func bytesAndDigitsRoundTrip() {
        for byte in UInt8.min ... UInt8.max {
            for uppercase in [false, true] {
                let digits = Hex.digits(of: byte, uppercase: uppercase)
                #expect(String(decoding: digits, as: UTF8.self) == (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: uppercase))
                #expect(digits.compactMap(Hex.value(of:)).reduce(0) { $0 * 16 + Int($1) } == Int(byte))
            }
        }
        #expect(Unicode.Scalar(0x202E)!.codePoint == "U+202E")
        #expect(Unicode.Scalar(0x1F600)!.codePoint == "U+1F600")
        #expect(Unicode.Scalar(0x0A)!.codePoint == "U+000A")
    }
}
