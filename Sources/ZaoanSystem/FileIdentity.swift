import Glibc

/// What a file is now, as far as a reader that keeps what it read needs to know: the entry
/// itself (a symbolic link's own inode) and what it leads to, each by device, inode, size,
/// modification and change time (seconds and nanoseconds). A write, rename-over, `chmod`,
/// `chown` or retargeted link changes it, unless it comes within the file system's
/// timestamp granularity of the last change (`mayHideChanges`: such a file is read again).
/// Taken before the file is read, so a change during the read shows as a change next time.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    public let values: [Int64]

    /// The identity of `name` in the open folder `directory`; nil if it is not there.
    public init?(_ name: String, in directory: Int32) {
        guard let taken = Self.taken(name, in: directory) else { return nil }
        self = taken.identity
    }

    /// The identity of `name` in `directory`, with the two `stat`s it is made of: the entry
    /// itself and what it leads to (the entry again for a dangling link); nil if it is not there.
    public static func taken(_ name: String, in directory: Int32) -> (identity: FileIdentity, entry: stat, target: stat)? {
        var entry = stat(), target = stat()
        guard fstatat(directory, name, &entry, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        if fstatat(directory, name, &target, 0) != 0 { target = entry }  // a dangling link
        return (FileIdentity(values: [entry, target].flatMap(Self.values)), entry, target)
    }

    private init(values: [Int64]) {
        self.values = values
    }

    /// Read back from `description`; nil if it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: ",").compactMap { Int64($0) }
        guard parts.count == 2 * Self.fieldsPerStat else { return nil }
        values = parts
    }

    public var description: String { values.map(String.init).joined(separator: ",") }

    /// Whether a change made after `moment` (wall-clock seconds, taken before this identity)
    /// could leave the identity as it is. A file system stamps a write with the kernel's
    /// clock cut to its granularity: whole seconds on some (ext4 with 128-byte inodes, FAT,
    /// many network and FUSE file systems), a clock tick of a few milliseconds on the others,
    /// a tick that may lag the clock `moment` was read from. A rewrite of the same size, in
    /// place, within that granularity of the last change leaves device, inode, size and both
    /// times as they were. So an identity whose latest time (modification or status change,
    /// of the entry or its target) falls in the second before `moment` or later proves
    /// nothing: the reader must look at the file again next time. A time in the future
    /// (a clock set back, `touch -d`) counts as recent, for as long as it stays ahead.
    public func mayHideChanges(after moment: Int64) -> Bool {
        let latest = Self.changeTimes.map { values[$0] }.max() ?? .max
        let (secondBefore, overflow) = moment.subtractingReportingOverflow(1)
        return overflow || latest >= secondBefore
    }

    /// The positions of the seconds of the modification and status-change times, of the
    /// entry and of its target, in `values`.
    private static let changeTimes = [3, 5, fieldsPerStat + 3, fieldsPerStat + 5]

    private static let fieldsPerStat = 7

    static func values(_ info: stat) -> [Int64] {
        // Bit patterns, not values: a device or inode number at or past 2^63 (a FUSE file system
        // may say anything) must not trap.
        [Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size),
         Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
    }
}
