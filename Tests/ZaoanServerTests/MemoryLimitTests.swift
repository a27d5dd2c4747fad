import Foundation
import Glibc
import Testing

/// A memory cgroup of one test's own, limited as the shipped units limit zaoan
/// (`MemoryMax=256M` in packaging/systemd/{user,system}/zaoan.service), which the service is
/// started in through `wrapper`: the shell writes its own pid into the cgroup and then
/// becomes `zaoan serve`, so every page the service and its calendar reader ever touch is
/// charged there, as under systemd.
///
/// cgroup v2 (`memory.max`, `memory.events`, `memory.peak`) where the root's
/// `cgroup.subtree_control` hands out the memory controller, as on Debian 12; else cgroup
/// v1's memory controller (`memory.limit_in_bytes`, `memory.oom_control`,
/// `memory.max_usage_in_bytes`), as on the development VM, where the unified hierarchy has
/// no memory controller: the same kernel limit and OOM killer, under other file names. A v1
/// cgroup is made inside the test's own, so the machine's accounting of the test still
/// covers it; a v2 one at the root (a cgroup that holds processes cannot hand out
/// controllers).
final class MemoryCgroup {
    enum Version: String { case v2 = "cgroup v2", v1 = "cgroup v1" }

    let version: Version
    /// The cgroup's directory.
    let path: String
    /// Its path inside its hierarchy, as /proc/PID/cgroup shows it.
    let name: String
    let limitBytes: Int
    private var removed = false

    /// Where a cgroup can be made, or why none can (the test skips, saying so).
    private static func place() -> Result<(Version, parent: String, parentName: String), TestFailure> {
        guard geteuid() == 0 else { return .failure(TestFailure("making a cgroup needs root")) }
        let controllers = { (directory: String) -> [Substring] in
            ((try? String(contentsOfFile: directory + "/cgroup.subtree_control", encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
        }
        if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers") {
            guard controllers("/sys/fs/cgroup").contains("memory") else {
                return .failure(TestFailure("cgroup v2 is mounted at /sys/fs/cgroup, but its root hands out no memory controller (cgroup.subtree_control)"))
            }
            return .success((.v2, "/sys/fs/cgroup", ""))
        }
        // A hybrid layout: v1 controllers under /sys/fs/cgroup/NAME. The memory one, and this
        // process's place in it ("4:memory:/some/path").
        let own = ((try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? "").split(separator: "\n")
            .map { $0.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false) }
            .first { $0.count == 3 && $0[1].split(separator: ",").contains("memory") }
        guard let own, FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/memory.limit_in_bytes") else {
            return .failure(TestFailure("neither cgroup v2 with a memory controller at /sys/fs/cgroup nor cgroup v1's memory controller at /sys/fs/cgroup/memory"))
        }
        let parentName = own[2] == "/" ? "" : String(own[2])
        return .success((.v1, "/sys/fs/cgroup/memory" + parentName, parentName))
    }

    /// Makes the cgroup and sets its limit; cancels the test, saying why, where that cannot be done.
    static func make(limitBytes: Int = 256 << 20) throws -> MemoryCgroup {
        let place: (version: Version, parent: String, parentName: String)
        switch Self.place() {
        case .failure(let reason): try Test.cancel("skipped: \(reason); the memory attacks need a real memory limit")
        case .success(let found): place = found
        }
        let leaf = "zaoan-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        guard mkdir(place.parent + "/" + leaf, 0o755) == 0 else {
            try Test.cancel("skipped: \(place.version.rawValue) is not writable here (mkdir \(place.parent)/\(leaf): \(String(cString: strerror(errno)))); the memory attacks need a real memory limit")
        }
        let cgroup = MemoryCgroup(place.version, path: place.parent + "/" + leaf, name: place.parentName + "/" + leaf, limitBytes: limitBytes)
        let limitFile = place.version == .v2 ? "memory.max" : "memory.limit_in_bytes"
        try cgroup.write(limitFile, "\(limitBytes)")  // on failure deinit removes the cgroup
        let set = try cgroup.read(limitFile).trimmingCharacters(in: .whitespacesAndNewlines)
        guard set == "\(limitBytes)" else { throw TestFailure("\(cgroup.path)/\(limitFile) reads \(set) after writing \(limitBytes)") }
        return cgroup
    }

    private init(_ version: Version, path: String, name: String, limitBytes: Int) {
        self.version = version
        self.path = path
        self.name = name
        self.limitBytes = limitBytes
    }

    deinit { remove() }

