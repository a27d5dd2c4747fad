import Glibc
import Testing
@testable import ZaoanSystem

struct FileIdentityTests {
    @Test("a device or inode number past Int64.max (a FUSE file system may say anything) is kept, not trapped on")
    func hugeInodeNumbers() throws {
        var info = stat()
        info.st_dev = .max
        info.st_ino = UInt(Int64.max) + 1
        let values = FileIdentity.values(info)
        #expect(values[0] == -1 && values[1] == Int64.min, "\(values)")
        // Two files that differ only there still differ.
        var other = info
        other.st_ino = 1
        #expect(FileIdentity.values(other) != values)
    }
}
