import Glibc

/// Splits a byte stream into lines: LF ends a line, a CR before it is dropped, and a line may
/// hold at most `lineLimit` bytes. A chunk that holds whole lines is parsed in place without
/// copying; what is left — the start of the next line, or lines the consumer did not take
/// because it stopped — is kept for `resume` and the next `feed`.
///
/// The one framer: the service's requests (`maxLineLength`), the clients' answers and watch
/// streams, the bar's click events and the bench's replies, each with its own limit.
public struct LineFramer: Sendable {
    /// The longest request line, in bytes, not counting its CR LF: the service's limit.
    public static let maxLineLength = 4096

    /// The longest line this framer delivers, in bytes, not counting its CR LF.
    public let lineLimit: Int

    public enum Frame {
        case line(UnsafeRawBufferPointer)
        /// The current line passed `lineLimit`; the connection should answer and close.
        case tooLong
    }

    private var buffered: [UInt8] = []
    /// Set once a line was too long: the stream has lost its framing and delivers nothing more.
    private var overflowed = false

    public init(lineLimit: Int = LineFramer.maxLineLength) {
        self.lineLimit = max(1, lineLimit)
    }

    /// Bytes are waiting: an unfinished line, or lines not yet taken.
    public var hasBufferedInput: Bool { !buffered.isEmpty }
    /// A whole line waits to be taken (`resume` would deliver one).
    public var hasCompleteLine: Bool { buffered.contains(0x0A) }

    /// Feeds a chunk; calls `onFrame` for each complete line. `onFrame` returns false to stop
    /// taking lines (backpressure, or closing); the rest is kept for `resume`. Before each
    /// further line of the same call, `mayTakeAnother` is asked, and false stops there too,
    /// the line untaken (the service's turn budget: asked only when a line is waiting). After
    /// `.tooLong`, nothing more is delivered.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ onFrame: (Frame) -> Bool,
                              mayTakeAnother: () -> Bool = { true }) {
        guard !overflowed else { return }
        guard buffered.isEmpty else {
            buffered.append(contentsOf: chunk)
            resume(onFrame, mayTakeAnother: mayTakeAnother)
            return
        }
        let scan = Self.scan(chunk, limit: lineLimit, onFrame, mayTakeAnother)
        if scan.overflow {
            overflow(onFrame)
            return
        }
        // A read of whole lines leaves nothing: no append, which would still go through the
        // array's growth path.
        guard scan.consumed < chunk.count else { return }
        buffered.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[scan.consumed...]))
        if !scan.stopped && exceedsLimit(buffered) { overflow(onFrame) }
    }

    /// Delivers lines kept from earlier feeds, e.g. once the consumer has room again.
    public mutating func resume(_ onFrame: (Frame) -> Bool, mayTakeAnother: () -> Bool = { true }) {
        guard !overflowed, !buffered.isEmpty else { return }
        let data = buffered
        let scan = data.withUnsafeBytes { Self.scan($0, limit: lineLimit, onFrame, mayTakeAnother) }
        buffered.removeFirst(scan.consumed)
        if scan.overflow || (!scan.stopped && exceedsLimit(buffered)) { overflow(onFrame) }
    }

    /// At end of input an unterminated last line is still a request. Call it once every
    /// complete line has been taken.
    public mutating func finish(_ onFrame: (Frame) -> Bool, mayTakeAnother: () -> Bool = { true }) {
        let waiting = buffered.count
        resume(onFrame, mayTakeAnother: mayTakeAnother)
        guard !overflowed, !buffered.isEmpty, !buffered.contains(0x0A) else { return }
        // After lines taken just now, the last one is a further line too.
        if buffered.count < waiting && !mayTakeAnother() { return }
        let line = buffered
        buffered.removeAll()
        line.withUnsafeBytes { bytes in
            let trimmed = Self.trimCR(bytes)
            if trimmed.count > lineLimit {
                overflowed = true
                _ = onFrame(.tooLong)
            } else {
                _ = onFrame(.line(trimmed))
            }
        }
    }

    private mutating func overflow(_ onFrame: (Frame) -> Bool) {
        buffered.removeAll()
        overflowed = true
        _ = onFrame(.tooLong)
    }

    /// Delivers the complete lines of `bytes` until `onFrame` or `mayTakeAnother` says stop or
    /// a line is too long.
    /// - Returns: how many bytes were taken, and why it ended.
    private static func scan(_ bytes: UnsafeRawBufferPointer, limit: Int, _ onFrame: (Frame) -> Bool,
                             _ mayTakeAnother: () -> Bool) -> (consumed: Int, stopped: Bool, overflow: Bool) {
        var start = 0
        while start < bytes.count, let newline = firstNewline(in: bytes, from: start) {
            if start > 0 && !mayTakeAnother() { return (start, true, false) }
            let line = trimCR(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
            if line.count > limit { return (start, true, true) }
            start = newline + 1
            if !onFrame(.line(line)) { return (start, true, false) }
        }
        return (start, false, false)
    }

    private func exceedsLimit(_ partial: [UInt8]) -> Bool {
        // An unfinished line of lineLimit + 1 bytes may still be "...\r" awaiting its LF.
        if partial.count > lineLimit + 1 { return true }
        return partial.count == lineLimit + 1 && partial.last != UInt8(ascii: "\r")
    }

    private static func firstNewline(in chunk: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < chunk.count, let base = chunk.baseAddress,
              let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    private static func trimCR(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if let last = line.last, last == UInt8(ascii: "\r") {
            return UnsafeRawBufferPointer(rebasing: line[0..<(line.count - 1)])
        }
        return line
    }
}
