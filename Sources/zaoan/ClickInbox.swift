import Glibc
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

/// A `zaoan watch`'s end of the click channel (`ClickChannel`): its FIFO, made under a
/// temporary name, opened, checked and only then renamed into place, so `zaoan click` never
/// finds it before someone reads it (and never takes a FIFO being set up for one left
/// behind); removed when the watch exits (`exit` runs the handler; a watch killed outright
/// leaves it, and the next click removes it). Opened for reading and writing, so it never
/// reads as ended while no click is being written, and non-blocking.
final class ClickInbox {
    private let fifo: Descriptor
    private var framer = LineFramer(lineLimit: ClickChannel.maxLine)

    var fd: Int32 { fifo.rawValue }

    /// The FIFO to remove at exit: the checked folder (kept open) and the FIFO's name in it.
    nonisolated(unsafe) private static var registered: (folder: Int32, name: String)?

    private init(fifo: consuming Descriptor) {
        self.fifo = fifo
    }

    /// Makes `block`'s FIFO for this process in the user's click folder; nil when the user
    /// has no runtime folder.
    static func open(block: String, environment: [String: String]) throws(SystemError) -> ClickInbox? {
        guard let path = ClickChannel.folderPath(environment: environment) else { return nil }
        let folder = try ClickChannel.openFolder(path, create: true)
        let pid = getpid()
        let name = ClickChannel.fileName(block: block, pid: pid)
        let temporary = ".new-\(pid)"
        unlinkat(folder.rawValue, temporary, 0)  // one left by an earlier process of this pid; none is fine
        _ = try syscall("making the click FIFO \(path)/\(temporary)") { mkfifoat(folder.rawValue, temporary, 0o600) }  // only its 0 is dropped; a failure throws
        let fifo: Descriptor
        do throws(SystemError) {
            fifo = try checkedFIFO(temporary, renamedTo: name, in: folder, path: path)
        } catch {
            unlinkat(folder.rawValue, temporary, 0)  // if it is there, it is ours; if not, nothing to undo
            throw error
        }
        registered = (folder.release(), name)
        atexit {
            guard let (folder, name) = ClickInbox.registered else { return }
            unlinkat(folder, name, 0)  // gone already (removed by hand): nothing to undo
        }
        return ClickInbox(fifo: fifo)
    }

    /// Opens the FIFO just made, checks it is one of the user's, and gives it its name.
    private static func checkedFIFO(_ temporary: String, renamedTo name: String, in folder: borrowing Descriptor,
                                    path: String) throws(SystemError) -> Descriptor {
        let fifo = try Descriptor.open(temporary, in: folder.rawValue, O_RDWR | O_NONBLOCK | O_NOFOLLOW, "opening the click FIFO \(path)/\(temporary)")
        guard ClickChannel.isOwnFIFO(try fifo.status("checking the click FIFO")) else {
            throw SystemError(errno: EPERM, "\(path)/\(temporary) is not the FIFO just made")
        }
        _ = try syscall("naming the click FIFO \(path)/\(name)") { renameat(folder.rawValue, temporary, folder.rawValue, name) }  // only its 0 is dropped; a failure throws
        return fifo
    }

    /// The action words waiting, in order; an over-long line is dropped with the rest of
    /// the read it came in (a click writes one short line at a time).
    func read() -> [String] {
        var words: [String] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        // At most 16 KiB a turn: a flood of clicks is taken in the next turns, the watch's
        // own answers go out between them.
        for _ in 0..<16 {
            // A failed read of our own FIFO (EAGAIN: drained) ends this turn's reading.
            let result = try? chunk.withUnsafeMutableBytes { (raw) throws(SystemError) in
                try nonBlockingSyscall("reading the click FIFO") { Glibc.read(fifo.rawValue, raw.baseAddress, raw.count) }
            }
            guard case .value(let count)? = result, count > 0 else { break }
            var overflowed = false
            chunk.withUnsafeBytes { raw in
                framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { frame in
                    switch frame {
                    case .line(let bytes): words.append(String(decoding: bytes, as: UTF8.self))
                    case .tooLong: overflowed = true
                    }
                    return true
                }
            }
            if overflowed {
                // Not a click: the rest of this read goes with it; the next read starts afresh.
                printError("ignoring a line longer than \(ClickChannel.maxLine) bytes from the click channel")
                framer = LineFramer(lineLimit: ClickChannel.maxLine)
            }
        }
        return words
    }
}
