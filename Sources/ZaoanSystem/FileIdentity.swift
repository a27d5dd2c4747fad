import Glibc

/// What a file is now, as far as a reader that keeps what it read needs to know: the entry
/// itself (a symbolic link's own inode) and what it leads to, each by device, inode, size,
/// modification and change time. Any write, rename-over, `chmod`, `chown` or retargeted link
/// changes it. Taken before the file is read, so a change during the read shows as a change
/// next time.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    public let values: [Int64]

    /// The identity of `name` in the open folder `directory`; nil if it is not there.
    public init?(_ name: String, in directory: Int32) {
        var entry = stat(), target = stat()
        guard fstatat(directory, name, &entry, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        if fstatat(directory, name, &target, 0) != 0 { target = entry }  // a dangling link
        values = [entry, target].flatMap(Self.values)
    }

    /// Read back from `description`; nil if it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: ",").compactMap { Int64($0) }
        guard parts.count == 2 * Self.fieldsPerStat else { return nil }
        values = parts
    }

    public var description: String { values.map(String.init).joined(separator: ",") }

    private static let fieldsPerStat = 7

    static func values(_ info: stat) -> [Int64] {
        // Bit patterns, not values: a device or inode number at or past 2^63 (a FUSE file system
        // may say anything) must not trap.
        [Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size),
         Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
    }
}
