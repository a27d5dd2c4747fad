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
        // One write, as the tester sent it (issue 29's report, with a rule that still fails
        // now that DAILY;BYMONTHDAY=-3 repeats as RFC 5545 has it): b's rule parses, and only
        // the reader process, off the loop, finds that it repeats nothing after its start.
        let answer = try ask(service.socketPath, [
            "live add a 20:00 A repeat=daily",
            "live add b 20:00 B repeat=FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
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

    @Test("a session that ends its watch with a new line reads that line's answer and nothing of the old watch after it")
    func noStaleFrameAfterTheWatchEnds() throws {
        // Enough watchers of one request that a tick's updates are written over several loop
        // turns (WatchHub.deliveriesPerTurn at a time): the session, near the end of the list,
        // still has its update waiting when its next line arrives (the old code sent it after
        // that line's answer in 9 or 10 of 10 tries).
        let fillers = 400
        let service = try TestService.start(arguments: ["--timezone", "UTC"], config: #"{"max_connections_per_user": 500}"#)
        defer { try? service.stop() }
        let request = "watch time HH:mm:ss"
        let probe = try RawClient(path: service.socketPath, timeout: 10)
        try probe.send(request + "\n")
        _ = try probe.readLine()
        var others: [RawClient] = []
        for _ in 0..<fillers {
            let client = try RawClient(path: service.socketPath, timeout: 10)
            try client.send(request + "\n")
            others.append(client)
        }
        for client in others { _ = try client.readLine() }
        var stale: [String] = []
        for attempt in 0..<5 {
            let session = try RawClient(path: service.socketPath, timeout: 10)
            try session.send("session\n" + request + "\n")
            #expect(try session.readLine() == "ok")
            let first = try session.readLine()  // the watch's first answer: the last tick's
            // The tail joins after the session: once it hears a tick, the session's update of
            // that tick has been written too (a tick's list is written in order).
            let tail = try RawClient(path: service.socketPath, timeout: 10)
            try tail.send(request + "\n")
            _ = try tail.readLine()
            // The probe, first of the group, hears the next tick first: the session's update waits.
            var ticked = try probe.readLine()
            while ticked <= first { ticked = try probe.readLine() }  // what the probe had not read yet
            try session.send("ping\n")
            var line = try session.readLine()
            while line != "pong" {
                // An update written before the ping was read belongs to the watch: fine.
                #expect(line.split(separator: ":").count == 3, "attempt \(attempt): \(line.debugDescription)")
                line = try session.readLine()
            }
            var heard = try tail.readLine()
            while heard < ticked { heard = try tail.readLine() }
            try session.send("ping\n")
            let next = try session.readLine()
            if next != "pong" { stale.append("after \(ticked): \(next)") }
            session.close()
            tail.close()
        }
        #expect(stale.isEmpty, "an update of the ended watch came after the answer to the line that ended it: \(stale)")
        #expect(eventually(timeout: 10) { (try? Live.stats(service.socketPath)["watches"]) == "\(fillers + 1)" })
    }
}
