import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// GNU `date` as the oracle for the strftime engine and the zone reader: `date -d @T +FORMAT`
/// with `TZ` set to the zone and `LC_ALL` to the language's locale (`en_US.UTF-8`,
/// `zh_CN.UTF-8`, `ja_JP.UTF-8`, ...: `localeName(of:)`), each compiled with
/// `localedef` from Debian's `locales` package into a directory of the tests' own (`LOCPATH`;
/// nothing system-wide). Many formats go into one `date` call, joined by a marker.
enum DateOracle {
    /// Between the formats of one `date` call; no conversion writes it.
    static let marker = "\u{1}\u{2}"

    /// The compiled locales, made once per test process (reused across runs).
    static func localeDirectory() throws -> String {
        try compiledLocales.get()
    }

    private static let compiledLocales = Result(catching: { () throws(TestLocaleFailure) -> String in try compileLocales() })

    struct TestLocaleFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `LC_ALL` for a language: its glibc locale in UTF-8.
    static func localeName(of language: Language) -> String {
        language.localeIdentifier + ".UTF-8"
    }

    private static func compileLocales() throws(TestLocaleFailure) -> String {
        let names = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0.localeIdentifier, localeName(of: $0)) })
        // Named by how many locales it holds, so a directory of an older run with fewer is
        // not taken for this one.
        let final = "/tmp/zaoan-test-locales-\(getuid())-\(names.count)"
        /// Every locale compiled, in a directory of this user's (not one planted in /tmp).
        func complete(_ directory: String) -> Bool {
            var status = stat()
            guard lstat(directory, &status) == 0, status.st_uid == getuid(), (status.st_mode & S_IFMT) == S_IFDIR else { return false }
            return names.values.allSatisfy { FileManager.default.fileExists(atPath: "\(directory)/\($0)/LC_TIME") }
        }
        if complete(final) { return final }
        for source in names.keys.sorted() where !FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/\(source)") {
            throw TestLocaleFailure(description: "the locale sources are missing (/usr/share/i18n/locales/\(source)): install the Debian package locales (scripts/test does)")
        }
        var template = Array("/tmp/zaoan-test-locales-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestLocaleFailure(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        let building = String(cString: made)
        for (source, name) in names.sorted(by: { $0.key < $1.key }) {
            let result = run("/usr/bin/localedef", ["-i", source, "-f", "UTF-8", "\(building)/\(name)"], environment: [:])
            // localedef exits 1 for mere warnings; what counts is the compiled LC_TIME.
            guard FileManager.default.fileExists(atPath: "\(building)/\(name)/LC_TIME") else {
                throw TestLocaleFailure(description: "localedef -i \(source) -f UTF-8 failed (status \(result.status)): \(result.errorText)")
            }
        }
        // Another test run may have finished first: keep whichever directory won.
        if rename(building, final) != 0 {
            try? FileManager.default.removeItem(atPath: building)
            guard complete(final) else { throw TestLocaleFailure(description: "could not place the compiled locales at \(final)") }
        }
        return final
    }

    /// `date -d @T +F1<marker>F2...` for each instant, split back into one output per format.
    /// - Parameter zone: a `TZ` value: a zone name or a POSIX TZ string.
    static func outputs(_ formats: [String], at instant: String, zone: String, language: Language) throws -> [String] {
        let locales = try localeDirectory()
        var outputs: [String] = []
        // Keep each argument far below the kernel's limit.
        var start = 0
        while start < formats.count {
            let chunk = Array(formats[start..<min(formats.count, start + 300)])
            let result = run("/bin/date", ["-d", "@" + instant, "+" + chunk.joined(separator: marker) + marker],
                             environment: ["TZ": zone, "LOCPATH": locales, "LC_ALL": localeName(of: language)])
            guard result.status == 0 else {
                throw TestLocaleFailure(description: "date -d @\(instant) failed (status \(result.status)): \(result.errorText)")
            }
            var parts = result.output.dropLast().components(separatedBy: marker)  // the newline date adds
            parts.removeLast()  // after the last marker
            guard parts.count == chunk.count else {
                throw TestLocaleFailure(description: "date gave \(parts.count) outputs for \(chunk.count) formats")
            }
            outputs += parts
            start += chunk.count
        }
        return outputs
    }

    /// `date -f -` over many instants with one format: one output line per instant.
    static func outputs(_ format: String, at instants: [Int], zone: String) throws -> [String] {
        let input = instants.map { "@\($0)" }.joined(separator: "\n") + "\n"
        let result = run("/bin/date", ["-f", "-", "+" + format], environment: ["TZ": zone, "LC_ALL": "C"], input: input)
        guard result.status == 0 else { throw TestLocaleFailure(description: "date -f failed: \(result.errorText)") }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard lines.count == instants.count else { throw TestLocaleFailure(description: "date -f gave \(lines.count) lines for \(instants.count) instants") }
        return lines
    }

    /// Written by one thread, read after `DispatchGroup.wait`.
    final class DataBox: @unchecked Sendable {
        var data = Data()
    }

    struct RunResult {
        let status: Int32
        let output: String
        let errorText: String
    }

    /// Runs a program to its end; stdout is read on another thread so a large output cannot
    /// stall it.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], input: String? = nil) -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { current, _ in current }
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        do {
            try process.run()
        } catch {
            return RunResult(status: -1, output: "", errorText: "\(executable): \(error)")
        }
        // stderr and stdin on threads of their own, so no pipe can fill up and stall the
        // program while this thread reads stdout.
        let errorBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let writer = stdin.fileHandleForWriting
        DispatchQueue.global().async(group: group) {
            if let input { writer.write(Data(input.utf8)) }
            try? writer.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                         errorText: String(decoding: errorBox.data, as: UTF8.self))
    }
}
