import Foundation
import Glibc
import Testing

/// The shipped copy-paste snippets under packaging/integrations. Tests read the command
/// each one runs out of the file itself, so a snippet that changes is tested as shipped.
enum Snippet {
    static let directory = Locations.packageRoot + "/packaging/integrations"

    static func path(_ relative: String) -> String { directory + "/" + relative }

    static func text(_ relative: String) throws -> String {
        do {
            return try String(contentsOfFile: path(relative), encoding: .utf8)
        } catch {
            throw TestFailure("cannot read the snippet \(path(relative)): \(error)")
        }
    }

    /// The lines that are not comments (`#` or `;` first) or blank, trimmed.
    static func settings(_ relative: String) throws -> [String] {
        try text(relative).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix(";") }
    }

    /// The value of the first `key = value` / `key=value` setting (INI-like files), or of
    /// `key value` when `separator` is a space.
    static func value(of key: String, in relative: String, separator: Character = "=") throws -> String {
        for line in try settings(relative) {
            guard line.hasPrefix(key) else { continue }
            let rest = line.dropFirst(key.count)
            let trimmed = rest.drop(while: { $0 == " " || $0 == "\t" })
            if separator == " " {
                guard rest.first == " " || rest.first == "\t" else { continue }
                return String(trimmed)
            }
            guard trimmed.first == separator else { continue }
            return trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
        }
        throw TestFailure("no '\(key)' setting in \(path(relative))")
    }

    /// A JSON-with-comments file (waybar's config.jsonc) as JSON: `//` comments outside
    /// strings removed.
    static func jsonc(_ relative: String) throws -> Any {
        var out = ""
        var inString = false
        var escaped = false
        var characters = Array(try text(relative))
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if inString {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "/" && index + 1 < characters.count && characters[index + 1] == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            } else {
                if character == "\"" { inString = true }
                out.append(character)
            }
            index += 1
        }
        characters.removeAll()
        do {
            return try JSONSerialization.jsonObject(with: Data(out.utf8))
        } catch {
            throw TestFailure("\(path(relative)) is not JSON once its // comments are removed: \(error)")
        }
    }
}

/// A world for one integration test: a real `zaoan serve` on `$XDG_RUNTIME_DIR/zaoan.sock`
/// (so zaoan, the snippets and the shells find it the default way), an environment whose
/// PATH starts with the zaoan under test, and a trap directory that hostile titles aim
/// their `touch` commands at.
final class IntegrationWorld: @unchecked Sendable {
    let service: TestService
    var environment: [String: String]
    let trap: String
    var scratch: TemporaryDirectory { service.directory }
    var socketPath: String { service.socketPath }

    /// One greeting for the whole day, so that a test that crosses a row boundary (18:00 …)
    /// still sees the greeting it read at the start.
    static let steadyConfig = #"{"greetings": {"00:00": "早安"}}"#

    init(arguments: [String] = ["--timezone", "Asia/Shanghai", "--language", "zh"], config: String? = steadyConfig,
         socket: TestService.Configuration.Socket = .resolvedByZaoan) throws {
        var configuration = TestService.Configuration()
        configuration.socket = socket
        configuration.arguments = arguments
        configuration.config = config
        service = try TestService.start(configuration)
        trap = try service.directory.makeDirectory("t")
        var environment = service.environment
        let binaries = (Locations.zaoan as NSString).deletingLastPathComponent
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TERM"] = "xterm-256color"
        self.environment = environment
    }

    /// Adds a room on the service. `title` is sent exactly, quoted.
    func addRoom(id: String, start: String, title: String) throws {
        let answer = try ask(socketPath, "live add \(id) \(start) \(Hostile.quoted(title))")
        guard answer == "ok\n" else { throw TestFailure("live add \(id) answered \(answer.debugDescription)") }
    }

    /// Adds the hostile room, starting in a few minutes (so it is the next room and `soon`),
    /// and returns its title.
    @discardableResult
    func addHostileRoom(id: String = "evil", start: String = "+3m") throws -> String {
        let title = Hostile.title(trap: trap)
        try addRoom(id: id, start: start, title: title)
        return title
    }

    /// Files the hostile titles' commands would have created.
    var trapped: [String] { (try? FileManager.default.contentsOfDirectory(atPath: trap)) ?? [] }

    /// Runs `command` with /bin/sh -c, the way bars run their commands.
    func sh(_ command: String, stdin: String? = nil, timeout: Double = 10) throws -> ToolResult {
        try Tool.run("/bin/sh", ["-c", command], stdin: stdin.map { Data($0.utf8) }, environment: environment,
                     timeout: timeout, scratch: scratch)
    }

    func run(_ executable: String, _ arguments: [String], stdin: String? = nil,
             environment extra: [String: String] = [:], timeout: Double = 10) throws -> ToolResult {
        try Tool.run(executable, arguments, stdin: stdin.map { Data($0.utf8) },
                     environment: environment.merging(extra) { $1 }, timeout: timeout, scratch: scratch)
    }

