import Foundation
import Glibc
import Testing

// Support for the systemd tests: a notification socket of the test's own, a process
// spawner that can hand a listening socket over as fd 3 (what systemd does), the unit
// files as key/value lines, and a private systemd user manager.

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A datagram socket standing in for systemd's notification socket: point NOTIFY_SOCKET
/// at `path` and every `sd_notify` of the service lands here.
///
/// Linux queues only `net.unix.max_dgram_qlen` datagrams (often 10) on an unread socket,
/// after which sd_notify fails with EAGAIN; read it while the service runs (`wait`,
/// `receive`, or `startDraining` while the test thread is busy elsewhere).
final class NotifyReceiver: @unchecked Sendable {
    struct Message {
        /// When it arrived, on the monotonic clock.
        let time: Double
        /// One `KEY=VALUE` assignment (a datagram with several lines gives several messages).
        let text: String
    }

    let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [Message] = []
    private var draining = false
    private let drained = DispatchSemaphore(value: 0)

    var messages: [Message] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket(AF_UNIX, SOCK_DGRAM): \(String(cString: strerror(errno)))") }
        let bound = try withUnixAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestFailure("bind \(path): \(String(cString: strerror(code)))")
        }
    }

    deinit {
        Glibc.close(fd)
        unlink(path)
    }

    /// Receives whatever arrives within `timeout` seconds (at least one poll).
    func receive(for timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        repeat {
            let left = max(0, deadline - monotonicSeconds())
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { continue }
            let now = monotonicSeconds()
            lock.lock()
            for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
                received.append(Message(time: now, text: String(line)))
            }
            lock.unlock()
        } while monotonicSeconds() < deadline
    }

    /// Receives until a message satisfying `predicate` has arrived (already received ones
    /// from index `from` on count too), or `timeout` passes. Returns it.
    func wait(timeout: Double, from: Int = 0, _ predicate: (String) -> Bool) -> Message? {
        let deadline = monotonicSeconds() + timeout
        var checked = from
        while true {
            let all = messages
            if let found = all[min(checked, all.count)...].first(where: { predicate($0.text) }) { return found }
            checked = all.count
            let left = deadline - monotonicSeconds()
            if left <= 0 { return nil }
            receive(for: min(left, 0.05))
        }
    }

    /// Keeps receiving on a thread of its own until `stopDraining()`.
    func startDraining() {
        lock.lock()
        draining = true
        lock.unlock()
        Thread.detachNewThread { [self] in
            while true {
                lock.lock()
                let go = draining
                lock.unlock()
                guard go else { break }
                receive(for: 0.05)
            }
            drained.signal()
        }
    }

    func stopDraining() {
        lock.lock()
        draining = false
        lock.unlock()
        drained.wait()
        receive(for: 0.01)
    }
}

/// A child process started with `posix_spawn`, so it can be given a listening socket as fd 3
/// the way systemd passes one (Foundation's Process closes every descriptor above 2).
final class SpawnedProcess {
    enum Exit: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        var description: String {
            switch self {
            case .exited(let status): return "exit status \(status)"
            case .signaled(let signal): return "killed by signal \(signal)"
            }
        }
    }

    let pid: pid_t
    private(set) var exit: Exit?

    /// Runs `arguments` (an absolute path first) with exactly `environment`. stdout and
    /// stderr are appended to `outputPath`; stdin is /dev/null. With `listeningSocket`, the
    /// child gets it as fd 3 plus LISTEN_FDS=1, LISTEN_FDNAMES=zaoan and LISTEN_PID set to
    /// its own pid (through a bash wrapper that also closes any other inherited descriptor,
    /// so nothing of the test process leaks into the service).
    init(_ arguments: [String], environment: [String: String], outputPath: String, listeningSocket: Int32? = nil) throws {
        var argv = arguments
        var environment = environment
        if let listeningSocket {
            guard let bash = Locations.tool("bash") else { throw TestFailure("bash not found") }
            precondition(listeningSocket > 3, "dup2 onto itself would keep FD_CLOEXEC; pass a descriptor above 3")
            environment["LISTEN_FDS"] = "1"
            environment["LISTEN_FDNAMES"] = "zaoan"
            let script = #"for f in /proc/$$/fd/*; do n=${f##*/}; if (( n > 3 )); then exec {n}>&-; fi; done; export LISTEN_PID=$$; exec "$0" "$@""#
            argv = [bash, "-c", script] + arguments
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let listeningSocket { posix_spawn_file_actions_adddup2(&actions, listeningSocket, 3) }

        // Signals the test runner blocks must not stay blocked in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else { throw TestFailure("posix_spawn \(argv[0]): \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        if exit == nil {
            Glibc.kill(pid, SIGKILL)
            _ = wait(timeout: 5)
        }
    }

    /// Whether it has exited, without blocking; reaps it when it has.
    var hasExited: Bool {
        if exit != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        exit = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        return true
    }

    /// Waits up to `timeout` seconds for the exit.
    func wait(timeout: Double) -> Exit? {
        _ = eventually(timeout: timeout, interval: 0.005) { hasExited }
        return exit
    }

    func signal(_ number: Int32) {
        if !hasExited { Glibc.kill(pid, number) }
    }
}

