import CSystemd
import Glibc

/// Logging. Quiet by default: one line at start, one at stop, one per error; per-request
/// lines only with --verbose (debug).
///
/// When stderr is the journal (JOURNAL_STREAM names it), entries go through
/// `sd_journal_sendv` with structured fields — priority, a stable MESSAGE_ID per kind of
/// event, and for refused requests the client's pid and uid. Otherwise plain lines on stderr,
/// with sd-daemon `<N>` prefixes when stderr is not a terminal (journald or a supervisor
/// reading it files them at the right level).
public enum Log {
    public enum Level: Int32, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    /// Kinds of event with a stable journal MESSAGE_ID, so `journalctl MESSAGE_ID=...`
    /// finds every one of a kind.
    public enum Event: String, Sendable {
        case started = "5b1c8a0e3f7d4e6a9c2b1d0f4a8e7c61"
        case stopped = "0d9e2f4a6b8c4d1e8f3a5b7c9d1e2f43"
        case refused = "a7f3c2e1d4b54a6f8e9d0c1b2a3f4e55"
        case configRejected = "3e8d7c6b5a4f4e3d9c2b1a0f9e8d7c66"
        case stateProblem = "c4b3a2f1e0d94c8b7a6f5e4d3c2b1a77"
        case idleExit = "f1e2d3c4b5a64f7e8d9c0b1a2f3e4d88"
    }

    nonisolated(unsafe) public static var verbose = false
    private static let prefixed = isatty(2) == 0
    private static let toJournal = stderrIsJournal()

    public static func error(_ message: String, event: Event? = nil, fields: [String: String] = [:]) {
        write(.error, message, event: event, fields: fields)
    }
    public static func warning(_ message: String, event: Event? = nil, fields: [String: String] = [:]) {
        write(.warning, message, event: event, fields: fields)
    }
    public static func notice(_ message: String, event: Event? = nil, fields: [String: String] = [:]) {
        write(.notice, message, event: event, fields: fields)
    }
    public static func info(_ message: String, event: Event? = nil, fields: [String: String] = [:]) {
        write(.info, message, event: event, fields: fields)
    }
    public static func debug(_ message: @autoclosure () -> String) {
        if verbose { write(.debug, message(), event: nil, fields: [:]) }
    }

    private static func write(_ level: Level, _ message: String, event: Event?, fields: [String: String]) {
        if toJournal {
            var entries = ["MESSAGE=" + message, "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=zaoan"]
            if let event { entries.append("MESSAGE_ID=" + event.rawValue) }
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) { entries.append(key + "=" + value) }
            if sendToJournal(entries) { return }
        }
        let line = (prefixed ? "<\(level.rawValue)>" : "") + "zaoan: " + message + "\n"
        _ = Posix.writeAll(2, line)
    }

    private static func sendToJournal(_ entries: [String]) -> Bool {
        let buffers = entries.map { Array($0.utf8) }
        var vectors: [iovec] = []
        var pointers: [UnsafeMutableRawPointer] = []
        defer { pointers.forEach { $0.deallocate() } }
        for bytes in buffers {
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            pointers.append(pointer)
            vectors.append(iovec(iov_base: pointer, iov_len: bytes.count))
        }
        return sd_journal_sendv(vectors, Int32(vectors.count)) >= 0
    }

    /// systemd sets JOURNAL_STREAM to "device:inode" of the stream it connected to stderr.
    /// The journal's socket must be there too: without it sd_journal_sendv reports success
    /// and drops the entry (a service with a private /run, for one).
    private static func stderrIsJournal() -> Bool {
        guard access("/run/systemd/journal/socket", F_OK) == 0 else { return false }
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var info = stat()
        guard parts.count == 2, fstat(2, &info) == 0,
              let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
