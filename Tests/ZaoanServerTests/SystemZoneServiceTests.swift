import Foundation
import Glibc
import Testing

/// The machine's zone followed through the real service, as a laptop's user sees it: each
/// service runs in a mount namespace of its own (`unshare -m`) where a copy of /etc is
/// mounted over /etc, without `TZ`; the test replaces `localtime` in the copy the way
/// `timedatectl set-timezone` does (a new link renamed over the old one), or rewrites the
/// zone file the way a tzdata upgrade does (a new file renamed over it, in a copy of the
/// zone folder mounted over /usr/share/zoneinfo/Asia). Every wait is for a condition.
@Suite("the machine's zone: followed while the config gives none")
struct SystemZoneServiceTests {
    /// The minute since 1970 and the second in it of an instant, from Foundation's whole
    /// seconds (no Double-to-Int conversion that could trap).
    static func minuteAndSecond(_ date: Date) -> (minute: Int, second: Int) {
        let seconds = Calendar(identifier: .gregorian).dateComponents([.second], from: Date(timeIntervalSince1970: 0), to: date).second ?? 0
        return (seconds / 60, ((seconds % 60) + 60) % 60)
    }

    /// A copy of /etc whose `localtime` the test controls, and the zone folder's copy.
    struct Machine {
        let folder: TemporaryDirectory
        let etc: String
        let asia: String

        /// Cancels the test where a private mount namespace cannot be made.
        init(zone: String) throws {
            guard geteuid() == 0, let unshare = Locations.tool("unshare") else {
                try Test.cancel("needs root and unshare(1) to mount a copy of /etc in a mount namespace of the service's own")
            }
            folder = try TemporaryDirectory()
            etc = folder.file("etc")
            asia = folder.file("Asia")
            let environment = Tool.baseEnvironment(home: folder.path)
            for (from, to) in [("/etc", etc), ("/usr/share/zoneinfo/Asia", asia)] {
                let copied = try Tool.run("/bin/cp", ["-a", from, to], environment: environment, scratch: folder)
                try #require(copied.status == 0, "copying \(from): \(copied)")
            }
            let probe = try Tool.run(unshare, ["--mount", "--propagation", "private", "/bin/sh", "-c", #"mount --bind "$0" /etc"#, etc],
                                     environment: environment, scratch: folder)
            if probe.status != 0 {
                folder.remove()
                try Test.cancel("no bind mount in a private mount namespace here: \(probe)")
            }
            try point(at: "/usr/share/zoneinfo/" + zone)
        }

        func remove() { folder.remove() }

        /// Runs the service in its own mount namespace with the copies mounted; without `TZ`
        /// unless `keepTZ` (then the test environment's `TZ` stays).
        func wrapper(keepTZ: Bool = false) -> [String] {
            let script = #"mount --bind "$0" /etc && mount --bind "$1" /usr/share/zoneinfo/Asia && shift && "#
                + (keepTZ ? "" : "unset TZ && ") + #"exec "$@""#
            return ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, etc, asia]
        }

        /// Replaces /etc/localtime as timedatectl does: a new link renamed over it.
        func point(at target: String) throws {
            let fresh = etc + "/.#localtime" + UUID().uuidString.prefix(8)
            try #require(symlink(target, fresh) == 0, "symlink: \(String(cString: strerror(errno)))")
            try #require(rename(fresh, etc + "/localtime") == 0, "rename: \(String(cString: strerror(errno)))")
        }

        /// Rewrites a zone file of the Asia copy as a tzdata upgrade does: new content
        /// renamed over it.
        func rewriteZone(_ name: String, withContentOf other: String) throws {
            let fresh = asia + "/.\(name).dpkg-new"
            let copied = FileManager.default.contents(atPath: other)
            try #require(copied != nil && FileManager.default.createFile(atPath: fresh, contents: copied))
            try #require(rename(fresh, asia + "/" + name) == 0, "rename: \(String(cString: strerror(errno)))")
        }
    }