/// A listening Unix stream socket held by the test, as systemd holds one for Accept=no.
func makeListeningSocket(path: String, backlog: Int32 = 128) throws -> Int32 {
    let raw = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard raw >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
    // Keep it above 3 so handing it over as fd 3 is a real dup2 (which clears FD_CLOEXEC).
    let fd = fcntl(raw, F_DUPFD_CLOEXEC, 10)
    Glibc.close(raw)
    guard fd >= 0 else { throw TestFailure("fcntl(F_DUPFD_CLOEXEC): \(String(cString: strerror(errno)))") }
    let bound = try withUnixAddress(path) { bind(fd, $0, $1) }
    guard bound == 0, listen(fd, backlog) == 0 else {
        let code = errno
        Glibc.close(fd)
        throw TestFailure("bind/listen \(path): \(String(cString: strerror(code)))")
    }
    return fd
}

/// Whether `fd` has a connection waiting, within `timeout` seconds.
func isReadable(_ fd: Int32, timeout: Double) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(timeout * 1000)) > 0 && entry.revents & Int16(POLLIN) != 0
}

/// A unit file as `(section, key, value)` lines, in order; comments and blank lines dropped.
struct UnitFile {
    struct Line: Equatable {
        var section: String
        var key: String
        var value: String
    }

    let path: String
    var lines: [Line]

    init(path: String) throws {
        self.path = path
        var section = ""
        lines = []
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") || text.hasPrefix(";") { continue }
            if text.hasPrefix("[") {
                section = String(text.dropFirst().prefix(while: { $0 != "]" }))
                continue
            }
            guard let equals = text.firstIndex(of: "=") else { continue }
            lines.append(Line(section: section,
                              key: String(text[..<equals]).trimmingCharacters(in: .whitespaces),
                              value: String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)))
        }
    }

    func values(_ key: String, in section: String) -> [String] {
        lines.filter { $0.section == section && $0.key == key }.map(\.value)
    }

    func value(_ key: String, in section: String) -> String? { values(key, in: section).last }

    /// Replaces every line of `key` in `section` with one line (or removes them for nil).
    mutating func set(_ key: String, _ value: String?, in section: String) {
        let index = lines.firstIndex(where: { $0.section == section && $0.key == key })
        lines.removeAll { $0.section == section && $0.key == key }
        guard let value else { return }
        let line = Line(section: section, key: key, value: value)
        if let index {
            lines.insert(line, at: index)
        } else if let last = lines.lastIndex(where: { $0.section == section }) {
            lines.insert(line, at: last + 1)
        } else {
            lines.append(line)
        }
    }

    var text: String {
        var out = ""
        var section = ""
        for line in lines {
            if line.section != section {
                section = line.section
                out += (out.isEmpty ? "" : "\n") + "[\(section)]\n"
            }
            out += "\(line.key)=\(line.value)\n"
        }
        return out
    }
}

