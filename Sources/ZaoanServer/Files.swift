import Glibc
import ZaoanText

/// Reading the files zaoan trusts least — its config and its state — without letting them
/// block the loop, exhaust memory or lead it somewhere else (`RegularFile`, shared with
/// `zaoan bar`).
enum Files {
    typealias ReadFailure = RegularFile.ReadFailure

    /// Random hex digits from the kernel (getrandom, through the standard library's
    /// generator): a name another user cannot predict.
    static func randomHex(bytes count: Int = 8) -> String {
        var generator = SystemRandomNumberGenerator()
        return String(decoding: (0..<count).flatMap { _ in Hex.digits(of: generator.next(), uppercase: false) }, as: UTF8.self)
    }
}
