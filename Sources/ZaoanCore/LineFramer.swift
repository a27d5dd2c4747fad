#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Splits a byte stream into request lines: LF ends a line, a CR before it is dropped, and a
/// line may hold at most `maxLineLength` bytes. Bytes of a line that spans reads are kept in
/// `pending`; a chunk that holds whole lines is parsed in place without copying.
public struct LineFramer: Sendable {
    /// The longest request line, in bytes, not counting its CR LF.
    public static let maxLineLength = 4096

    public enum Frame {
        case line(UnsafeRawBufferPointer)
        /// The current line passed `maxLineLength`; the connection should answer and close.
        case tooLong
    }

    private var pending: [UInt8] = []
    /// Set once a line was too long: the stream has lost its framing and delivers nothing more.
    private var overflowed = false

    public init() {}

    /// Bytes of an unfinished line are waiting for the rest.
    public var hasPartialLine: Bool { !pending.isEmpty }

    /// Feeds a chunk; calls `onFrame` for each complete line. `onFrame` returns false to stop
    /// (the rest of the chunk is then dropped). After `.tooLong`, nothing more is delivered.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ onFrame: (Frame) -> Bool) {
        guard !overflowed else { return }
        var start = 0
        let count = chunk.count
        if !pending.isEmpty {
            guard let newline = Self.firstNewline(in: chunk, from: 0) else {
                pending.append(contentsOf: chunk)
                if Self.exceedsLimit(pending) {
                    pending.removeAll()
                overflowed = true
                _ = onFrame(.tooLong)
                }
                return
            }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<newline]))
            start = newline + 1
            let keepGoing = deliver(pendingLine: onFrame)
            guard keepGoing else { return }
        }
        while start < count {
            guard let newline = Self.firstNewline(in: chunk, from: start) else { break }
            let line = Self.trimCR(UnsafeRawBufferPointer(rebasing: chunk[start..<newline]))
            start = newline + 1
            if line.count > Self.maxLineLength {
                overflowed = true
                _ = onFrame(.tooLong)
                return
            }
            guard onFrame(.line(line)) else { return }
        }
        if start < count {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<count]))
            if Self.exceedsLimit(pending) {
                pending.removeAll()
                overflowed = true
                _ = onFrame(.tooLong)
            }
        }
    }

    /// At end of input an unterminated last line is still a request.
    public mutating func finish(_ onFrame: (Frame) -> Bool) {
        guard !pending.isEmpty, !overflowed else { return }
        _ = deliver(pendingLine: onFrame)
    }

    private mutating func deliver(pendingLine onFrame: (Frame) -> Bool) -> Bool {
        let line = pending
        pending.removeAll(keepingCapacity: true)
        return line.withUnsafeBytes { bytes in
            let trimmed = Self.trimCR(bytes)
            if trimmed.count > Self.maxLineLength {
                overflowed = true
                _ = onFrame(.tooLong)
                return false
            }
            return onFrame(.line(trimmed))
        }
    }

    private static func exceedsLimit(_ partial: [UInt8]) -> Bool {
        // An unfinished line of maxLineLength + 1 bytes may still be "...\r" awaiting its LF.
        if partial.count > maxLineLength + 1 { return true }
        return partial.count == maxLineLength + 1 && partial.last != UInt8(ascii: "\r")
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
