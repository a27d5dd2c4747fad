/// An answer of the form `ERR <code> <message>`. Codes are stable and documented in
/// docs/protocol.md; messages say what was wrong and what to send instead.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case unknownCommand = "unknown-command"
        case badArgument = "bad-argument"
        case unknownCity = "unknown-city"
        case tooLong = "too-long"
        case badEncoding = "bad-encoding"
        case badConfig = "bad-config"
        case busy = "busy"
        case full = "full"
        case notFound = "not-found"
        case forbidden = "forbidden"
        case storage = "storage"
        case notWatchable = "not-watchable"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "ERR \(code.rawValue) \(message)" }
}
