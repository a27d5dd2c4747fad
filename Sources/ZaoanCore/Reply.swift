/// An answer, already encoded as the bytes that go on the wire.
///
/// - A single-line answer is the bare value and LF.
/// - A multi-line answer is its lines, each with LF, then an empty line.
/// - An error is `ERR <code> <message>` and LF.
public struct Reply: Equatable, Sendable {
    public let bytes: [UInt8]
    public let isError: Bool

    public static func line(_ text: String) -> Reply {
        Reply(bytes: Array(oneLine(text).utf8) + [0x0A], isError: false)
    }

    public static func lines(_ lines: [String]) -> Reply {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += oneLine(line).utf8
            bytes.append(0x0A)
        }
        bytes.append(0x0A)
        return Reply(bytes: bytes, isError: false)
    }

    public static func error(_ error: ProtocolError) -> Reply {
        Reply(bytes: Array(oneLine(error.description).utf8) + [0x0A], isError: true)
    }

    public static let ok = Reply.line("ok")
    public static let pong = Reply.line("pong")
    /// Answers a bar's watch whose status lines now go to the pipe it handed over.
    public static let handedOver = Reply.line(Request.barOutputTaken)

    /// The text of the reply, without its final LF (for tests and the CLI).
    public var text: String {
        String(decoding: bytes.last == 0x0A ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }

    /// A line break inside a value would end the answer early, and a control character
    /// could reach a terminal: every value goes out on its line, made visible-safe.
    private static func oneLine(_ text: String) -> String { SafeText.visible(text) }
}