    /// `TestService.Configuration.wrapper`: joins the cgroup, then becomes zaoan.
    var wrapper: [String] { ["/bin/sh", "-c", #"echo $$ > "\#(path)/cgroup.procs" && exec "$@""#, "sh"] }

    /// Whether `pid` is in this cgroup (/proc/PID/cgroup).
    func holds(_ pid: pid_t) -> Bool {
        let lines = ((try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.contains { line in
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2] == name else { return false }
            return version == .v2 ? parts[0] == "0" : parts[1].split(separator: ",").contains("memory")
        }
    }

    /// Whether `pid` is listed in the cgroup's own `cgroup.procs`.
    func lists(_ pid: pid_t) -> Bool {
        ((try? read("cgroup.procs")) ?? "").split(separator: "\n").contains { pid_t($0) == pid }
    }

    /// Processes the OOM killer ended in the cgroup.
    var oomKills: Int {
        let file = version == .v2 ? "memory.events" : "memory.oom_control"
        let line = ((try? read(file)) ?? "").split(separator: "\n").first { $0.hasPrefix("oom_kill ") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    /// The most memory the cgroup was charged at once (v2 `memory.peak`, from kernel 5.19;
    /// v1 `memory.max_usage_in_bytes`), or nil where the kernel does not say.
    var peakBytes: Int? {
        Int(((try? read(version == .v2 ? "memory.peak" : "memory.max_usage_in_bytes")) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Its figures for the test's output.
    var report: String {
        let peak = peakBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "not reported by this kernel"
        return "\(version.rawValue) \(name), limit \(limitBytes >> 20) MiB: peak \(peak), oom_kill \(oomKills)"
    }

    /// Removes the cgroup once it is empty: the service is stopped first; anything of its
    /// still there (nothing else can be in a cgroup of the test's own) is ended.
    func remove() {
        guard !removed else { return }
        removed = true
        let emptied = eventually(timeout: 10, interval: 0.05) {
            let pids = ((try? read("cgroup.procs")) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            for pid in pids { kill(pid, SIGKILL) }
            return pids.isEmpty
        }
        if !emptied || rmdir(path) != 0 {
            print("MemoryCgroup: could not remove \(path) (\(emptied ? String(cString: strerror(errno)) : "still holds processes"))")
        }
    }

    private func read(_ file: String) throws -> String {
        try String(contentsOfFile: path + "/" + file, encoding: .utf8)
    }

    private func write(_ file: String, _ text: String) throws {
        let fd = open(path + "/" + file, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("open \(path)/\(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else {
            throw TestFailure("write \(text) to \(path)/\(file): \(String(cString: strerror(errno)))")
        }
    }
}

/// The resident set (VmRSS) of one process, sampled every 10 ms on a thread of its own while
/// an attack runs.
final class ResidentSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var largestKiB = 0
    private var samples = 0
    private let finished = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        Thread.detachNewThread { [self] in
            while true {
                let resident = LargeAnswerTests.residentKiB(pid)
                lock.lock()
                largestKiB = max(largestKiB, resident)
                samples += 1
                let done = stopping
                lock.unlock()
                if done { break }
                usleep(10_000)
            }
            finished.signal()
        }
    }

    /// Stops sampling (after one last sample); the largest VmRSS seen, in KiB, and how many
    /// samples. Called again, it gives the same.
    func finish() -> (largestKiB: Int, samples: Int) {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        if first { finished.wait() }
        lock.lock()
        defer { lock.unlock() }
        return (largestKiB, samples)
    }
}

/// Issue 29's memory attacks through the real service, under the real memory limit the
/// shipped units set (`MemoryMax=256M`): the service must come through each alive (not
/// OOM-killed, still answering) and hold at most 64 MiB resident while it runs.
@Suite("memory attacks under MemoryMax=256M", .serialized,
       Sanitizer.skipped("the bound is the service's resident memory, which a sanitizer's shadow memory swamps"))
struct MemoryLimitTests {
    static let residentLimitKiB = 64 * 1024
    /// The time limits that would end the attackers' connections on a machine slow enough
    /// to take more than 10 s over the requests (`first_line_seconds` counts from the
    /// connect, even for a line that came at once and waits its turn) or 30 s
    /// (`stuck_client_seconds`), set as far off as they go: each attack meets only the
    /// bounds it is about.
    static let patientLimits = #""first_line_seconds": 3600, "stuck_client_seconds": 3600"#

    /// Starts the service in `cgroup`, waits for its calendars and checks it is in there.
    private static func start(in cgroup: MemoryCgroup, config: String) throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        configuration.config = config
        configuration.wrapper = cgroup.wrapper
        let service = try TestService.start(configuration)
        // The wrapper joins the cgroup before it execs zaoan, so a service that is not in it
        // was moved out by something else on the machine: then no limit is being tested.
        let pid = service.pid
        var listed = ""
        let inside = pid > 0 && eventually(timeout: 3, interval: 0.05) {
            listed = procFile(pid, "cgroup")
            return cgroup.holds(pid) || cgroup.lists(pid)
        }
        guard inside else {
            // Seen on the development VM: the workplace's own init moves processes between
            // cgroups (bench/soak saw it 5 times in a run). No limit is then being tested:
            // skip, saying where the service was, rather than measure nothing.
            let running = service.isRunning
            try? service.stop()  // skipped below, saying where the service was
            try Test.cancel("skipped: zaoan (pid \(pid), \(running ? "running" : "exited")) was moved out of \(cgroup.path) by something else on the machine; /proc/\(pid)/cgroup: \(listed)")
            throw TestFailure("zaoan (pid \(pid), \(running ? "running" : "exited")) is not in \(cgroup.path); /proc/\(pid)/cgroup: \(listed)")
        }
        return service
    }

    /// `requests` in `stats`, less the `stats` requests that asked: counts lines the service
    /// has answered, from a base taken before an attack.
    private struct AnsweredRequests {
        let service: TestService
        private var base = 0
        private var asked = 0

        init(_ service: TestService) throws {
            self.service = service
            base = try Self.requests(service)
        }

        private static func requests(_ service: TestService) throws -> Int {
            let stats = try ask(service.socketPath, "stats", timeout: 30)
            let line = stats.split(separator: "\n").first { $0.hasPrefix("requests: ") } ?? ""
            return Int(line.dropFirst("requests: ".count)) ?? -1
        }

        /// Requests answered since the base, other than `stats`; -1 when `stats` is not
        /// answered in time (it still counts, once the service reads it).
        mutating func count() -> Int {
            asked += 1
            guard let requests = try? Self.requests(service), requests >= 0 else { return -1 }
            return requests - base - asked
        }
    }

    /// What the service came through: alive, not OOM-killed, answering, resident memory within
    /// the bound (sampled and its kernel-kept peak, VmHWM); prints the figures.
    private static func expectSurvived(_ service: TestService, _ cgroup: MemoryCgroup, sampled: (largestKiB: Int, samples: Int),
                                       attack: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let peakKiB = ClientFootprintTests.statusKiB(service.pid, "VmHWM")
        print("\(attack): VmRSS at most \(sampled.largestKiB) KiB in \(sampled.samples) samples, VmHWM \(peakKiB) KiB; \(cgroup.report)")
        #expect(cgroup.oomKills == 0, "the OOM killer ended a process of the service's cgroup: \(cgroup.report); stderr: \(service.stderrText.suffix(2000))",
                sourceLocation: sourceLocation)
        try #require(service.isRunning, "zaoan is gone after \(attack): \(cgroup.report); stderr: \(service.stderrText.suffix(2000))",
                     sourceLocation: sourceLocation)
        let ping = Result { try service.ask("ping", timeout: 30) }
        #expect((try? ping.get()) == "pong\n", "zaoan does not answer ping after \(attack): \(ping)", sourceLocation: sourceLocation)
        #expect(sampled.largestKiB <= residentLimitKiB, "VmRSS reached \(sampled.largestKiB) KiB during \(attack), past \(residentLimitKiB) KiB",
                sourceLocation: sourceLocation)
        #expect(peakKiB <= residentLimitKiB, "VmHWM (the peak resident set) is \(peakKiB) KiB after \(attack), past \(residentLimitKiB) KiB",
                sourceLocation: sourceLocation)
    }

    @Test("120 subscribers of watch events that never read, through the soon and live moments of 10,000 events starting in one second")
    func eventFanOut() throws {
        let cgroup = try MemoryCgroup.make()
        defer { cgroup.remove() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        // Whole seconds; the soon moment 20 s after writing leaves a loaded machine time to read
        // the calendar and connect every subscriber before it.
        let soonSeconds = 10
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 30).rounded(.down))
        try EventFloodTests.flood(10_000, start: start).write(toFile: calendar + "/flood.ics", atomically: true, encoding: .utf8)
        let service = try Self.start(in: cgroup, config: #"{"soon_threshold": \#(soonSeconds), "max_connections_per_user": 200, \#(Self.patientLimits), "calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        try #require(try Live.stats(service.socketPath)["calendar_events"] == "10000")

        let sampler = ResidentSampler(pid: service.pid)
        defer { _ = sampler.finish() }  // a test that stops early stops its sampler too
        var answered = try AnsweredRequests(service)
        var subscribers: [RawClient] = []
        for _ in 0..<120 {
            let subscriber = try RawClient(path: service.socketPath, timeout: 30)
            try subscriber.send("watch events\n")
            subscribers.append(subscriber)
        }
        let observer = try RawClient(path: service.socketPath, timeout: 30)
        try observer.send("watch events\n")
        #expect(eventually(timeout: 30) { answered.count() >= 121 }, "the service did not take every subscription")
        let left = start.timeIntervalSinceNow - Double(soonSeconds)
        try #require(left > 0, "the calendar took too long to read to see its soon moment; it passed \(-left) s ago")

        // The observer reads: through the soon moment to the live one's "more" line.
        var phases: [String] = []
        do {
            while !phases.contains("more live") {
                let line = try observer.readLine(timeout: max(1, start.timeIntervalSinceNow + 30))
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
                let phase = object["phase"] as? String ?? "?"
                phases.append(phase == "more" ? "more \(object["of"] as? String ?? "?")" : phase)
            }
        } catch {
            Issue.record("the subscriber that reads did not see the live moment: \(phases.count) lines (\(Set(phases).sorted())), then \(error)")
        }
        let sampled = sampler.finish()
        try Self.expectSurvived(service, cgroup, sampled: sampled, attack: "120 unread watch events subscribers, 10,000 events in one second")
        #expect(phases.filter { $0 == "soon" }.count == EventFloodTests.linesInFull && phases.contains("more soon"),
                "\(EventFloodTests.linesInFull) soon lines and one counting the rest: \(Dictionary(grouping: phases) { $0 }.mapValues(\.count))")
        // Each firing is a few KB, so no subscriber was cut: each has both firings waiting.
        for (index, subscriber) in subscribers.enumerated() {
            var lines = 0
            do {
                while !(try subscriber.readLine(timeout: 10)).contains(#""phase":"more","of":"live""#) { lines += 1 }
            } catch {
                Issue.record("subscriber \(index) did not get both firings (\(lines) lines before: \(error))")
                break
            }
        }
    }

    @Test("125 connections each asking a distinct schedule of 2,000 lines and never reading: refused unrendered past half the account's bound, the service alive and within 64 MiB")
    func largeAnswersUnread() throws {
        let cgroup = try MemoryCgroup.make()
        defer { cgroup.remove() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        // One every 4 minutes: all 10,000 inside the 31 days, 2,000 in any schedule asked.
        try LargeAnswerTests.manyEvents(10_000, spacing: 240).write(toFile: calendar + "/many.ics", atomically: true, encoding: .utf8)
        let service = try Self.start(in: cgroup, config: #"{"calendar_window_hours": 744, "max_connections_per_user": 200, \#(Self.patientLimits), "calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        try #require(try Live.stats(service.socketPath)["calendar_events"] == "10000")

        print("before: VmRSS \(LargeAnswerTests.residentKiB(service.pid)) KiB, VmHWM \(ClientFootprintTests.statusKiB(service.pid, "VmHWM")) KiB")
        let sampler = ResidentSampler(pid: service.pid)
        defer { _ = sampler.finish() }  // a test that stops early stops its sampler too
        var clients: [RawClient] = []
        for index in 0..<125 {
            let client = try RawClient(path: service.socketPath, timeout: 30)
            try client.send("schedule \(744 - index)\n")  // each a rendering of its own, about 360 KB
            clients.append(client)
        }
        // Done when every connection has its answer coming (a byte waits, peeked at, not
        // read) or was cut.
        var waiting = clients.count
        #expect(eventually(timeout: 120, interval: 0.1) { waiting = clients.filter { $0.peerState(within: 0) == .open }.count; return waiting == 0 },
                "\(waiting) of the 125 schedules neither answered nor cut: \((try? ask(service.socketPath, "stats", timeout: 30)) ?? "no stats"); \(service.stderrText.suffix(3000))")
        let sampled = sampler.finish()
        try Self.expectSurvived(service, cgroup, sampled: sampled, attack: "125 unread distinct schedules of 2,000 lines")
        let stats = try Live.stats(service.socketPath)
        let refused = Int(stats["refused_unread_backlog"] ?? "") ?? 0
        print("refused_unread_backlog \(refused), closed_output_limit \(stats["closed_output_limit"] ?? "?"), closed_slow_reader \(stats["closed_slow_reader"] ?? "?"), connections_open \(stats["connections_open"] ?? "?")")
        #expect(refused >= 1, "125 answers of about 360 KB left unread are more than half the account's bound, yet none was refused")
        for client in clients { client.close() }
        _ = eventually(timeout: 10) { (try? Live.stats(service.socketPath)["connections_open"]) == "1" }
        print("after every connection closed: VmRSS \(LargeAnswerTests.residentKiB(service.pid)) KiB")
    }
}