/// A systemd user manager of the test's own (`systemd --user`), with its runtime directory,
/// HOME and XDG_CONFIG_HOME in a temporary directory, so units the test installs or starts
/// never touch a real session. `start` returns nil with a reason when none can run here
/// (no systemd, not root on a machine without systemd as PID 1, no cgroup access, ...).
///
/// On a machine where systemd is not PID 1, `systemd --user` refuses to start unless
/// /run/systemd/system exists, and the sandboxing options (ProtectHome=, ...) need the
/// /run/systemd/inaccessible nodes that PID 1 normally makes. As root the manager creates
/// what is missing and removes exactly that again in `stop()`.
final class UserManager {
    let directory: TemporaryDirectory
    let runtimeDirectory: String
    let home: String
    let configHome: String
    /// Where the manager looks for unit files.
    let unitDirectory: String
    private let process: SpawnedProcess
    private var created: [String]
    private var stopped = false

    /// For `systemctl --user` and `systemd-run --user` against this manager.
    var environment: [String: String] {
        var environment = Tool.baseEnvironment(home: home)
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return environment
    }

    static func start() -> (manager: UserManager?, skipReason: String?) {
        do {
            return (try UserManager(), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    private init() throws {
        guard let systemd = ["/usr/lib/systemd/systemd", "/lib/systemd/systemd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
              Locations.tool("systemctl") != nil else {
            throw TestFailure("no systemd binary (Debian package systemd)")
        }
        var created: [String] = []
        var cleanupOnFailure = true
        defer {
            if cleanupOnFailure { UserManager.removeCreated(created) }
        }
        if !FileManager.default.fileExists(atPath: "/run/systemd/system") {
            guard geteuid() == 0 else {
                throw TestFailure("systemd is not PID 1 and creating /run/systemd/system (which systemd --user needs) takes root")
            }
            guard mkdir("/run/systemd/system", 0o755) == 0 || errno == EEXIST else {
                throw TestFailure("cannot create /run/systemd/system: \(String(cString: strerror(errno)))")
            }
            created.append("/run/systemd/system")
        }
        if geteuid() == 0, !FileManager.default.fileExists(atPath: "/run/systemd/inaccessible") {
            if UserManager.makeInaccessibleNodes("/run/systemd/inaccessible") { created.append("/run/systemd/inaccessible") }
        }
        if !created.isEmpty {
            // A manager running as root makes these for DynamicUser= and the namespace
            // options; on a machine without systemd as PID 1 nobody else would.
            for path in ["/run/systemd/dynamic-uid", "/run/systemd/unit-root"] where !FileManager.default.fileExists(atPath: path) {
                created.append(path)
            }
        }

        directory = try TemporaryDirectory()
        chmod(directory.path, 0o755)  // a DynamicUser= service must reach its directories
        runtimeDirectory = try directory.makeDirectory("run", mode: 0o700)
        home = try directory.makeDirectory("home", mode: 0o755)
        configHome = try directory.makeDirectory("config", mode: 0o755)
        unitDirectory = try directory.makeDirectory("config/systemd/user", mode: 0o755)
        var environment = Tool.baseEnvironment(home: home)
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["XDG_CONFIG_HOME"] = configHome
        environment["SYSTEMD_LOG_LEVEL"] = "notice"
        process = try SpawnedProcess([systemd, "--user"], environment: environment, outputPath: directory.file("manager.log"))
        self.created = created

        // Running once `systemctl --user is-system-running` says so (degraded is fine).
        var state = ""
        let ready = eventually(timeout: 15, interval: 0.1) {
            if process.hasExited { return true }
            state = (try? systemctl(["is-system-running"], timeout: 5).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
            return state == "running" || state == "degraded"
        }
        if !ready || process.hasExited {
            let log = (try? String(contentsOfFile: directory.file("manager.log"), encoding: .utf8)) ?? ""
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
            directory.remove()
            throw TestFailure("systemd --user did not come up (\(process.exit.map { "\($0)" } ?? "state '\(state)'")) \(log.suffix(500))")
        }
        cleanupOnFailure = false
    }

    deinit { stop() }

    @discardableResult
    func systemctl(_ arguments: [String], timeout: Double = 20) throws -> ToolResult {
        try Tool.run(Locations.tool("systemctl") ?? "/usr/bin/systemctl", ["--user", "--no-pager"] + arguments,
                     environment: environment, timeout: timeout, scratch: directory)
    }

    /// One property of a unit, e.g. `property("ActiveState", of: "x.service")`.
    func property(_ name: String, of unit: String) -> String {
        let result = try? systemctl(["show", "-p", name, "--value", unit], timeout: 10)
        return result?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Stops every unit the test started, then the manager; removes what `init` created.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? systemctl(["exit"], timeout: 20)
        if process.wait(timeout: 10) == nil {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
        }
        UserManager.removeCreated(created)
        directory.remove()
    }

    /// Removes what this manager created, and only that: the two directories the manager
    /// itself makes only while they are empty (another manager may still use them).
    private static func removeCreated(_ paths: [String]) {
        for path in paths.reversed() {
            if path.hasSuffix("/dynamic-uid") || path.hasSuffix("/unit-root") {
                rmdir(path)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// The nodes PID 1 makes for InaccessiblePaths=, ProtectHome=, ProtectKernelLogs= ...:
    /// one of each file type, mode 0000.
    private static func makeInaccessibleNodes(_ base: String) -> Bool {
        guard mkdir(base, 0o755) == 0 else { return false }
        _ = mkdir(base + "/dir", 0)
        let file = open(base + "/reg", O_CREAT | O_WRONLY | O_CLOEXEC, 0)
        if file >= 0 { Glibc.close(file) }
        _ = mkfifo(base + "/fifo", 0)
        _ = mknod(base + "/chr", S_IFCHR, 0)
        _ = mknod(base + "/blk", S_IFBLK, 0)
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if sock >= 0 {
            _ = try? withUnixAddress(base + "/sock") { bind(sock, $0, $1) }
            Glibc.close(sock)
            chmod(base + "/sock", 0)
        }
        for name in ["dir", "reg", "fifo", "chr", "blk"] { chmod(base + "/" + name, 0) }
        return true
    }
}

/// Sends one-shot `ping`s and counts what happened, for the idle-exit tests.
struct HammerResult: CustomStringConvertible {
    var sent = 0
    var answered = 0
    var failures: [String] = []
    var description: String { "\(sent) sent, \(answered) answered, \(failures.count) failed" }
}

/// Bursts of one-shot requests from `clients` threads at once, separated by pauses drawn
/// from `pauses` (some shorter, most longer than the idle time, so requests arrive before,
/// during and after idle exits), for `duration` seconds.
func hammer(socketPath: String, duration: Double, burst: Int = 6, clients: Int = 3, pauses: ClosedRange<Double>) -> HammerResult {
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var result = HammerResult()
        func record(_ failure: String?) {
            lock.lock()
            defer { lock.unlock() }
            result.sent += 1
            if let failure { result.failures.append(failure) } else { result.answered += 1 }
        }
    }
    let tally = Tally()
    let end = monotonicSeconds() + duration
    while monotonicSeconds() < end {
        let group = DispatchGroup()
        for _ in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for _ in 0..<burst {
                    do {
                        let answer = try ask(socketPath, "ping", timeout: 5)
                        tally.record(answer == "pong\n" ? nil : "answered \(answer.debugDescription)")
                    } catch {
                        tally.record("\(error)")
                    }
                }
            }
        }
        group.wait()
        usleep(UInt32(Double.random(in: pauses) * 1_000_000))
    }
    return tally.result
}

/// The most events in any window of `window` seconds.
func maximumRate(_ times: [Double], window: Double) -> Int {
    let sorted = times.sorted()
    var best = 0
    var start = 0
    for end in sorted.indices {
        while sorted[end] - sorted[start] >= window { start += 1 }
        best = max(best, end - start + 1)
    }
    return best
}
