import CSystemd
import Glibc

/// Where plain log lines go (stderr), written without ever blocking the loop.
///
/// stderr may be a pipe nobody reads, a pipe whose reader is gone, a terminal on hold or the
/// journal's stream socket. A line that cannot be written at once is dropped and counted,
/// and the next line that can be written is preceded by one saying how many were lost.
/// SIGPIPE is ignored process-wide (`Log.ignoreBrokenPipes`), so a gone reader is an EPIPE.
///
/// - socket: `send` with `MSG_DONTWAIT`.
/// - pipe: `poll` for room, then one `write` of at most `PIPE_BUF` bytes, which a pipe
///   takes whole or not at all.
/// - terminal: the same, through a non-blocking description of its own (reopened through
///   /proc/self/fd/2), leaving the shell's terminal settings alone.
/// The end of a line that was only partly taken (a socket, a terminal) is kept — one line at
/// most — and goes out before anything else, so lines are never torn or interleaved.
/// - a regular file or anything else: plain writes (they do not block for long).
struct LogSink: ~Copyable {
    private enum Kind { case socket, pipe, plain }

    /// The descriptor written to: the one given (stderr, not ours to close), or `reopened`.
    private let fd: Int32
    /// A terminal's own non-blocking description, owned here.
    private let reopened: Descriptor?
    private let kind: Kind
    /// The end of a line a socket took only part of.
    private var unsent: [UInt8] = []
    /// Lines dropped in all, and since the last line that got through.
    private(set) var dropped = 0
    private var droppedUnreported = 0

    /// The longest line written; longer ones are cut (a pipe writes ≤ PIPE_BUF atomically).
    static let maxLine = 4000

    init(fd given: Int32) {
        var info = stat()
        let type = fstat(given, &info) == 0 ? info.st_mode & S_IFMT : 0
        // A terminal is written through a non-blocking description of its own (where /proc
        // cannot give one, through the shared one).
        var number = given
        var own: Descriptor? = nil
        if type == S_IFCHR, let opened = try? Descriptor.open("/proc/self/fd/\(given)", O_WRONLY | O_NONBLOCK | O_NOCTTY, "reopening stderr") {
            number = opened.rawValue
            own = consume opened
        }
        fd = number
        reopened = own
        switch type {
        case S_IFSOCK: kind = .socket
        case S_IFIFO, S_IFCHR: kind = .pipe  // poll for room, then write
        default: kind = .plain
        }
    }

    mutating func write(_ line: String) {
        guard flushUnsent() else {
            drop()
            return
        }
        if droppedUnreported > 0 {
            let note = "zaoan: \(droppedUnreported) log line(s) dropped: stderr was not being read\n"
            guard put(Array(note.utf8)) else {
                drop()
                return
            }
            droppedUnreported = 0
        }
        var bytes = Array(line.utf8)
        if bytes.count > Self.maxLine {
            bytes = Array(bytes.prefix(Self.maxLine - 4)) + Array("…\n".utf8)
        }
        if !put(bytes) { drop() }
    }

    private mutating func drop() {
        dropped += 1
        droppedUnreported += 1
    }

    /// Writes the rest of a partly written line. Returns whether nothing is left.
    private mutating func flushUnsent() -> Bool {
        guard !unsent.isEmpty else { return true }
        let written = rawWrite(unsent)
        if written > 0 { unsent.removeFirst(written) }
        return unsent.isEmpty
    }

    /// Writes a whole line now or not at all; the end of a partly written one is kept.
    private mutating func put(_ bytes: [UInt8]) -> Bool {
        let written = rawWrite(bytes)
        guard written > 0 else { return false }
        if written < bytes.count { unsent = Array(bytes[written...]) }
        return true
    }

    /// One attempt that cannot block. Returns bytes written, or 0/-1 when none was.
    private func rawWrite(_ bytes: [UInt8]) -> Int {
        switch kind {
        case .socket:
            return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        case .pipe:
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, 0) == 1, entry.revents & Int16(POLLOUT) != 0 else { return 0 }
            return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        case .plain:
            return bytes.withUnsafeBytes { Posix.writeAll(fd, $0) } ? bytes.count : -1
        }
    }
}
