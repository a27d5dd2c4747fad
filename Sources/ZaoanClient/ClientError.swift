import ZaoanSystem

/// What can go wrong for `zaoan ask`, `watch` and `bar`, said so the user knows what to do,
/// with the exit status each stands for.
public enum ClientError: Error, Equatable, CustomStringConvertible {
    /// A request word or option the user gave cannot be sent (exit 64).
    case badArgument(String)
    /// No service at the socket (exit 2).
    case unreachable(path: String, reason: String)
    /// The socket's directory is not the user's own (exit 2).
    case unsafeDirectory(path: String, reason: String)
    /// The deadline passed (exit 2).
    case timedOut(path: String, seconds: Double, waitingFor: String)
    /// The server sent more than a client keeps (exit 2).
    case tooLarge(path: String, what: String, limit: Int)
    /// Reading or writing failed midway (exit 2).
    case io(path: String, reason: String)

    public var exitStatus: Int32 {
        if case .badArgument = self { return 64 }
        return 2
    }

    /// How to start the service a client looked for at `path`: the machine's (the system
    /// socket, /run/zaoan) with the system unit, any other with `zaoan serve` or the user unit.
    public static func startHint(for path: String) -> String {
        if path.hasPrefix(systemSocketDirectory) {
            return "It is the machine's service: start it with `sudo systemctl enable --now zaoan.socket` (see docs/systemd.md)."
        }
        return "Start it with `zaoan serve`, or as a user service with `systemctl --user enable --now zaoan.socket`."
    }

    /// Where the system unit's socket is (packaging/systemd/system/zaoan.socket).
    public static let systemSocketDirectory = "/run/zaoan/"

    public var description: String {
        switch self {
        case .badArgument(let text):
            return text
        case .unreachable(let path, let reason):
            return "cannot reach the zaoan service at \(path) (\(reason)).\n" + Self.startHint(for: path)
        case .unsafeDirectory(let path, let reason):
            return "not connecting to \(path): \(reason). Another user may have put a server there; remove the directory or pass --socket PATH"
        case .timedOut(let path, let seconds, let what):
            return "no \(what) from the zaoan service at \(path) within \(ClientError.seconds(seconds)); it may be stopped or overloaded (raise --timeout to wait longer)"
        case .tooLarge(let path, let what, let limit):
            return "the server at \(path) sent \(what) longer than \(limit >> 10) KiB; that is not zaoan, stopping"
        case .io(let path, let reason):
            return "talking to the zaoan service at \(path) failed: \(reason)"
        }
    }

    /// `value` is a --timeout or --retry-after, so within `ClientLimits.timeoutRange`: the
    /// conversions cannot trap.
    public static func seconds(_ value: Double) -> String {
        if value < 1 { return "\(Int((value * 1000).rounded())) ms" }
        return value == value.rounded() ? "\(Int(value)) s" : "\((value * 10).rounded() / 10) s"
    }
}

/// The limits every client keeps, whatever the server does.
public enum ClientLimits {
    /// The longest line a client keeps (a watch update, a bar block).
    public static let maxLine = 64 * 1024
    /// The longest answer `ask` keeps.
    public static let maxAnswer = 1 << 20
    /// How long a client waits for the service, unless --timeout says otherwise.
    public static let defaultTimeout = 5.0
    /// The shortest and longest --timeout.
    public static let timeoutRange = 0.001...3_600.0
    /// How long `watch` and `bar` wait between attempts to reach a service that is down,
    /// unless --retry-after says otherwise (the first attempts come sooner).
    public static let defaultRetryAfter = 2.0
    /// The shortest and longest --retry-after.
    public static let retryAfterRange = 0.05...3_600.0
}