    private func start(_ machine: Machine, config: String? = nil, keepTZ: Bool = false, tz: String? = nil) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--language", "en"]
        configuration.config = config
        configuration.wrapper = machine.wrapper(keepTZ: keepTZ)
        if let tz { configuration.environment["TZ"] = tz }
        return try TestService.start(configuration)
    }

    private static let berlin = "Central European"
    private static let tokyo = "Japan Standard Time"

    /// Every line of a watch that arrives within `seconds`.
    private func lines(of watcher: RawClient, within seconds: Double) -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, let line = try? watcher.readLine(timeout: max(0.05, deadline.timeIntervalSinceNow)) { seen.append(line) }
        return seen
    }

    @Test("/etc/localtime replaced: answers and an open watch show the new zone at once, stats counts it")
    func linkReplaced() throws {
        let machine = try Machine(zone: "Europe/Berlin")
        defer { machine.remove() }
        let service = try start(machine)
        defer { try? service.stop() }
        let before = try service.ask("time HH:mm zzzz")
        #expect(before.contains(Self.berlin), "the service should start in the machine's zone: \(before)")
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "0")
        let watcher = try RawClient(path: service.socketPath, timeout: 5)
        try watcher.send("watch time HH:mm zzzz\n")
        let first = try watcher.readLine()
        #expect(first.contains(Self.berlin), "\(first)")

        // Early in a minute, so that an update before the next minute's tick can only be
        // the re-rendering the change asked for.
        #expect(eventually(timeout: 62, interval: 0.1) { Self.minuteAndSecond(Date()).second < 40 })
        let changedAt = Date().timeIntervalSince1970
        try machine.point(at: "/usr/share/zoneinfo/Asia/Tokyo")

        let after = try service.ask("time HH:mm zzzz", within: 20) { $0.contains(Self.tokyo) }
        #expect(after.contains(Self.tokyo), "the answer should follow /etc/localtime: \(after); log: \(service.stderrText)")
        let greeting = try service.ask("greeting")
        #expect(greeting.contains("Tokyo"), "the city named after the zone follows it: \(greeting)")
        var update = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !update.contains(Self.tokyo) { update = (try? watcher.readLine(timeout: 1)) ?? update }
        let arrivedAt = Date().timeIntervalSince1970
        #expect(update.contains(Self.tokyo), "the watch should get a line in the new zone: \(update)")
        #expect(Self.minuteAndSecond(Date(timeIntervalSince1970: arrivedAt)).minute == Self.minuteAndSecond(Date(timeIntervalSince1970: changedAt)).minute,
                "the watch should be re-rendered at once, not at the next minute's tick (changed at \(changedAt), line at \(arrivedAt))")
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "1")
        #expect(service.stderrText.contains("the machine's zone is now Asia/Tokyo"), "\(service.stderrText)")

        // A reload keeps the zone followed (not the one the process first found).
        #expect(try service.ask("reload") == "ok\n")
        let reloaded = try service.ask("time HH:mm zzzz") + service.ask("greeting")
        #expect(reloaded.contains(Self.tokyo) && reloaded.contains("· Tokyo"), "after a reload: \(reloaded)")
    }

    @Test("a configured timezone, and TZ in the service's environment, are not affected by /etc/localtime")
    func configuredZoneStays() throws {
        let machine = try Machine(zone: "Europe/Berlin")
        defer { machine.remove() }
        let following = try start(machine)
        defer { try? following.stop() }
        let configured = try start(machine, config: #"{"timezone": "Europe/Berlin"}"#)
        defer { try? configured.stop() }
        let fromTZ = try start(machine, keepTZ: true, tz: "Europe/Berlin")
        defer { try? fromTZ.stop() }
        var watchers: [RawClient] = []
        for service in [configured, fromTZ] {
            #expect(try service.ask("time HH:mm zzzz").contains(Self.berlin))
            let watcher = try RawClient(path: service.socketPath, timeout: 5)
            try watcher.send("watch time HH:mm zzzz\n")
            _ = try watcher.readLine()
            watchers.append(watcher)
        }

        try machine.point(at: "/usr/share/zoneinfo/Asia/Tokyo")
        // The follower shows it: the change happened where all three look.
        let followed = try following.ask("time HH:mm zzzz", within: 20) { $0.contains(Self.tokyo) }
        #expect(followed.contains(Self.tokyo), "\(followed); log: \(following.stderrText)")
        for (service, watcher) in zip([configured, fromTZ], watchers) {
            let updates = lines(of: watcher, within: 1.5)
            #expect(!updates.contains { $0.contains(Self.tokyo) }, "a watch of a service with its own zone took the machine's: \(updates)")
            let answer = try service.ask("time HH:mm zzzz")
            #expect(answer.contains(Self.berlin), "a service with its own zone took the machine's: \(answer)")
            #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "0")
            #expect(!service.stderrText.contains("the machine's zone"), "\(service.stderrText)")
        }
    }

    @Test("the zone file rewritten by a tzdata upgrade: answers use its new rules")
    func zoneFileRewritten() throws {
        let machine = try Machine(zone: "Asia/Tokyo")
        defer { machine.remove() }
        let service = try start(machine)
        defer { try? service.stop() }
        let before = try service.ask("time %H:%M %Z %z")
        #expect(before.hasSuffix("JST +0900\n"), "\(before)")

        // New rules under the same name: Kolkata's, which no one could mistake for Tokyo's.
        try machine.rewriteZone("Tokyo", withContentOf: "/usr/share/zoneinfo/Asia/Kolkata")
        let after = try service.ask("time %H:%M %Z %z", within: 20) { $0.hasSuffix("IST +0530\n") }
        #expect(after.hasSuffix("IST +0530\n"), "the rewritten zone file should be read again: \(after); log: \(service.stderrText)")
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "1")

        // The same rules written again are no change.
        try machine.rewriteZone("Tokyo", withContentOf: machine.asia + "/Kolkata")
        try machine.point(at: "/usr/share/zoneinfo/Asia/Tokyo")  // and the same zone set again
        try machine.point(at: "/usr/share/zoneinfo/Europe/Berlin")
        let berlin = try service.ask("time %Z", within: 20) { $0 == "CET\n" || $0 == "CEST\n" }
        #expect(berlin == "CET\n" || berlin == "CEST\n", "\(berlin)")
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "2")
    }

    @Test("a link that leads nowhere, or to no zone, leaves the zone in force and says so; a good one is taken again")
    func brokenLink() throws {
        let machine = try Machine(zone: "Asia/Tokyo")
        defer { machine.remove() }
        let service = try start(machine)
        defer { try? service.stop() }
        #expect(try service.ask("time HH:mm zzzz").contains(Self.tokyo))

        for (target, said) in [("/nowhere/at/all", "points to '/nowhere/at/all', which is not a zone in /usr/share/zoneinfo"),
                               ("/usr/share/zoneinfo/Nowhere/Atlantis", "points to '/usr/share/zoneinfo/Nowhere/Atlantis', whose zone cannot be read")] {
            try machine.point(at: target)
            #expect(eventually(timeout: 20, interval: 0.05) { service.stderrText.contains(said) }, "the log should say what is wrong: \(service.stderrText)")
            #expect(service.stderrText.contains("the zone stays Asia/Tokyo"), "\(service.stderrText)")
            #expect(try service.ask("time HH:mm zzzz").contains(Self.tokyo), "a broken link must leave the zone in force")
        }
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "0")

        try machine.point(at: "../usr/share/zoneinfo/Europe/Berlin")  // relative, as some tools write it
        let after = try service.ask("time HH:mm zzzz", within: 20) { $0.contains(Self.berlin) }
        #expect(after.contains(Self.berlin), "\(after); log: \(service.stderrText)")
        #expect(try Live.stats(service.socketPath)["system_zone_changes"] == "1")
    }
}
