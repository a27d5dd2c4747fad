import Foundation
import Glibc
import Testing

/// Another account on the machine, attacking the service: Support/neighbour.py run as `uid`
/// through `setpriv` (util-linux), with Debian's /usr/bin/python3. Needs root to switch uid.
final class Neighbour {
    struct Report: Decodable {
        var answers: [String: Int]
        var busy: [String]?
        /// `fill-pipe`: bytes written into the handed-over pipe until it was full.
        var filled: Int?
    }

    static let script = Locations.packageRoot + "/Tests/ZaoanServerTests/Support/neighbour.py"
    static let python = "/usr/bin/python3"

    /// Why attacks by another uid cannot run here, or nil.
    static var unavailable: String? {
        if geteuid() != 0 { return "needs root to run clients as another uid (setpriv)" }
        if Locations.tool("setpriv") == nil { return "setpriv (util-linux) is missing" }
        if !FileManager.default.isExecutableFile(atPath: python) { return "\(python) is missing" }
        return nil
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts `neighbour.py ARGUMENTS...` as `uid` (and gid `uid`, no other groups).
    init(uid: uid_t, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Locations.tool("setpriv")!)
        process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.python, Self.script] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// The JSON line the script prints when its attack is in place (or done).
    func report(timeout: Double = 60) throws -> Report {
        let handle = output.fileHandleForReading
        var line = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while !line.contains(0x0A) {
            guard Date() < deadline else { throw TestFailure("the neighbour printed nothing within \(timeout) s") }
            var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { throw TestFailure("the neighbour exited without a report (status \(process.isRunning ? -1 : process.terminationStatus))") }
            line.append(chunk)
        }
        return try JSONDecoder().decode(Report.self, from: line.prefix(while: { $0 != 0x0A }))
    }

    var isRunning: Bool { process.isRunning }

    /// Closes the script's stdin: a `hold` lets its connections go and exits.
    func release() {
        try? input.fileHandleForWriting.close()
        _ = eventually(timeout: 10) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { release() }
}

extension TestService {
    /// Opens the service to other accounts, as the system instance's 0666 socket is: the
    /// directory becomes 0755 and the socket 0666.
    func openToEveryone() {
        chmod(directory.path, 0o755)
        chmod(socketPath, 0o666)
    }

    /// The `key: value` lines of `stats`.
    func stats() throws -> [String: String] {
        var values: [String: String] = [:]
        for line in try ask("stats").split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    /// Resident memory of the service, in bytes.
    var residentBytes: Int? { statusBytes("VmRSS:") }

    /// The resident memory that is not a file's: what the service allocated (RssAnon). The
    /// rest, its own code and data pages, comes and goes with what it runs and with the page
    /// cache, by megabytes, whatever it reads.
    var anonymousResidentBytes: Int? { statusBytes("RssAnon:") }

    private func statusBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}
