import Foundation
import Testing

/// docs/protocol.md promises answers in request order: a change refused after its rule was
/// expanded off the loop, and a watch ended by a new line, must not reorder what the client reads.
@Suite("Answers in order")
struct AnswerOrderTests {
    @Test("pipelined room changes, one refused by the reader after expansion, are answered each in its own place")
    func pipelinedChangesInOrder() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 08:00:00"
        configuration.arguments = ["--language", "en", "--timezone", "UTC"]
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        // One write, as the tester sent it: b's rule parses, and only the reader process, off
        // the loop, finds that libical gives it no occurrence (issue 29's report).
        let answer = try ask(service.socketPath, [
            "live add a 20:00 A repeat=daily",
            "live add b 20:00 B repeat=FREQ=DAILY;BYMONTHDAY=-3",
            "live add c 20:00 C repeat=weekly",
            "live add d 20:00 D",
            "live list",
        ], timeout: 30)
        let lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 4, "\(answer)")
        #expect(lines[0] == "ok", "a's answer first: \(answer)")
        #expect(lines[1].hasPrefix("ERR bad-argument") && lines[1].contains("repeat="), "b's refusal in b's place: \(answer)")
        #expect(lines[2] == "ok" && lines[3] == "ok", "c and d after it: \(answer)")
        let ids = lines.dropFirst(4).compactMap { $0.split(separator: "\t").first.map(String.init) }
        #expect(ids == ["a", "c", "d"], "the list, read after the changes, holds what was acknowledged: \(answer)")
    }
}
