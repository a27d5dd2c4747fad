import Foundation
import Glibc
import Testing
@testable import ZaoanSystem

struct InotifyTests {
    @Test("events come with their watch, bits and name; a rename over a name is IN_MOVED_TO of that name")
    func eventsAndNames() throws {
        var template = Array("/tmp/zaoan-inotify-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inotify = try Inotify("a test")
        let watch = try inotify.watch(directory, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR))
        #expect(try inotify.watch(directory, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)) == watch, "one folder, one watch")
        #expect(symlink("/usr/share/zoneinfo/Asia/Tokyo", directory + "/.#localtime1") == 0)
        #expect(rename(directory + "/.#localtime1", directory + "/localtime") == 0)
        var events: [Inotify.Event] = []
        inotify.drain { events.append($0) }
        #expect(events.map(\.name) == [".#localtime1", "localtime"])
        #expect(events.allSatisfy { $0.watch == watch })
        #expect(events.last.map { $0.mask & UInt32(IN_MOVED_TO) != 0 } == true)
        inotify.drain { events.append($0) }  // drained: nothing more, and no blocking
        #expect(events.count == 2)
        #expect(throws: SystemError.self) { try inotify.watch(directory + "/missing", mask: UInt32(IN_CREATE)) }
    }

    @Test("names padded with NULs, and a cut-off record, are read safely")
    func parsing() {
        var bytes: [UInt8] = []
        func record(_ watch: Int32, _ mask: UInt32, _ name: String, padded: Int) {
            withUnsafeBytes(of: watch.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: mask.littleEndian) { bytes += $0 }
            bytes += [0, 0, 0, 0]  // cookie
            withUnsafeBytes(of: UInt32(padded).littleEndian) { bytes += $0 }
            bytes += Array(name.utf8) + Array(repeating: 0, count: padded - name.utf8.count)
        }
        record(1, UInt32(IN_CREATE), "localtime", padded: 16)
        record(2, UInt32(IN_Q_OVERFLOW), "", padded: 0)
        record(3, UInt32(IN_CREATE), "cut", padded: 16)
        var events: [Inotify.Event] = []
        Inotify.events(in: bytes[0..<(bytes.count - 8)]) { events.append($0) }
        #expect(events == [Inotify.Event(watch: 1, mask: UInt32(IN_CREATE), name: "localtime"),
                           Inotify.Event(watch: 2, mask: UInt32(IN_Q_OVERFLOW), name: ""),
                           Inotify.Event(watch: 3, mask: UInt32(IN_CREATE), name: "cut")])
    }
}
