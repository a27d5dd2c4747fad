import Glibc

/// A regular file mapped read-only into memory, unmapped when the value ends: data zaoan
/// ships beside its binary and searches in place (the gazetteer), so only the pages a
/// lookup touches are read, and they stay in the page cache the kernel shares and can drop.
///
/// Opened as `RegularFile.read` opens (non-blocking, `O_NOFOLLOW`, close-on-exec), checked
/// with fstat before it is mapped: a regular file, of at most `limit` bytes, that no one but
/// the service's user and root could have written (`FileTrust`). The mapping is private: a
/// later write to the file by its owner may show through, which readers of the bytes must
/// survive as they survive any damaged file (bounds checked, never trusted).
public final class MappedFile: @unchecked Sendable {
    // Unchecked: the memory is never written through this value and is unmapped only in
    // deinit, when no one can hold it any more.
    public let bytes: UnsafeRawBufferPointer

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Maps `name` in `directory` (a folder the caller opened with `TrustedPath`).
    /// - Throws: `RegularFile.ReadFailure`, as `RegularFile.read` would for the same file.
    public static func map(_ name: String, in directory: Int32, limit: Int, trust: FileTrust) throws(RegularFile.ReadFailure) -> MappedFile {
        let file: Descriptor
        do throws(SystemError) {
            file = try Descriptor.open(name, in: directory, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW, "opening \(name)")
        } catch {
            if error.errno == ENOENT { throw .missing }
            if error.errno == ELOOP { throw .notRegular(kind: "symbolic link") }
            throw .system(error)
        }
        let info: stat
        do throws(SystemError) { info = try file.status("checking \(name)") } catch { throw .system(error) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(kind: RegularFile.kind(of: info.st_mode)) }
        if let why = trust.problem(info) { throw .untrusted("a file \(why)") }
        guard info.st_size <= limit else { throw .tooLarge(bytes: Int(info.st_size)) }
        let size = Int(info.st_size)
        guard size > 0 else { return MappedFile(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0), base != MAP_FAILED else {
            throw .system(SystemError(errno: errno, "mapping \(name)"))
        }
        return MappedFile(bytes: UnsafeRawBufferPointer(start: base, count: size))
    }
}
