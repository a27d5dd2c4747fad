import CLinux
import CSystemd
import Glibc
import ZaoanCore

/// Answers waiting to be written to one client, the way Redis keeps them
/// (`networking.c`): small answers are copied into blocks of up to 16 KiB (the first one
/// only as large as it needs to be: a watcher of a 40-byte countdown holds 1 KiB, not
/// 16), large ones are kept by reference (a rendered `live list` shared by every client that asked for it in that
/// second), and each piece is freed as soon as it is written. Memory follows what is unread,
/// not what was ever sent: a client that reads slowly but steadily holds a few blocks.
///
/// How much may wait is the channel's business (`Channel.Limits`, `OutputLimits`); this
/// type only counts it exactly.
struct OutputQueue {
    static let blockSize = 16 * 1024
    static let smallestBlock = 1024

    private final class Block {
        let storage: UnsafeMutableRawBufferPointer
        var start = 0
        var end = 0
        init(capacity: Int) { storage = .allocate(byteCount: capacity, alignment: 16) }
        deinit { storage.deallocate() }
        var free: Int { storage.count - end }
    }

    private enum Piece {
        case block(Block)
        /// An answer of at least a block, written from its own bytes; `offset` is how much of
        /// it is already out.
        case shared(bytes: [UInt8], offset: Int)
    }

    private var pieces: [Piece] = []
    /// Pieces before this index are written and released.
    private var head = 0
    /// A drained block kept for the next answer, so a busy connection does not allocate one
    /// per request.
    private var spare: Block?
    /// Bytes waiting.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Bytes the queue keeps alive: what waits, and the written part of a large answer being
    /// written, which is kept whole until its last byte is (what an account is charged).
    var retained: Int {
        guard head < pieces.count, case .shared(_, let offset) = pieces[head] else { return count }
        return count + offset
    }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if bytes.count >= Self.blockSize {
            count += bytes.count
            pieces.append(.shared(bytes: bytes, offset: 0))
            return
        }
        bytes.withUnsafeBytes { append(copying: $0) }
    }

    /// Copies `source` into blocks.
    mutating func append(copying source: UnsafeRawBufferPointer) {
        count += source.count
        var copied = 0
        while copied < source.count {
            let block = writableTail(needed: source.count - copied)
            let length = min(block.free, source.count - copied)
            (block.storage.baseAddress! + block.end).copyMemory(from: source.baseAddress! + copied, byteCount: length)
            block.end += length
            copied += length
        }
    }

    /// The last block if it has room, else the spare one or a new one — a small one when the
    /// queue is empty (most answers are a line), else a full block.
    private mutating func writableTail(needed: Int) -> Block {
        if head < pieces.count, case .block(let last) = pieces[pieces.count - 1], last.free > 0 {
            return last
        }
        let block: Block
        if let spare, spare.storage.count >= min(needed, Self.blockSize) || head < pieces.count {
            block = spare
        } else {
            let wanted = head < pieces.count ? Self.blockSize : min(Self.blockSize, max(Self.smallestBlock, needed))
            block = Block(capacity: wanted)
        }
        spare = nil
        block.start = 0
        block.end = 0
        pieces.append(.block(block))
        return block
    }

    /// Sends at most `budget` bytes with one `sendmsg` (the caller then serves others and
    /// comes back on the next writable event).
    /// - Returns: bytes sent, or -1 with errno set (EAGAIN when the socket is full).
    mutating func send(to fd: Int32, budget: Int) -> Int {
        if head == pieces.count - 1, case .block(let block) = pieces[head] {
            // The usual case, one block of answers: a plain send, no vector to build.
            let waiting = block.end - block.start
            let sent = zaoan_send(fd, block.storage.baseAddress! + block.start, min(waiting, budget),
                                  Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent == waiting {
                // All of it: the block becomes the spare, as `consume` would leave it.
                count -= sent
                if spare == nil { spare = block }
                pieces.removeAll(keepingCapacity: true)
                head = 0
            } else if sent > 0 {
                consume(sent)
            }
            return sent
        }
        var vectors: [iovec] = []
        vectors.reserveCapacity(8)
        var planned = 0
        var index = head
        while index < pieces.count, planned < budget, vectors.count < 16 {
            switch pieces[index] {
            case .block(let block):
                let length = min(block.end - block.start, budget - planned)
                vectors.append(iovec(iov_base: block.storage.baseAddress! + block.start, iov_len: length))
                planned += length
            case .shared(let bytes, let offset):
                let length = min(bytes.count - offset, budget - planned)
                // The array is kept alive by `pieces` until after the call.
                let base = bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
                vectors.append(iovec(iov_base: base + offset, iov_len: length))
                planned += length
            }
            index += 1
        }
        guard planned > 0 else { return 0 }
        let sent = vectors.withUnsafeMutableBufferPointer { buffer -> Int in
            var message = msghdr()
            message.msg_iov = buffer.baseAddress
            message.msg_iovlen = buffer.count
            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if sent > 0 { consume(sent) }
        return sent
    }

    /// Drops `written` bytes from the front, releasing every piece that is done.
    private mutating func consume(_ written: Int) {
        count -= written
        var left = written
        while left > 0, head < pieces.count {
            switch pieces[head] {
            case .block(let block):
                let available = block.end - block.start
                if left < available {
                    block.start += left
                    return
                }
                left -= available
                if spare == nil { spare = block }
            case .shared(let bytes, let offset):
                let available = bytes.count - offset
                if left < available {
                    pieces[head] = .shared(bytes: bytes, offset: offset + left)
                    return
                }
                left -= available
            }
            pieces[head] = .shared(bytes: [], offset: 0)  // release it now, not at compaction
            head += 1
        }
        if head == pieces.count {
            pieces.removeAll(keepingCapacity: pieces.count <= 64)
            head = 0
        } else if head >= 32 {
            pieces.removeFirst(head)
            head = 0
        }
    }
}
