import Foundation
import Glibc

/// A server the test runs itself, on a free port of 127.0.0.1, with its stdout and stderr in
/// a log file in the test's directory: Radicale, xandikos, Python's http.server. Never a
/// system service or its port. Stopped by `stop()`, or when released.
final class LoopbackServer {
    let name: String
    let port: UInt16
    let logPath: String
    private let process: Process
    var url: String { "http://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }

    /// Starts `executable` with the arguments `arguments(port)` gives for a free port, and
    /// waits until it accepts connections there. A server that exits first (another process
    /// took the port between the look and the bind) is tried again on another port, up to
    /// `attempts` times; throws with the log if it never listens.
    init(name: String, executable: String, environment: [String: String], in world: TemporaryDirectory,
         timeout: Double = 60, attempts: Int = 3, arguments: (UInt16) throws -> [String]) throws {
        self.name = name
        logPath = world.file("\(name).log")
        var failures: [String] = []
        for _ in 0..<max(1, attempts) {
            let port = try Self.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = try arguments(port)
            process.environment = environment
            process.currentDirectoryURL = URL(fileURLWithPath: world.path)
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            let output = FileHandle(forWritingAtPath: logPath)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = output
            try process.run()
            try? output?.close()
            let listening = eventually(timeout: timeout, interval: 0.1) { !process.isRunning || Self.accepts(port) }
            if listening, process.isRunning {
                self.port = port
                self.process = process
                return
            }
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            Self.stop(process)
            failures.append("port \(port): \(process.isRunning ? "still running, not listening within \(timeout) s" : "exited \(process.terminationStatus)"); log: \(log.suffix(1500))")
        }
        throw TestFailure("\(name) did not listen on 127.0.0.1: \(failures.joined(separator: "; "))")
    }

    /// SIGTERM, then SIGKILL if it is still there after 10 s.
    func stop() { Self.stop(process) }

    deinit { stop() }

    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !eventually(timeout: 10, interval: 0.05, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
            _ = eventually(timeout: 10) { !process.isRunning }
        }
    }

    /// A port the kernel just handed out on 127.0.0.1 (bound to 0, read back, released).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("binding a free port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
