import Foundation
import Glibc

/// Reading the files zaoan trusts least — its config and its state — without letting them
/// block the loop, exhaust memory or lead it somewhere else.
enum Files {
    enum ReadFailure: Error {
        case missing
        /// A FIFO, a device, a directory: refused without opening it for long or reading it.
        case notRegular(kind: String)
        case tooLarge(bytes: Int)
        case system(SystemError)
    }

    /// The bytes of a regular file of at most `limit` bytes.
    ///
    /// Opened non-blocking (a FIFO's open would otherwise wait for a writer), checked with
    /// fstat before anything is read, and read to at most `limit + 1` bytes, so a file that
    /// grows (or a sparse 1 GiB file) costs no more than the limit.
    /// - Parameters:
    ///   - directory: a directory descriptor for `name`, or `AT_FDCWD`.
    ///   - followLinks: false refuses a symbolic link as the last component (`O_NOFOLLOW`).
    static func readRegular(_ name: String, in directory: Int32 = AT_FDCWD, limit: Int, followLinks: Bool = true) throws(ReadFailure) -> Data {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW)
        let fd = openat(directory, name, flags)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            if errno == ELOOP && !followLinks { throw .notRegular(kind: "symbolic link") }
            throw .system(SystemError(errno: errno, "opening \(name)"))
        }
        defer { Posix.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(SystemError(errno: errno, "checking \(name)")) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(kind: kind(of: info.st_mode)) }
        guard info.st_size <= limit else { throw .tooLarge(bytes: Int(info.st_size)) }
        var bytes = Data(count: limit + 1)
        var total = 0
        while total <= limit {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, limit + 1 - total) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(SystemError(errno: errno, "reading \(name)"))
            }
            total += count
        }
        guard total <= limit else { throw .tooLarge(bytes: total) }
        return bytes.prefix(total)
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "directory"
        case S_IFIFO: return "FIFO"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFSOCK: return "socket"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }

    /// Random hex digits from the kernel (getrandom, through the standard library's
    /// generator): a name another user cannot predict.
    static func randomHex(bytes count: Int = 8) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte: UInt8 = generator.next()
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