    /// Starts `command` with /bin/sh -c in its own process group, stdout read line by line.
    func stream(_ command: String) throws -> StreamingProcess {
        try StreamingProcess(["/bin/sh", "-c", command], environment: environment,
                             stderrPath: scratch.file("stream-\(UUID().uuidString.prefix(8)).err"))
    }
}

/// The hostile room title and what it must look like wherever it lands.
enum Hostile {
    /// One title that carries something for every consumer: shell command substitution,
    /// zsh and bash prompt escapes, tmux styles, variables and jobs, polybar tags and click
    /// actions, Pango markup, a terminal title escape (OSC 0 ... BEL), quotes and history
    /// expansion. Under 256 bytes (the title limit) with a /tmp/zt.XXXXXX/t trap.
    static func title(trap: String) -> String {
        "$(touch \(trap)/1) `touch \(trap)/2` %F{red}R%f \\[\\e[31m\\]B #[fg=red]T #{host} #(touch \(trap)/3) B## "
            + "%{F#f00}%{A1:touch \(trap)/4:}P%{A} <b>&amp; \u{1B}]0;pwned\u{07} \"dq\" 'sq' !! ${HOME}"
    }

    /// The title as zaoan shows it in plain text: the control characters as their visible
    /// Control Pictures (written out here, not taken from ZaoanCore).
    static func visible(_ title: String) -> String {
        title.replacingOccurrences(of: "\u{1B}", with: "\u{241B}").replacingOccurrences(of: "\u{07}", with: "\u{2407}")
    }

    /// The title as `--format polybar` shows it: control characters in caret notation.
    static func caretNotation(_ title: String) -> String {
        title.replacingOccurrences(of: "\u{1B}", with: "^[").replacingOccurrences(of: "\u{07}", with: "^G")
    }

    /// `text` as one single-quoted shell word.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Pango markup escaping, written out independently.
    static func pango(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&#39;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A request word that carries `text` exactly: in double quotes, `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Raw control bytes that must never reach a terminal, bar or prompt.
    static func controlBytes(in text: String) -> [UInt8] {
        Array(text.utf8).filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
    }
}

/// A command that keeps running (a watch, a bar): its own process group, stdout read line by
/// line with deadlines, stdin a socket the test writes to (so a dead reader never raises
/// SIGPIPE in the test process). `stop()` ends the whole group, children included.
final class StreamingProcess: @unchecked Sendable {
    let pid: pid_t
    let stderrPath: String
    private let output: Int32
    private var input: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false
    private var stopped = false
    private(set) var exitStatus: Int32?

    init(_ arguments: [String], environment: [String: String], stderrPath: String) throws {
        self.stderrPath = stderrPath
        // Socket pairs rather than pipes: Glibc's module has no pipe2 (for O_CLOEXEC, which
        // matters while other tests spawn processes on other threads), and send() can say
        // MSG_NOSIGNAL.
        var outPipe: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &outPipe) == 0 else {
            throw TestFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        var inPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &inPair) == 0 else {
            throw TestFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        Self.closeFrom(3, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        Glibc.close(outPipe[1])
        Glibc.close(inPair[1])
        guard result == 0 else {
            Glibc.close(outPipe[0])
            Glibc.close(inPair[0])
            throw TestFailure("posix_spawn \(arguments): \(String(cString: strerror(result)))")
        }
        pid = child
        output = outPipe[0]
        input = inPair[0]
    }

    deinit { stop() }

    /// Adds "close every descriptor from `lowest` up" to `actions` (glibc 2.34's
    /// posix_spawn_file_actions_addclosefrom_np, looked up at run time: the Glibc module does
    /// not declare it). Foundation's Process passes the child one end of a socket pair and
    /// sees the child end only when every holder of that end has closed it; while another
    /// test is spawning, that end is open without close-on-exec, and a long-lived child of
    /// ours (a tmux server) that inherited it would hold up that test until it exits.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
    }

    /// Waits until the command exits; false if it still runs after `timeout` seconds.
    func waitForExit(timeout: Double) -> Bool { eventually(timeout: timeout) { hasExited } }

    var errorText: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Everything read so far that is not yet a full line.
    var pendingText: String { String(decoding: buffer, as: UTF8.self) }

    /// The next line without its LF; nil once the command closed stdout with nothing left.
    /// Throws when no full line arrives within `timeout` seconds.
    func readLine(timeout: Double) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw TestFailure("no line within \(timeout) s; pending \(pendingText.debugDescription); stderr \(errorText.debugDescription)")
            }
            fill(waiting: remaining)
        }
    }

    /// Every line that arrives within `duration` seconds (fewer if stdout closes).
    func lines(for duration: Double) -> [String] {
        let deadline = Date().addingTimeInterval(duration)
        var lines: [String] = []
        while true {
            if let line = try? readLine(timeout: max(0.001, deadline.timeIntervalSinceNow)) {
                lines.append(line)
                if Date() >= deadline { return lines }
            } else {
                return lines
            }
        }
    }

    /// The raw bytes received so far plus whatever comes within `duration`.
    private func fill(waiting seconds: Double) {
        var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(min(seconds, 60) * 1000) + 1)
        guard ready > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
        } else if count == 0 || errno != EINTR {
            atEnd = true
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(input, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw TestFailure("writing to the command's stdin: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Whether the leader has exited. It is not reaped here, so its pid (the group id) cannot
    /// be reused while `stop()` may still signal the group.
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return result == 0 && info.si_signo != 0 || (result < 0 && errno == ECHILD)
    }

    /// SIGTERM to the whole process group, SIGKILL after 2 s (and to any member that outlives
    /// the leader, like the other side of a pipeline); then reaps the leader.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if !hasExited {
            kill(-pid, SIGTERM)
            _ = eventually(timeout: 2) { hasExited }
        }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        if waitpid(pid, &status, 0) == pid { exitStatus = status }
        Glibc.close(output)
        Glibc.close(input)
    }
}

