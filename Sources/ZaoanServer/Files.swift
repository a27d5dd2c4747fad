import Glibc

/// Reading the files zaoan trusts least — its config and its state — without letting them
/// block the loop, exhaust memory or lead it somewhere else (`RegularFile`, shared with
/// `zaoan bar`).
enum Files {
    typealias ReadFailure = RegularFile.ReadFailure

    /// Random hex digits from the kernel (getrandom, through the standard library's
    /// generator): a name another user cannot predict.
    static func randomHex(bytes count: Int = 8) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte: UInt8 = generator.next()
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
