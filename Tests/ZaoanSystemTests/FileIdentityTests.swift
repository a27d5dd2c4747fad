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

    @Test("an identity whose latest time is in the second before the reading began, or later, proves nothing", arguments: [
        (changed: Int64(1_000), moment: Int64(1_002), hides: false),
        (changed: 1_001, moment: 1_002, hides: true),
        (changed: 1_002, moment: 1_002, hides: true),
        (changed: 5_000, moment: 1_002, hides: true),  // dated in the future
        (changed: 0, moment: Int64.min, hides: true),  // no trap at the edge
    ])
    func mayHideChanges(changed: Int64, moment: Int64, hides: Bool) throws {
        // entry and target: device, inode, size, mtime s/ns, ctime s/ns; one of the four times moves
        for index in [3, 5, 10, 12] {
            var values: [Int64] = [1, 2, 3, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0]
            values[index] = changed
            let identity = try #require(FileIdentity(values.map(String.init).joined(separator: ",")))
            #expect(identity.mayHideChanges(after: moment) == hides, "time \(index)")
        }
    }
}