/// A tmux server of the test's own (its socket in the test's directory, no config file), for
/// running a shell in a real terminal or drawing a status line. `kill()` ends it; it holds
/// the world, so the directory with its socket outlives it.
final class Tmux: @unchecked Sendable {
    let socket: String
    let environment: [String: String]
    let world: IntegrationWorld
    private var serverPID: pid_t?

    static var executable: String? { Locations.tool("tmux") }

    init(_ name: String, world: IntegrationWorld, environment extra: [String: String] = [:]) throws {
        guard Tmux.executable != nil else {
            throw TestFailure("tmux not found; install the Debian package tmux")
        }
        socket = world.scratch.file(name)
        environment = world.environment.merging(extra) { $1 }
        self.world = world
    }

    deinit { kill() }

    @discardableResult
    func run(_ arguments: [String], timeout: Double = 10) throws -> ToolResult {
        let result = try Tool.run(Tmux.executable!, ["-S", socket, "-f", "/dev/null"] + arguments,
                                  environment: environment, timeout: timeout, scratch: world.scratch)
        guard result.status == 0 else { throw TestFailure("tmux \(arguments.joined(separator: " ")): \(result)") }
        return result
    }

    /// A detached session of `width`×`height` running `command` (a shell command line). This
    /// starts the server, which stays behind as a daemon, so it is spawned without
    /// Foundation's Process (see `StreamingProcess.closeFrom`), and with no blocked signals.
    func start(_ command: String, width: Int = 220, height: Int = 12) throws {
        let client = try StreamingProcess(
            [Tmux.executable!, "-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command],
            environment: environment, stderrPath: world.scratch.file("tmux-start.err"))
        defer { client.stop() }
        guard client.waitForExit(timeout: 10) else { throw TestFailure("tmux new-session did not return within 10 s") }
        client.stop()
        guard let status = client.exitStatus, status == 0 else {
            throw TestFailure("tmux new-session failed (status \(client.exitStatus.map(String.init) ?? "?")): \(client.errorText)")
        }
        serverPID = pid_t(try display("#{pid}"))
    }

    /// The visible screen of the session's pane; with `escapes`, SGR sequences for colours
    /// and attributes are included (capture-pane -e).
    func screen(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p"] + (escapes ? ["-e"] : [])).output
    }

    /// Polls the screen until `condition` holds; returns the last screen either way.
    func waitForScreen(timeout: Double = 8, escapes: Bool = false, _ condition: (String) -> Bool) -> String {
        var last = ""
        _ = eventually(timeout: timeout, interval: 0.1) {
            last = (try? screen(escapes: escapes)) ?? last
            return condition(last)
        }
        return last
    }

    func display(_ format: String) throws -> String {
        try run(["display-message", "-p", format]).output.trimmingCharacters(in: .newlines)
    }

    func sendKeys(_ keys: String...) throws { try run(["send-keys"] + keys) }

    /// kill-server; if the server is still there after that (it did not answer), SIGKILL to
    /// the pid it reported, once /proc confirms it is still this server.
    func kill() {
        _ = try? Tool.run(Tmux.executable!, ["-S", socket, "kill-server"], environment: environment, timeout: 5,
                          scratch: world.scratch)
        guard let pid = serverPID else { return }
        serverPID = nil
        let ours = {
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return String(decoding: command, as: UTF8.self).contains(self.socket)
        }
        if !eventually(timeout: 2, { !ours() }) { Glibc.kill(pid, SIGKILL) }
    }
}

/// The expected-or-hostile checks shared by every integration.
enum IntegrationCheck {
    /// Fails the test when `text` carries a raw control byte (ESC, BEL, ...) other than LF.
    static func noControlBytes(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Hostile.controlBytes(in: text)
        #expect(bytes.isEmpty, "\(what) carries raw control bytes \(bytes): \(text.debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// Fails the test when any hostile command ran.
    static func nothingRan(_ world: IntegrationWorld, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(world.trapped.isEmpty, "\(what): a room title ran commands, creating \(world.trapped) in \(world.trap)",
                sourceLocation: sourceLocation)
    }

    /// A line of a JSON stream as an object, or a recorded issue.
    static func object(_ line: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            Issue.record("\(what): not a JSON object: \(line.debugDescription)", sourceLocation: sourceLocation)
            return nil
        }
        return object
    }
}
