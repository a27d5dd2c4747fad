import CSystemd
import Glibc
import Synchronization

/// Logging. Quiet by default: one line at start, one at stop, one per error; per-request
/// lines only with --verbose (debug).
///
/// When stderr is the journal (JOURNAL_STREAM names it), entries go to journald's socket
/// with structured fields — priority, a stable MESSAGE_ID per kind of
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

    /// Whether debug lines are written (`--verbose`): set at start, read on every request.
    /// An atomic constant, where a global `var` would be checked for exclusive access at
    /// run time on every read.
    public static var verbose: Bool {
        get { debugging.load(ordering: .relaxed) }
        set { debugging.store(newValue, ordering: .relaxed) }
    }
    private static let debugging = Atomic(false)
    private static let prefixed = isatty(2) == 0
    private static let toJournal = stderrIsJournal()
    /// Written from the loop's thread only (the service is one thread).
    nonisolated(unsafe) private static var sink = LogSink(fd: 2)

    /// Ignores SIGPIPE for the process, before anything is logged: a log write to a reader
    /// that is gone then fails with EPIPE (and is dropped) instead of killing the service.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// `1 request`, `2 requests`: a count with its noun, for log lines.
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Lines that could not be written without blocking and were dropped.
    public static var droppedLines: Int { sink.dropped + journal.dropped }

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
        sink.write((prefixed ? "<\(level.rawValue)>" : "") + "zaoan: " + message + "\n")
    }

    /// Sends one entry in the journal's native protocol (`KEY=value` lines; a value holding
    /// a line break as `KEY`, LF, its length as 64-bit little-endian, the bytes, LF) on a
    /// non-blocking datagram socket of our own: when journald falls behind, the entry is
    /// dropped and counted instead of stopping the loop (libsystemd's sd_journal_sendv
    /// would block).
    private static func sendToJournal(_ entries: [String]) -> Bool {
        var datagram: [UInt8] = []
        for entry in entries {
            let bytes = Array(entry.utf8.prefix(LogSink.maxLine))
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            if bytes.contains(0x0A) {
                datagram += bytes[..<equals]
                datagram.append(0x0A)
                let value = bytes[(equals + 1)...]
                withUnsafeBytes(of: UInt64(value.count).littleEndian) { datagram += $0 }
                datagram += value
            } else {
                datagram += bytes
            }
            datagram.append(0x0A)
        }
        return journal.send(datagram)
    }

    nonisolated(unsafe) private static var journal = JournalSocket()

    /// systemd sets JOURNAL_STREAM to "device:inode" of the stream it connected to stderr.
    /// The journal's socket must be there too (a service with a private /run has none);
    /// if sending to it fails later, lines go to stderr.
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

/// A datagram socket to journald, never blocking.
private struct JournalSocket: ~Copyable {
    /// A fixed path well under the 108-byte limit: building the address cannot fail.
    private static let address = try? UnixAddress(path: "/run/systemd/journal/socket")
    /// Opened with the first entry.
    private var socket: Descriptor?
    private(set) var dropped = 0

    /// Returns false when journald cannot be reached (the caller writes to stderr instead);
    /// true when the entry was sent or dropped because journald is behind.
    mutating func send(_ datagram: [UInt8]) -> Bool {
        if socket == nil {
            // No socket (no descriptor left): this entry goes to stderr, the next one tries again.
            guard let opened = try? syscall("opening the journal's socket", {
                Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            }) else { return false }
            socket = Descriptor(taking: opened)
        }
        guard let address = Self.address, let fd = socket?.rawValue else { return false }
        let sent = datagram.withUnsafeBytes { bytes in
            address.withSockaddr { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, $1) }
        }
        if sent >= 0 { return true }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS {
            dropped += 1
            return true
        }
        return false
    }
}
