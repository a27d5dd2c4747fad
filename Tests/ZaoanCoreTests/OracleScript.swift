import Foundation
import Glibc
import Testing

/// One of the independent implementations under Tests/Oracles, run as a child process: the
/// tests start it, compute zaoan's side meanwhile, then read its answer. An oracle that is
/// missing or fails makes the test fail with its own words; nothing is skipped.
struct OracleScript {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/ZaoanCoreTests/OracleScript.swift
        return url.path
    }()
    /// Where scripts/test installs lunar-python (`pip install --target`), for Debian's python.
    static let pythonPackages = packageRoot + "/.build/oracle-python"
    /// Debian's interpreter, the one python3-ephem is built for.
    static let python = "/usr/bin/python3"

    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let outputPath: String
    private let errorPath: String
    let name: String

    /// Starts `Tests/Oracles/SCRIPT ARGUMENTS...` with Debian's python3.
    init(_ script: String, _ arguments: [String]) throws {
        name = script
        let tag = "\(getpid())-\(UUID().uuidString.prefix(8))"
        outputPath = NSTemporaryDirectory() + "/zaoan-oracle-\(tag).out"
        errorPath = NSTemporaryDirectory() + "/zaoan-oracle-\(tag).err"
        for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestFailure("\(Self.python) not found; scripts/test installs python3 and python3-ephem")
        }
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.packageRoot + "/Tests/Oracles/" + script] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = Self.pythonPackages
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let files = [FileHandle(forWritingAtPath: outputPath), FileHandle(forWritingAtPath: errorPath)]
        process.standardOutput = files[0]
        process.standardError = files[1]
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        // The test's copies are closed once the child has its own: Foundation keeps a Process
        // not waited for with waitUntilExit(), and the handles it holds, for the whole run.
        defer { for file in files { try? file?.close() } }  // the child writes to its copies
        try process.run()
    }

    /// Waits for the oracle and returns its output lines; throws if it failed or took longer
    /// than `timeout` seconds.
    func lines(timeout: Double = 120) throws -> [Substring] {
        defer { for path in [outputPath, errorPath] { unlink(path) } }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            throw TestFailure("\(name) did not finish in \(Int(timeout)) s")
        }
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw TestFailure("\(name) failed (status \(process.terminationStatus)): \(errors)")
        }
        if !errors.isEmpty { print(errors, terminator: "") }
        let output = try String(contentsOfFile: outputPath, encoding: .utf8)
        return output.split(separator: "\n")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
