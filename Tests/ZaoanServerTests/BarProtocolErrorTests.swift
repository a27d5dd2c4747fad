import Foundation
import Glibc
import Testing

/// `zaoan bar` believes only answers that fit what it sent: a server that says it took the
/// bar's pipe when none was passed would leave the bar blank for ever.
@Suite("zaoan bar: an answer that does not fit the request")
struct BarProtocolErrorTests {
    @Test("stdout is a file, so no pipe is passed; a server that claims it took one is a protocol error, said and retried")
    func handOverClaimedWithoutPipe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ClientHardeningTests.FakeServer("handover", in: directory)
        let outputPath = directory.file("bar.out")
        let errorPath = directory.file("bar.err")
        for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: Locations.zaoan)
        bar.arguments = ["bar", "--socket", server.path, "--retry-after", "100ms"]
        bar.environment = try TestService.isolatedEnvironment(in: directory)
        bar.standardInput = Pipe()
        let files = [try Process.outputFile(outputPath), try Process.outputFile(errorPath)]
        bar.standardOutput = files[0]
        bar.standardError = files[1]
        try bar.run(handingOver: files)
        defer {
            kill(bar.processIdentifier, SIGKILL)
            bar.waitUntilExit()
        }
        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let said = "protocol error: the service answered \"ok writing to the bar's output\", but this bar passed it no pipe"
        // Said once per attempt: two of them show it reconnected (100 ms of backoff, --retry-after).
        let retried = eventually(timeout: 20, interval: 0.1) { text(errorPath).components(separatedBy: said).count > 2 }
        #expect(retried, "stderr: \(text(errorPath).debugDescription)")
        #expect(text(outputPath).contains(#""full_text":"zaoan: protocol error, reconnecting""#), "the bar shows it: \(text(outputPath).debugDescription)")
        #expect(bar.isRunning, "the bar keeps going")
    }
}
