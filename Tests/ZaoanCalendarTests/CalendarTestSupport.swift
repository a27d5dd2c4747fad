import Foundation
import Testing
import ZaoanTime
@testable import ZaoanCalendar

/// Every calendar test runs inside this suite, one at a time: libical keeps global state
/// (icalerrno, its zone cache) and the module is meant for one thread.
@Suite(.serialized) struct CalendarTests {}

enum Samples {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.path + "/Samples"
    }()

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static func document(_ name: String) throws -> CalendarDocument {
        try CalendarDocument(parsing: bytes(name), source: name)
    }
}

/// Unix seconds of a UTC date-time, by glibc's timegm (not the module's own arithmetic).
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    return Int64(timegm(&parts))
}

func wall(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!
}

func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDay {
    CivilDay.inCalendar(year: year, month: month, day: day)!
}

func window(_ from: Int64, _ to: Int64) throws -> CalendarWindow {
    try CalendarWindow(from: from, to: to)
}

/// The oracle (Oracle/expand.py) run with Debian's python3. Missing packages make the
/// test fail, saying what to install; nothing is skipped.
enum CalendarOracle {
    static let python = "/usr/bin/python3"
    static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.path + "/Oracle/expand.py"
    }()

    static func run(_ arguments: [String]) throws -> [Substring] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw OracleFailure("\(python) not found; scripts/test installs python3-recurring-ical-events and python3-dateutil")
        }
        let check = try launch(["-c", "import dateutil.rrule, icalendar, recurring_ical_events, zoneinfo"])
        guard check.status == 0 else {
            throw OracleFailure("the oracle's modules are missing (\(check.errors.trimmingCharacters(in: .whitespacesAndNewlines))); install python3-recurring-ical-events and python3-dateutil (scripts/test does)")
        }
        let result = try launch([script] + arguments)
        guard result.status == 0 else { throw OracleFailure("expand.py \(arguments.joined(separator: " ")) failed: \(result.errors)") }
        return result.output.split(separator: "\n")
    }

    /// Tests/Oracles/SCRIPT, with the packages scripts/ensure-oracles installs from PyPI
    /// (lunar-python) on the path.
    static func runLunar(_ script: String, _ arguments: [String]) throws -> [Substring] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }  // Tests/ZaoanCalendarTests/CalendarTestSupport.swift
        let result = try launch([root.path + "/Tests/Oracles/" + script] + arguments, pythonPath: root.path + "/.build/oracle-python")
        guard result.status == 0 else { throw OracleFailure("\(script) failed: \(result.errors) (scripts/ensure-oracles installs lunar-python)") }
        return result.output.split(separator: "\n")
    }

    private static func launch(_ arguments: [String], pythonPath: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8"]
        if let pythonPath { process.environment?["PYTHONPATH"] = pythonPath }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would otherwise block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

struct OracleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Resident set size of this process, in KiB (from /proc/self/status).
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}
