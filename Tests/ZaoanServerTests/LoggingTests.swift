import Foundation
import Testing

/// Quiet by default (a line at start, one at stop, one per error); with --verbose, a debug
/// line (`<7>`) per request naming the client.
@Suite("Logging")
struct LoggingTests {
    func log(verbose: Bool) throws -> [String] {
        let service = try TestService.start(arguments: verbose ? ["--verbose"] : [])
        _ = try service.ask("greeting")
        _ = try service.ask("bogus")
        try service.stop()
        let text = try String(contentsOfFile: service.stderrPath, encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    @Test("quiet by default: start and stop only")
    func quiet() throws {
        let lines = try log(verbose: false)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("<6>zaoan: serving on") == true && lines.last?.hasPrefix("<6>zaoan: stopped") == true, "\(lines)")
    }

    @Test("--verbose logs each request at debug level with the client's pid and uid")
    func verbose() throws {
        let lines = try log(verbose: true)
        let debug = lines.filter { $0.hasPrefix("<7>") }
        #expect(debug.allSatisfy { $0.contains(": ping") || $0.contains(": greeting") || $0.contains("ERR unknown-command") }, "\(lines)")
        #expect(debug.contains { $0.contains("uid \(getuid()): greeting") }, "\(lines)")
        #expect(debug.contains { $0.contains("ERR unknown-command") }, "\(lines)")
    }
}
