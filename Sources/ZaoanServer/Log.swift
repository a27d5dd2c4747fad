import Glibc

/// Log lines on stderr. Under systemd (stderr is not a terminal) each line carries an
/// sd-daemon `<N>` priority prefix so journald files it at the right level.
public enum Log {
    public enum Level: Int32, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    nonisolated(unsafe) public static var verbose = false
    private static let prefixed = isatty(2) == 0

    public static func error(_ message: String) { write(.error, message) }
    public static func warning(_ message: String) { write(.warning, message) }
    public static func notice(_ message: String) { write(.notice, message) }
    public static func info(_ message: String) { write(.info, message) }
    public static func debug(_ message: @autoclosure () -> String) {
        if verbose { write(.debug, message()) }
    }

    private static func write(_ level: Level, _ message: String) {
        let line = (prefixed ? "<\(level.rawValue)>" : "") + "zaoan: " + message + "\n"
        _ = Posix.writeAll(2, line)
    }
}
