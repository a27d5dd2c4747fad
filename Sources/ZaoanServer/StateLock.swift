import Glibc

/// One service per state directory: an exclusive `flock` on `state.lock` beside
/// `state.json`, held for the life of the process. Two services saving the same rooms would
/// each overwrite the other's file, and a room one of them acknowledged would vanish.
///
/// The lock file is opened relative to the state directory `StateStore` has checked
/// (ours, written by no one else), with `O_NOFOLLOW`, so no one can point it elsewhere. The
/// holder writes its pid and socket into it, for the refusal message of the next one. The
/// kernel drops the lock when the process ends, however it ends: there is no stale lock.
final class StateLock {
    static let fileName = "state.lock"
    /// Held open, and so locked, for the life of the service.
    private let file: Descriptor
    private var fd: Int32 { file.rawValue }
    let directory: String

    /// Another zaoan holds the lock: what it wrote about itself.
    struct Holder: Sendable, CustomStringConvertible {
        let directory: String
        let pid: pid_t?
        let socket: String?

        /// "another zaoan (pid 1234, serving on /run/user/1000/zaoan.sock)"
        var description: String {
            var parts = [pid.map { "pid \($0)" } ?? "pid not yet written"]
            if let socket { parts.append("serving on \(socket)") }
            return "another zaoan (\(parts.joined(separator: ", ")))"
        }
    }

    enum Outcome {
        case locked(StateLock)
        case heldBy(Holder)
    }

    private init(file: consuming Descriptor, directory: String) {
        self.file = file
        self.directory = directory
    }

    /// Takes the lock without waiting, in the open and checked state directory.
    /// - Throws: when the lock file cannot be opened or locked for another reason than
    ///   another process holding it.
    static func take(in directoryFD: Int32, directory: String) throws(SystemError) -> Outcome {
        let path = directory + "/" + fileName
        let file = try openLockFile(in: directoryFD, path: path)
        // fstat failing on a descriptor just opened: refused as "not a regular file" too.
        guard let info = try? file.status("checking \(path)"), (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError(errno: EINVAL, "\(path) is not a regular file; remove it (zaoan makes the lock file itself)")
        }
        do throws(SystemError) {
            _ = try syscall("locking \(path)") { flock(file.rawValue, LOCK_EX | LOCK_NB) }  // 0 on success; errors throw
        } catch where error.errno == EWOULDBLOCK {
            return .heldBy(holder(readingFrom: file.rawValue, directory: directory))  // closed on return
        }
        let lock = StateLock(file: file, directory: directory)
        lock.record(socket: nil)
        return .locked(lock)
    }

    private static func openLockFile(in directoryFD: Int32, path: String) throws(SystemError) -> Descriptor {
        do throws(SystemError) {
            return try Descriptor.open(fileName, in: directoryFD, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0o600,
                                       "opening the lock file \(path)")
        } catch where error.errno == ELOOP {
            throw SystemError(errno: ELOOP, "\(path) is a symbolic link; remove it (zaoan makes the lock file itself)")
        }
    }

    /// Whether the lock is free now (its holder stopped): taken for a moment and let go, for
    /// a refusing instance that only needs to know when to stop refusing.
    static func isFree(in directory: String) -> Bool {
        let file: Descriptor
        do throws(SystemError) {
            file = try Descriptor.open(directory + "/" + fileName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, "opening the lock file")
        } catch {
            return error.errno == ENOENT
        }
        return flock(file.rawValue, LOCK_EX | LOCK_NB) == 0  // closing `file` releases it at once if it was taken
    }

    /// Writes `pid N` and, once it is known, `socket PATH` into the lock file.
    ///
    /// Written over what the last holder left, not after truncating the file: cutting a file
    /// whose data is not on disk yet makes ext4 (data=ordered) write that data out there and
    /// then, which cost a cold start 0.4–0.7 ms (strace -T). What the last holder wrote beyond
    /// the new text is blanked with newlines, which `holder` skips, so a reader never sees
    /// an old line; the file is cut only where it is longer than `holder` reads.
    func record(socket: String?) {
        var text = "pid \(getpid())\n"
        if let socket { text += "socket \(socket.filter { $0 != "\n" })\n" }
        var bytes = Array(text.utf8)
        var status = stat()
        let before = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        if before > bytes.count && before <= Self.readLimit { bytes += repeatElement(0x0A, count: before - bytes.count) }
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else {
            Log.warning("cannot write the pid into \(directory)/\(Self.fileName): \(syscallFailure("pwrite")); a second zaoan will still be refused, without naming this one")
            return
        }
        if before > bytes.count && ftruncate(fd, off_t(bytes.count)) != 0 {
            Log.warning("cannot write the pid into \(directory)/\(Self.fileName): \(syscallFailure("ftruncate")); a second zaoan will still be refused, without naming this one")
        }
    }

    /// How much of the lock file `holder` reads.
    private static let readLimit = 4096

    /// What the holder wrote; it may not have written yet (it writes right after locking).
    private static func holder(readingFrom fd: Int32, directory: String) -> Holder {
        var buffer = [UInt8](repeating: 0, count: readLimit)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        var pid: pid_t?
        var socket: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("pid ") { pid = pid_t(line.dropFirst(4)) }
            if line.hasPrefix("socket ") {
                // Visible characters only: it goes into a log line and a client's answer.
                socket = String(line.dropFirst(7).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300))
            }
        }
        return Holder(directory: directory, pid: pid, socket: socket)
    }
}
