import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Loading zones: names checked before the file system is touched, regular files only, a
/// size limit, each zone read once, a bounded cache shared safely between threads.
@Suite struct ZoneInfoStoreTests {
    /// A directory of the test's own, removed afterwards.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/zaoan-zones-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    @Test("names that are not tz names are refused before any file is opened", arguments: [
        "", "../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "Europe/..", "./Europe/Berlin", "Europe//Berlin",
        "Europe/Berlin/", "Europe/Berlin ", "Europe/Berlin\0", "Europe\\Berlin", "Europe/Berlin;rm", "Europe/Bérlin",
        String(repeating: "A", count: 65), "..", ".",
    ])
    func refusesBadNames(_ name: String) {
        let store = ZoneInfoStore()
        #expect(throws: ZoneInfoError.self) { try store.zoneInfo(named: name) }
        #expect(store.fileReads == 0)
    }

    @Test func readsEachZoneOnceFromManyThreads() throws {
        let store = ZoneInfoStore()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let name = index % 2 == 0 ? "Europe/Berlin" : "Asia/Kathmandu"
            _ = try? store.zoneInfo(named: name)
        }
        #expect(store.fileReads == 2)
        #expect(try store.zoneInfo(named: "Europe/Berlin").localTime(at: 0).abbreviation == "CET")
        #expect(store.fileReads == 2)
        // A missing zone is remembered too.
        #expect(throws: ZoneInfoError.self) { try store.zoneInfo(named: "Mars/Olympus_Mons") }
        #expect(throws: ZoneInfoError.self) { try store.zoneInfo(named: "Mars/Olympus_Mons") }
        #expect(store.fileReads == 3)
    }

    @Test func theCacheIsBounded() throws {
        let store = ZoneInfoStore(capacity: 2)
        for name in ["Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata"] { _ = try store.zoneInfo(named: name) }
        #expect(store.fileReads == 3)
        _ = try store.zoneInfo(named: "Asia/Kolkata")  // kept
        #expect(store.fileReads == 3)
        _ = try store.zoneInfo(named: "Europe/Berlin")  // dropped first, read again
        #expect(store.fileReads == 4)
    }

    /// A FIFO would block a plain open until someone writes; it is refused at once.
    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/Fifo", withIntermediateDirectories: false)
            #expect(mkfifo(directory + "/Fifo/Zone", 0o600) == 0)
            let store = ZoneInfoStore(directory: directory)
            let done = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            Thread.detachNewThread {
                do { _ = try store.zoneInfo(named: "Fifo/Zone") } catch { outcome.set("\(error)") }
                done.signal()
            }
            guard done.wait(timeout: .now() + 20) == .success else {
                Issue.record("reading a FIFO blocked")
                return
            }
            #expect(outcome.text.contains("not a regular file"), "\(outcome.text)")
        }
    }

    @Test func directoriesAndOversizedFilesAreRefused() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/Big", withIntermediateDirectories: false)
            let big = TZifBuilder().bytes() + [UInt8](repeating: 0, count: 300 * 1024)
            try Data(big).write(to: URL(fileURLWithPath: directory + "/Big/Zone"))
            try Data(TZifBuilder().bytes()).write(to: URL(fileURLWithPath: directory + "/Big/Small"))
            let store = ZoneInfoStore(directory: directory)
            #expect(throws: ZoneInfoError.self) { try store.zoneInfo(named: "Big") }
            #expect(throws: ZoneInfoError.self) { try store.zoneInfo(named: "Big/Zone") }
            #expect(try store.zoneInfo(named: "Big/Small").localTime(at: 0).abbreviation == "CEST")
        }
    }

    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func set(_ text: String) { lock.lock(); value = text; lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return value }
    }
}
