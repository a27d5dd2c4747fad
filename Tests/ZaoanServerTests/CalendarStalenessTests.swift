import Foundation
import Glibc
import Testing

/// Changes to a calendar file that its folder's inotify watch does not see, or that leave
/// the file's times as they were, through the real service: each shows within seconds, not
/// at the next hourly reading.
@Suite("calendars: changes no folder watch or timestamp shows")
struct CalendarStalenessTests {
    private func start(calendars: [String], wrapper: [String]? = nil) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        configuration.config = #"{"calendars": [\#(calendars.map { "\"\($0)\"" }.joined(separator: ", "))]}"#
        configuration.wrapper = wrapper
        return try TestService.start(configuration)
    }

    private static func inode(_ path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    @Test("a link's target edited in place or replaced in its own folder, and a file written through another hard link, show within seconds")
    func linkTargetsAndHardLinks() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("work")
        let targets = try folder.makeDirectory("targets")
        let others = try folder.makeDirectory("others")
        try CalendarFeedTests.event(uid: "linked", title: "Linked before", minutes: 30).write(toFile: targets + "/linked.ics", atomically: true, encoding: .utf8)
        #expect(symlink(targets + "/linked.ics", calendar + "/linked.ics") == 0)
        try CalendarFeedTests.event(uid: "hard", title: "Hard before", minutes: 35).write(toFile: calendar + "/hard.ics", atomically: true, encoding: .utf8)
        #expect(link(calendar + "/hard.ics", others + "/hard.ics") == 0)
        let service = try start(calendars: [calendar])
        defer { try? service.stop() }
        let first = try service.ask("schedule", within: 10) { $0.contains("Linked before") && $0.contains("Hard before") }
        #expect(first.contains("Linked before") && first.contains("Hard before"), "\(first)")

        // In place: the same inode, truncated and written; nothing happens in work/.
        let linkedInode = Self.inode(targets + "/linked.ics")
        try CalendarFeedTests.event(uid: "linked", title: "Linked edited", minutes: 30).write(toFile: targets + "/linked.ics", atomically: false, encoding: .utf8)
        try #require(Self.inode(targets + "/linked.ics") == linkedInode, "the target was not written in place")
        let edited = try service.ask("schedule", within: 10) { $0.contains("Linked edited") }
        #expect(edited.contains("Linked edited") && !edited.contains("Linked before"), "the link's target edited in place: \(edited)")

        let hardInode = Self.inode(calendar + "/hard.ics")
        try CalendarFeedTests.event(uid: "hard", title: "Hard edited", minutes: 35).write(toFile: others + "/hard.ics", atomically: false, encoding: .utf8)
        try #require(Self.inode(calendar + "/hard.ics") == hardInode && Self.inode(others + "/hard.ics") == hardInode, "not written through the other link")
        let hard = try service.ask("schedule", within: 10) { $0.contains("Hard edited") }
        #expect(hard.contains("Hard edited") && !hard.contains("Hard before"), "written through another hard link: \(hard)")

        try CalendarFeedTests.replace(targets + "/linked.ics", with: CalendarFeedTests.event(uid: "linked", title: "Linked replaced", minutes: 30))
        let replaced = try service.ask("schedule", within: 10) { $0.contains("Linked replaced") }
        #expect(replaced.contains("Linked replaced") && !replaced.contains("Linked edited"), "the link's target renamed over: \(replaced)")
    }

    /// An ext4 image with 128-byte inodes keeps no nanoseconds: its times are whole seconds,
    /// as FAT's, many network and FUSE file systems' are. It is mounted in a mount namespace
    /// of the service's own (`unshare`), so it goes with the service; the test writes through
    /// `/proc/PID/root`, which looks paths up in that namespace.
    @Test("on a file system of whole seconds, a file rewritten in place with the same size, within the second it was read, shows its new event")
    func wholeSecondRewrite() throws {
        guard geteuid() == 0, let unshare = Locations.tool("unshare"), let mkfs = Locations.tool("mkfs.ext4") else {
            try Test.cancel("needs root, unshare(1) and mkfs.ext4 to mount a file system of whole seconds")
        }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let image = folder.file("whole-seconds.img")
        try #require(FileManager.default.createFile(atPath: image, contents: nil) && truncate(image, 8 << 20) == 0)
        let made = try Tool.run(mkfs, ["-q", "-F", "-I", "128", image], environment: Tool.baseEnvironment(home: folder.path), scratch: folder)
        try #require(made.status == 0, "\(made)")
        let mountPoint = try folder.makeDirectory("mnt", mode: 0o755)
        let namespace = [unshare, "--mount", "--propagation", "private", "--fork", "/bin/sh", "-c"]
        let probe = try Tool.run(namespace[0], Array(namespace.dropFirst()) + [#"mount -o loop "$0" "$1""#, image, mountPoint],
                                 environment: Tool.baseEnvironment(home: folder.path), scratch: folder)
        if probe.status != 0 { try Test.cancel("no loop mount in a private mount namespace here: \(probe)") }
        let mount = #"mount -o loop "$0" "$1" && mkdir -m 755 "$1/cal" && shift && exec "$@""#
        let service = try start(calendars: [mountPoint + "/cal"], wrapper: namespace + [mount, image, mountPoint])
        defer { try? service.stop() }  // what the test checks is checked; a failed stop is reported by its own tests
        let calendar = "/proc/\(service.pid)/root\(mountPoint)/cal"
        func times(_ path: String) -> [Int]? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        }
        let file = calendar + "/event.ics"
        // The second a write lands in cannot be chosen: each try writes at the start of a
        // second and waits for the service to show it; if that was still the same second, a
        // rewrite of the same size now leaves inode, size and both times as they were.
        for round in 10..<30 {
            _ = eventually(timeout: 2, interval: 0.002) { Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1) < 0.05 }
            let before = "Before \(round)", after = "Edited \(round)"
            try CalendarFeedTests.event(uid: "same", title: before, minutes: 30).write(toFile: file, atomically: false, encoding: .utf8)
            let written = times(file)
            var schedule = ""
            #expect(try eventually(timeout: 10, interval: 0.01) { schedule = try service.ask("schedule"); return schedule.contains(before) }, "\(schedule)")
            try CalendarFeedTests.event(uid: "same", title: after, minutes: 30).write(toFile: file, atomically: false, encoding: .utf8)
            let rewritten = times(file)
            try #require(rewritten.map { $0[3] == 0 && $0[5] == 0 } == true, "not a file system of whole seconds: \(String(describing: rewritten))")
            let shown = try service.ask("schedule", within: 10) { $0.contains(after) }
            guard written == rewritten else {
                // The second turned before the rewrite: its times differ, it proves nothing.
                #expect(shown.contains(after), "\(shown)")
                continue
            }
            #expect(shown.contains(after) && !shown.contains(before),
                    "rewritten in place, same size, same second (\(String(describing: rewritten))): the old event stays: \(shown)")
            return
        }
        try Test.cancel("in 20 tries the service never showed the file within the second it was written (a loaded machine): nothing was proved")
    }
}
