import Foundation
import Glibc
import Testing

/// Helpers for the live-room tests (issue 3): expected countdown texts computed on the test's
/// side, multi-line answers, `stats`, a service's memory, clients run as other users, and a
/// state directory that outlives one `zaoan serve`.
enum Live {
    // MARK: - Expected texts

    /// `01:02:03`, or `2天 03:04:05` / `2d 03:04:05` — written out here independently of
    /// ZaoanCore, so a wrong format in the service cannot make its own expectation.
    static func clock(_ seconds: Int, zh: Bool) -> String {
        let days = seconds / 86_400
        let rest = seconds % 86_400
        let hms = String(format: "%02d:%02d:%02d", rest / 3600, rest % 3600 / 60, rest % 60)
        return days > 0 ? "\(days)" + (zh ? "天 " : "d ") + hms : hms
    }

    static func startsIn(_ seconds: Int, zh: Bool) -> String { (zh ? "距开播 " : "starts in ") + clock(seconds, zh: zh) }
    static func liveFor(_ seconds: Int, zh: Bool) -> String { (zh ? "直播中 " : "live ") + clock(seconds, zh: zh) }
    static func ended(zh: Bool) -> String { zh ? "已结束" : "ended" }

    /// Seconds in `HH:MM:SS` or `Nd HH:MM:SS` / `N天 HH:MM:SS`; nil if it is not that shape.
    static func seconds(ofClock text: Substring) -> Int? {
        var days = 0
        var rest = text
        if let space = text.firstIndex(of: " ") {
            let dayWord = text[..<space]
            guard dayWord.hasSuffix("天") || dayWord.hasSuffix("d"), let number = Int(dayWord.dropLast()) else { return nil }
            days = number
            rest = text[text.index(after: space)...]
        }
        let parts = rest.split(separator: ":")
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
              let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]) else { return nil }
        return days * 86_400 + h * 3600 + m * 60 + s
    }

    // MARK: - Time

    /// Unix seconds of a wall-clock text `yyyy-MM-dd HH:mm:ss` in `zone`.
    static func unixSeconds(_ text: String, zone: String) throws -> Int {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        guard let date = formatter.date(from: text) else { throw TestFailure("'\(text)' is not yyyy-MM-dd HH:mm:ss") }
        return Int(date.timeIntervalSince1970)
    }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: - Answers

    /// The lines of a multi-line answer, without the empty line that ends it.
    static func lines(_ answer: String) throws -> [String] {
        guard answer.hasSuffix("\n\n") || answer == "\n" else {
            throw TestFailure("not a multi-line answer (should end in an empty line): \(answer.debugDescription)")
        }
        if answer == "\n" { return [] }
        return answer.dropLast(2).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `stats` as key → value.
    static func stats(_ path: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try lines(ask(path, "stats")) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return result
    }

    /// `live list` as rows of tab-separated columns: id, local start, end or -, countdown, title.
    /// Also splits at U+2409 (␉, what a tab becomes when the whole line is made "visible"),
    /// so that tests about other things still read the rows; `LiveCountdownTests` checks
    /// the real separator.
    static func list(_ path: String) throws -> [[String]] {
        let answer = try ask(path, "live list")
        let rows = try lines(answer).map {
            $0.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\t" || $0 == "\u{2409}" }).map(String.init)
        }
        guard rows.allSatisfy({ $0.count == 5 }) else {
            throw TestFailure("live list rows should have 5 tab-separated columns: \(answer.debugDescription)")
        }
        return rows
    }

    // MARK: - Connections

    /// Waits until `path` answers ping.
    static func waitUntilServing(_ path: String, timeout: Double = 10, running: () -> Bool) -> Bool {
        eventually(timeout: timeout) {
            (try? ask(path, "ping", timeout: 1)) == "pong\n" || !running()
        } && running()
    }

    /// Reads what `client` is sent until the service closes it or `timeout` passes: whether
    /// it closed, and the lines that came first.
    static func waitForClose(_ client: RawClient, within timeout: Double) -> (closed: Bool, lines: [String]) {
        let deadline = now + timeout
        var lines: [String] = []
        while now < deadline {
            switch client.peerState(within: max(0, deadline - now)) {
            case .closed: return (true, lines)
            case .open: return (false, lines)
            case .sentData:
                guard let line = try? client.readLine() else { return (true, lines) }
                lines.append(line)
            }
        }
        return (false, lines)
    }

    // MARK: - The process

    /// The resident set of `pid` in KiB (VmRSS in /proc/PID/status).
    static func residentKiB(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw TestFailure("no VmRSS in /proc/\(pid)/status")
        }
        return kib
    }

    // MARK: - Other users

    /// Runs `executable` as `user`:`group` with no supplementary groups (setpriv), as the tests
    /// run as root.
    static func run(as user: String, group: String, _ executable: String, _ arguments: [String],
                    stdin: String? = nil, scratch: TemporaryDirectory) throws -> ToolResult {
        guard let setpriv = Locations.tool("setpriv") else { throw TestFailure("setpriv not found (util-linux)") }
        var environment = Tool.baseEnvironment(home: "/nonexistent")
        environment["TZ"] = "UTC"
        return try Tool.run(setpriv, ["--reuid=\(user)", "--regid=\(group)", "--clear-groups", executable] + arguments,
                            stdin: stdin.map { Data($0.utf8) }, environment: environment, timeout: 10, scratch: scratch)
    }

    /// A fresh directory under /tmp that other users may traverse (mode 0711) but not list,
    /// for a socket they should reach.
    static func traversableDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        guard chmod(directory.path, 0o711) == 0 else { throw TestFailure("chmod \(directory.path): \(String(cString: strerror(errno)))") }
        return directory
    }

    /// Whether the tests run as root, which the rights tests need to switch users.
    static var isRoot: Bool { geteuid() == 0 }
}

/// A state directory and socket path that several `zaoan serve` runs share, one after the
/// other: the restart and crash tests.
final class LiveWorld: @unchecked Sendable {
    let directory: TemporaryDirectory
    var stateDirectory: String { directory.file("state") }
    var statePath: String { stateDirectory + "/state.json" }
    var socketPath: String { directory.file("s") }
    let config: String?
    let arguments: [String]

    init(config: String? = nil, arguments: [String] = ["--timezone", "Asia/Shanghai", "--language", "zh"]) throws {
        directory = try TemporaryDirectory()
        self.config = config
        self.arguments = arguments
    }

    deinit { directory.remove() }

    /// A new `zaoan serve` on the shared socket, with STATE_DIRECTORY pointing at the shared
    /// state (as systemd's StateDirectory= would).
    func start() throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.socket = .path(socketPath)
        configuration.environment["STATE_DIRECTORY"] = stateDirectory
        configuration.config = config
        configuration.arguments = arguments
        // After SIGKILL the old socket file stays behind (zaoan must replace it); wait with
        // the client that never closes a failed descriptor twice.
        configuration.waitUntilReady = false
        let service = try TestService.start(configuration)
        guard Live.waitUntilServing(socketPath, running: { service.isRunning }) else {
            throw TestFailure("zaoan did not answer ping on \(socketPath); stderr: \(service.stderrText)")
        }
        return service
    }

    /// Parses state.json; throws if it is not a JSON object.
    func stateFile() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: statePath))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("\(statePath) is JSON but not an object: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }
}

/// Thread-safe bookkeeping for tests that run clients on several threads.
final class LiveLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
