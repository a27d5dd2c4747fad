import Foundation
import Glibc
import Testing

/// A `zaoan` that keeps running (`watch`, `bar`): its stdout is read line by line as it
/// arrives, its stdin takes click events, and it is killed if the test forgets it.
final class RunningZaoan {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let errorPath: String
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []

    /// - Parameters:
    ///   - binary: the `zaoan` to run (the release build, to measure it).
    ///   - pipeCapacity: shrink the stdout pipe to this many bytes (F_SETPIPE_SZ), so a
    ///     longer write waits for the test to read.
    init(_ arguments: [String], environment: [String: String], scratch: TemporaryDirectory,
         binary: String = Locations.zaoan, pipeCapacity: Int32? = nil) throws {
        errorPath = scratch.file("err-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        if let pipeCapacity {
            let F_SETPIPE_SZ: Int32 = 1031  // <linux/fcntl.h>
            let granted = fcntl(output.fileHandleForWriting.fileDescriptor, F_SETPIPE_SZ, pipeCapacity)
            guard granted >= 0 else { throw TestFailure("F_SETPIPE_SZ \(pipeCapacity): errno \(errno)") }
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardInput = input
        let errors = try Process.outputFile(errorPath)
        process.standardError = errors
        try process.run(handingOver: [errors])
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()  // also lets Foundation release the Process and its pipes
    }

    var errorText: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The next line of stdout, or nil if none arrives within `timeout` seconds (or at EOF).
    func nextLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                lines.append(line)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, pollMilliseconds(left)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// True once stdout has something to read (or is closed), within `timeout` seconds;
    /// reads nothing.
    func waitForOutput(timeout: Double) -> Bool {
        if !buffer.isEmpty { return true }
        var entry = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if poll(&entry, 1, pollMilliseconds(deadline.timeIntervalSinceNow)) > 0 { return true }
        }
        return false
    }

    /// Everything left on stdout until it closes (or `timeout` seconds pass).
    func readToEnd(timeout: Double) -> [UInt8] {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        var all = buffer
        buffer.removeAll()
        while deadline.timeIntervalSinceNow > 0 {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, pollMilliseconds(deadline.timeIntervalSinceNow)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            all.append(contentsOf: chunk[0..<count])
        }
        return all
    }

    /// Lines until one satisfies `condition`, within `timeout` seconds; nil if none does.
    func line(within timeout: Double, where condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: deadline.timeIntervalSinceNow) {
            if condition(line) { return line }
        }
        return nil
    }

    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// SIGTERM; true if it exits within `timeout` seconds.
    func terminate(timeout: Double = 5) -> Bool {
        signal(SIGTERM)
        return eventually(timeout: timeout) { !process.isRunning }
    }
}
