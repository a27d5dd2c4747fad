import Glibc

/// Reading the files zaoan trusts least — its config and its state — without letting them
/// block, exhaust memory or lead it somewhere else. The service (config, state) and
/// `zaoan bar` (the config's bar keys) read through here.
public enum RegularFile {
    public enum ReadFailure: Error, Sendable {
        case missing
        /// A FIFO, a device, a directory: refused without opening it for long or reading it.
        case notRegular(kind: String)
        case tooLarge(bytes: Int)
        /// Someone other than the service's user and root could have written it (`FileTrust`):
        /// what it is and why, e.g. "a file owned by uid 65534 (...)".
        case untrusted(String)
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
    ///   - trust: when given, a file another account could have written is refused
    ///     (`.untrusted`), checked on the open file before anything is read.
    public static func read(_ name: String, in directory: Int32 = AT_FDCWD, limit: Int,
                            followLinks: Bool = true, trust: FileTrust? = nil) throws(ReadFailure) -> [UInt8] {
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW)
        let file = try open(name, in: directory, flags: flags, followLinks: followLinks)
        let info: stat
        do throws(SystemError) { info = try file.status("checking \(name)") } catch { throw .system(error) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(kind: kind(of: info.st_mode)) }
        if let trust, let why = trust.problem(info) { throw .untrusted("a file \(why)") }
        guard info.st_size <= limit else { throw .tooLarge(bytes: Int(info.st_size)) }
        // Sized from fstat (plus one byte to notice growth), not from the limit: a 200-byte
        // config costs a 201-byte buffer, not a megabyte.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var total = 0
        while total <= limit {
            if total == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - total))) }
            let read = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[total...]), "reading \(name)") }
            }
            let count: Int
            do throws(SystemError) { count = try read.get() } catch { throw .system(error) }
            if count == 0 { break }
            total += count
        }
        guard total <= limit else { throw .tooLarge(bytes: total) }
        bytes.removeSubrange(total...)
        return bytes
    }

    private static func open(_ name: String, in directory: Int32, flags: Int32, followLinks: Bool) throws(ReadFailure) -> Descriptor {
        do throws(SystemError) {
            return try Descriptor.open(name, in: directory, flags, "opening \(name)")
        } catch {
            if error.errno == ENOENT { throw .missing }
            if error.errno == ELOOP && !followLinks { throw .notRegular(kind: "symbolic link") }
            throw .system(error)
        }
    }

    public static func kind(of mode: mode_t) -> String {
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
}
