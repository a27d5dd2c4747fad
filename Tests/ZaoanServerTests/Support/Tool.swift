import Foundation
import Glibc
import Testing
import ZaoanCore

/// A test precondition or observation that did not hold, said so a reader can act on it.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where things are: the package, the built `zaoan`, external tools.
enum Locations {
    /// The package root, from this file's path (Tests/ZaoanServerTests/Support/Tool.swift).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `zaoan` binary under test: `$ZAOAN_BIN`, else next to the running test bundle
    /// (the test target depends on the executable, so `swift build --build-tests` builds it
    /// there), else `.build/debug/zaoan`.
    static let zaoan: String = {
        if let explicit = ProcessInfo.processInfo.environment["ZAOAN_BIN"], !explicit.isEmpty {
            return explicit
        }
        var candidates: [String] = []
        if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((runner as NSString).deletingLastPathComponent + "/zaoan")
        }
        candidates.append((Bundle.main.bundlePath as NSString).deletingLastPathComponent + "/zaoan")
        candidates.append(packageRoot + "/.build/debug/zaoan")
        return candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            ?? packageRoot + "/.build/debug/zaoan"
    }()

    /// The service's binary, which `zaoan serve` and `zaoan check-config` exec: the
    /// `zaoan-server` beside `zaoan`.
    static var zaoanServer: String { (zaoan as NSString).deletingLastPathComponent + "/zaoan-server" }

    /// The build users run (scripts/run and packaging/install.sh build it: release, Swift
    /// runtime linked in): `$ZAOAN_RELEASE_BIN`, else `.build/release/zaoan` (the client;
    /// `zaoan-server` beside it). scripts/test builds it for the tests that measure what
    /// users get (memory, what the client links).
    static var releaseZaoan: String? {
        let path = ProcessInfo.processInfo.environment["ZAOAN_RELEASE_BIN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot + "/.build/release/zaoan"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The first executable called `name` on PATH (or the standard Debian directories).
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        return directories.map { $0 + "/" + name }.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    }

    /// Debian's OpenBSD netcat: the one that does not close after stdin EOF, which is the
    /// point of the one-shot protocol. `nc` may be another netcat, so prefer the explicit name.
    static var netcatOpenBSD: String? { tool("nc.openbsd") ?? tool("nc") }
}

/// A fresh private directory under /tmp, short enough for socket paths (sun_path is 108
/// bytes). Removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/zt.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw TestFailure("mkdtemp failed: \(String(cString: strerror(errno)))") }
        path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func makeDirectory(_ name: String, mode: mode_t = 0o700) throws -> String {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: Int(mode)])
        return full
    }

    func write(_ name: String, _ text: String) throws {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// What an external command did.
struct ToolResult: CustomStringConvertible {
    let status: Int32
    let stdout: Data
    let stderr: Data
    /// Wall time from launch to exit, in seconds.
    let elapsed: Double
    /// The command did not exit in time and was killed.
    let timedOut: Bool

    var output: String { String(decoding: stdout, as: UTF8.self) }
    var errorOutput: String { String(decoding: stderr, as: UTF8.self) }

    var description: String {
        "status \(status)\(timedOut ? " (killed after timeout)" : ""), \(String(format: "%.3f", elapsed)) s, stdout \(output.debugDescription), stderr \(errorOutput.debugDescription)"
    }
}

/// Runs external commands with a deadline, so a hang fails the test instead of blocking it.
enum Tool {
    /// A small, fixed environment: tests never see the real user's XDG directories or a
    /// NOTIFY_SOCKET / LISTEN_FDS of whatever runs the tests.
    static func baseEnvironment(home: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "LANG": "C.UTF-8",
            "TZ": "UTC",
        ]
    }

    static func run(
        _ executable: String, _ arguments: [String],
        stdin: Data? = nil, environment: [String: String], timeout: Double = 10,
        scratch: TemporaryDirectory
    ) throws -> ToolResult {
        let tag = UUID().uuidString.prefix(8)
        let inPath = scratch.file("in-\(tag)")
        let outPath = scratch.file("out-\(tag)")
        let errPath = scratch.file("err-\(tag)")
        try (stdin ?? Data()).write(to: URL(fileURLWithPath: inPath))
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { for path in [inPath, outPath, errPath] { unlink(path) } }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let inHandle = stdin == nil ? nil : FileHandle(forReadingAtPath: inPath)
        process.standardInput = inHandle ?? FileHandle.nullDevice
        let outHandle = try Process.outputFile(outPath)
        let errHandle = try Process.outputFile(errPath)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let started = Date()
        try process.run(handingOver: [inHandle, outHandle, errHandle].compactMap { $0 })
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let elapsed = Date().timeIntervalSince(started)
        return ToolResult(
            status: process.terminationStatus,
            stdout: FileManager.default.contents(atPath: outPath) ?? Data(),
            stderr: FileManager.default.contents(atPath: errPath) ?? Data(),
            elapsed: elapsed, timedOut: timedOut)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Double = 5, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(UInt32(interval * 1_000_000))
    }
}

/// Set by scripts/sanitize when the suite runs under AddressSanitizer or ThreadSanitizer.
/// A test whose point is the service's resident memory, or that runs the service under
/// strace (ptrace and the sanitizers' shadow memory do not mix), cannot mean anything there
/// and skips itself, saying why; no test is loosened instead.
enum Sanitizer {
    static let active: String? = ProcessInfo.processInfo.environment["ZAOAN_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 }

    /// `.disabled` under a sanitizer, with the reason printed in the test output.
    static func skipped(_ why: String) -> ConditionTrait {
        .disabled(if: active != nil, "skipped under \(active ?? "a") sanitizer: \(why)")
    }
}

/// Whole seconds (or milliseconds) from a test's Double, never trapping: the service's own
/// clamp (`Int(clampingSeconds:)`: NaN is 0, ±2^62 at most).
func wholeNumber(_ value: Double) -> Int { Int(clampingSeconds: value) }

/// poll(2)'s timeout for `seconds` from now: milliseconds, at least 1, at most Int32.max.
func pollMilliseconds(_ seconds: Double) -> Int32 {
    Int32(clamping: wholeNumber(seconds * 1000) + 1)
}

/// SO_RCVTIMEO/SO_SNDTIMEO for `seconds` (0 and below: 1 µs, since 0 would mean forever).
func socketTimeout(_ seconds: Double) -> timeval {
    let micros = max(1, wholeNumber(seconds * 1_000_000))
    return timeval(tv_sec: micros / 1_000_000, tv_usec: micros % 1_000_000)
}

/// A /proc file of process `pid`, read to its end. Foundation's `String(contentsOfFile:)`
/// trusts the size procfs reports (0) and returns one page: the first 4 KB of a 19 KB maps
/// file, where a library loaded later would not be seen.
func procFile(_ pid: pid_t, _ name: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/\(name)") else { return "" }
    defer { try? handle.close() }  // read-only: nothing is lost if closing fails
    var data = Data()
    while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {  // an error ends the reading: what came so far is checked
        data.append(chunk)
    }
    return String(decoding: data, as: UTF8.self)
}
