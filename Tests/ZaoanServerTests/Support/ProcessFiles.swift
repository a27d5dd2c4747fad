import Foundation

extension Process {
    /// Runs the process, then closes the test's own copies of `files` (the stdin, stdout or
    /// stderr it was handed: the child holds its own). Foundation's Process stays alive, and
    /// the handles with it, until `waitUntilExit()` is called — a service stopped by signal
    /// and polled for its end never is — so every service the suite starts used to leave two
    /// descriptors open in the test process; past about 1,360 of them, the toolchain's
    /// Process.run() reads beyond its /proc/self/fd buffer and can crash the whole run.
    func run(handingOver files: [FileHandle]) throws {
        defer { for file in files { try? file.close() } }  // the child has its copies; a failed close loses nothing of the test's
        let held = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0  // no /proc: nothing to check
        guard held <= Self.mostDescriptorsHeld else {
            throw TestFailure("the test process holds \(held) descriptors (a full run needs about 450); past about 1,360 Process.run() can crash the whole run: something the tests start keeps its descriptors open")
        }
        try run()
    }

    /// Descriptors the test process may hold when it starts a child: well under the ~1,360
    /// at which Foundation's Process.run() over-reads, well over what a full run holds.
    static let mostDescriptorsHeld = 1_000

    /// Opens `path` for the child's output (stdout and stderr both, or either).
    static func outputFile(_ path: String) throws -> FileHandle {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw TestFailure("cannot open \(path) for a child's output") }
        return handle
    }
}
