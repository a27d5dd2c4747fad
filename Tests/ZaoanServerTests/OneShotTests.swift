import Foundation
import Glibc
import Testing

/// The one-shot protocol against the real binary with the clients people actually use:
/// OpenBSD netcat (which never closes after stdin EOF on its own), ncat and socat. If the
/// server did not close once every line is answered, these would hang until the timeout.
@Suite("One-shot requests from nc, ncat and socat")
struct OneShotTests {
    struct Client: CustomStringConvertible, Sendable {
        let name: String
        let arguments: @Sendable (String) -> [String]
        var description: String { name }
    }

    static let clients: [Client] = [
        Client(name: "nc.openbsd") { ["-U", $0] },
        Client(name: "ncat") { ["-U", $0] },
        Client(name: "socat") { ["-", "UNIX-CONNECT:" + $0] },
    ]

    private func tool(_ client: Client) throws -> String {
        let found = client.name == "nc.openbsd" ? Locations.netcatOpenBSD : Locations.tool(client.name)
        return try #require(found, "\(client.name) is not installed (Debian packages netcat-openbsd, ncat, socat)")
    }

    @Test("echo greeting | CLIENT prints the greeting and returns at once", arguments: clients)
    func greetingReturnsImmediately(client: Client) throws {
        let executable = try tool(client)
        let service = try TestService.start(arguments: ["--language", "en", "--city", "Tokyo"])
        let expected = try service.ask("greeting")
        #expect(expected.hasSuffix(" · Tokyo\n"), "greeting was \(expected.debugDescription)")

        let result = try service.run(executable, client.arguments(service.socketPath), stdin: "greeting\n", timeout: 5)
        #expect(!result.timedOut, "\(client.name) did not return: the server kept the connection open after answering (\(result))")
        #expect(result.status == 0, "\(result)")
        #expect(result.output == expected, "\(result)")
        // A correctness check that the server closes, not a benchmark: generous bound.
        #expect(result.elapsed < 1.0, "\(client.name) took \(result.elapsed) s")
        try service.stop()
    }

    @Test("printf 'greeting\\ntime\\n' | CLIENT gets both answers, in order", arguments: clients)
    func pipelinedLines(client: Client) throws {
        let executable = try tool(client)
        let service = try TestService.start(arguments: ["--language", "zh", "--city", "北京"])
        let result = try service.run(executable, client.arguments(service.socketPath),
                                     stdin: "greeting\ntime\nduration 125\nping\n", timeout: 5)
        #expect(!result.timedOut, "\(result)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 5, "expected four answers and a final LF: \(result)")
        #expect(lines[0].hasSuffix("·北京"), "first answer should be the greeting: \(lines)")
        #expect(lines[1].wholeMatch(of: /\d\d:\d\d/) != nil, "second answer should be HH:mm: \(lines)")
        #expect(lines[2] == "02:05", "\(lines)")
        #expect(lines[3] == "pong", "\(lines)")
        #expect(lines[4] == "")
        #expect(result.elapsed < 1.0, "\(result)")
        try service.stop()
    }

    @Test("a one-shot connection closes after its answer although the client keeps writing open")
    func closesWithoutClientEOF() throws {
        let service = try TestService.start()
        let client = try RawClient(path: service.socketPath, timeout: 2)
        try client.send("ping\n")
        // No shutdown(SHUT_WR): the server alone decides to close.
        let started = Date()
        #expect(try client.readToEndText() == "pong\n")
        #expect(Date().timeIntervalSince(started) < 1.0)
        try service.stop()
    }

    @Test("an unterminated last line at EOF is still answered")
    func unterminatedLastLine() throws {
        let service = try TestService.start()
        let single = try RawClient(path: service.socketPath)
        try single.send("ping")
        single.shutdownWrite()
        #expect(try single.readToEndText() == "pong\n")

        let afterOthers = try RawClient(path: service.socketPath)
        try afterOthers.send("duration 125\nping")
        afterOthers.shutdownWrite()
        #expect(try afterOthers.readToEndText() == "02:05\npong\n")

        // The same through netcat's -N (shutdown after stdin EOF) with printf's missing LF.
        let netcat = try #require(Locations.netcatOpenBSD)
        let result = try service.run(netcat, ["-N", "-U", service.socketPath], stdin: "duration 3725", timeout: 5)
        #expect(result.output == "1:02:05\n", "\(result)")
        try service.stop()
    }

    @Test("CRLF line ends are accepted and the CR never reaches an argument")
    func crlf() throws {
        let service = try TestService.start(arguments: ["--language", "en"])
        #expect(try service.ask("ping\r") == "pong\n")
        let tokyo = try service.ask("greeting Tokyo\r")
        #expect(tokyo.hasSuffix(" · Tokyo\n") && !tokyo.contains("\r"), "\(tokyo.debugDescription)")
        #expect(try service.ask("duration 125\r") == "02:05\n")

        let client = try RawClient(path: service.socketPath)
        try client.send("session\r\nping\r\nduration 61\r\nquit\r\n")
        #expect(try client.readLine() == "ok")
        #expect(try client.readLine() == "pong")
        #expect(try client.readLine() == "01:01")
        try service.stop()
    }

    @Test("invalid UTF-8 gets ERR bad-encoding and the next line is still answered")
    func badEncoding() throws {
        let service = try TestService.start()
        let client = try RawClient(path: service.socketPath)
        try client.send([0x67, 0x72, 0xFF, 0xFE, 0x0A] + Array("ping\n".utf8))
        client.shutdownWrite()
        let lines = try client.readToEndText().split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(lines)")
        #expect(lines[0].hasPrefix("ERR bad-encoding "), "\(lines)")
        #expect(lines[1] == "pong")

        // A truncated multi-byte sequence (first two bytes of 北) in a city name.
        let truncated = try RawClient(path: service.socketPath)
        try truncated.send(Array("greeting ".utf8) + [0xE5, 0x8C, 0x0A])
        #expect(try truncated.readLine().hasPrefix("ERR bad-encoding "))
        #expect(try service.ask("ping") == "pong\n")
        try service.stop()
    }

    @Test("errors are one line: ERR code message")
    func errorLines() throws {
        let service = try TestService.start()
        #expect(try service.ask("bogus").hasPrefix("ERR unknown-command "))
        #expect(try service.ask("greeting Lilliput").hasPrefix("ERR unknown-city "))
        #expect(try service.ask("duration soon").hasPrefix("ERR bad-argument "))
        try service.stop()
    }
}
