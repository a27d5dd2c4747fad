import Foundation
import Glibc
import Testing

@Suite("Session mode and line limits")
struct SessionAndLimitTests {
    @Test("a session that pipelines far more than the socket holds, and reads late, gets every answer once and in order")
    func pipelinedBeyondTheSocket() throws {
        let service = try TestService.start()
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send("session\n")
        #expect(try client.readLine() == "ok")
        // 200,000 requests (2.2 MB) whose answers (1.2 MB) are more than the sockets hold:
        // the service's sends come up short and fail with EAGAIN along the way, and it stops
        // reading while answers wait. Written from another thread, read only after a while.
        let count = 200_000
        let lines = Array((0..<count).map { "duration \($0 % 60)\n" }.joined().utf8)
        let fd = client.fd
        let written = LockedFlag()
        let writer = Thread {
            var offset = 0
            while offset < lines.count {
                let sent = lines.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if sent < 0 { if errno == EINTR { continue } else { break } }
                offset += sent
            }
            written.set()
        }
        writer.start()
        #expect(!eventually(timeout: 1) { written.isSet }, "the service should stop reading while its answers wait")
        for index in 0..<count {
            let line = try client.readLine()
            let expected = String(format: "00:%02d", index % 60)
            if line != expected {
                Issue.record("answer \(index): \(line.debugDescription), expected \(expected)")
                break
            }
        }
        #expect(eventually(timeout: 10) { written.isSet })
        #expect(client.peerState(within: 0.2) == .open, "nothing more than the answers")
        try service.stop()
    }

    @Test("session answers ok, stays open, answers pipelined requests in order, quit closes")
    func session() throws {
        let service = try TestService.start()
        let client = try RawClient(path: service.socketPath, timeout: 3)
        try client.send("session\n")
        #expect(try client.readLine() == "ok")
        // A one-shot connection would be closed by now; a session stays open.
        #expect(client.peerState(within: 0.3) == .open)

        try client.send("ping\nduration 1\nduration 2\nversion\nduration 3\n")
        #expect(try client.readLine() == "pong")
        #expect(try client.readLine() == "00:01")
        #expect(try client.readLine() == "00:02")
        #expect(try client.readLine().hasPrefix("zaoan "))
        #expect(try client.readLine() == "00:03")
        #expect(client.peerState(within: 0.2) == .open)

        // Requests split across writes are reassembled.
        try client.send("dura")
        usleep(50_000)
        try client.send("tion 4\n")
        #expect(try client.readLine() == "00:04")

        // A multi-line answer ends with an empty line, and the session goes on after it.
        try client.send("stats\nping\n")
        var stats: [String] = []
        while true {
            let line = try client.readLine()
            if line.isEmpty { break }
            stats.append(line)
        }
        #expect(stats.contains(where: { $0.hasPrefix("requests: ") }), "\(stats)")
        #expect(try client.readLine() == "pong")

        try client.send("quit\n")
        let rest = try client.readToEndText()  // throws if quit does not close
        #expect(!rest.contains("ERR"), "\(rest.debugDescription)")
        try service.stop()
    }

    @Test("a one-shot connection that sends no complete line within first_line_seconds is closed; 0 and 3601 are refused")
    func firstLineTimeout() throws {
        let service = try TestService.start(config: #"{"first_line_seconds": 1}"#)
        let silent = try RawClient(path: service.socketPath, timeout: 5)
        let started = Date()
        #expect(silent.peerState(within: 6) == .closed, "a silent one-shot connection still open after 6 s with first_line_seconds 1")
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.9 && elapsed < 6, "closed after \(elapsed) s")
        #expect(try service.ask("ping") == "pong\n")
        try service.stop()
        for bad in ["0", "3601"] {
            let other = try TestService.start(config: #"{"first_line_seconds": \#(bad), "stuck_client_seconds": \#(bad), "partial_line_seconds": \#(bad)}"#)
            let problems = try other.ask("stats")
            for key in ["first_line_seconds", "stuck_client_seconds", "partial_line_seconds"] {
                #expect(problems.contains("config key '\(key)': must be between 1 and 3600, got \(bad)"), "\(problems)")
            }
            try other.stop()
        }
    }

    @Test("a one-shot watch events follower is not closed by the first-line limit while the sweeper runs for others")
    func eventFollowerOutlivesFirstLineLimit() throws {
        let service = try TestService.start(config: #"{"first_line_seconds": 1}"#)
        let follower = try RawClient(path: service.socketPath, timeout: 10)
        try follower.send("watch events\n")
        // Another connection left without a line keeps the sweeper armed; it is closed at 1 s.
        let silent = try RawClient(path: service.socketPath, timeout: 5)
        #expect(silent.peerState(within: 6) == .closed, "the silent connection is still open after 6 s with first_line_seconds 1")
        let past = Date().addingTimeInterval(2.5)
        while Date() < past {
            _ = try service.ask("ping")  // more connections: the sweeper keeps running
        }
        #expect(follower.peerState(within: 0.5) == .open, "the event follower was closed by the first-line limit")
        let stats = try service.ask("stats")
        #expect(stats.contains("connections_open: 2"), "\(stats)")
        try service.stop()
    }

    @Test("a session closes at the configured idle timeout")
    func sessionIdleTimeout() throws {
        let service = try TestService.start(config: #"{"idle_timeout": 1}"#)
        let client = try RawClient(path: service.socketPath, timeout: 5)
        try client.send("session\n")
        #expect(try client.readLine() == "ok")
        let started = Date()
        #expect(client.peerState(within: 4) == .closed, "idle session still open after 4 s with idle_timeout 1")
        #expect(Date().timeIntervalSince(started) >= 0.9)
        try service.stop()
    }

    @Test("a 4097-byte line gets ERR too-long and the connection closes; 4096 bytes is fine")
    func lineLength() throws {
        let service = try TestService.start()

        // 4096 bytes: "ping" and 4092 blanks — a valid request at the limit.
        let atLimit = "ping" + String(repeating: " ", count: 4092)
        #expect(atLimit.utf8.count == 4096)
        let fits = try RawClient(path: service.socketPath)
        try fits.send("session\n" + atLimit + "\n")
        #expect(try fits.readLine() == "ok")
        #expect(try fits.readLine() == "pong", "a 4096-byte line must not be too long")
        #expect(fits.peerState(within: 0.1) == .open)
        // The same at the limit with CRLF: the CR does not count.
        try fits.send(atLimit + "\r\n")
        #expect(try fits.readLine() == "pong")
        fits.close()

        // 4097 bytes, terminated, on a session: answered with too-long, then closed, although
        // the client keeps its side open and would send more.
        let overlong = try RawClient(path: service.socketPath, timeout: 3)
        try overlong.send("session\n" + atLimit + " \nping\n")
        #expect(try overlong.readLine() == "ok")
        let error = try overlong.readLine()
        #expect(error.hasPrefix("ERR too-long "), "\(error)")
        #expect(try overlong.readToEndText() == "", "nothing after too-long; the connection must close")

        // 4097 bytes with no LF yet, the client waiting: the server must not wait for the
        // rest of the line forever.
        let unterminated = try RawClient(path: service.socketPath, timeout: 3)
        try unterminated.send(String(repeating: "a", count: 4097))
        #expect(try unterminated.readLine().hasPrefix("ERR too-long "))
        #expect(try unterminated.readToEndText() == "")

        // A far longer line, sent in pieces.
        let huge = try RawClient(path: service.socketPath, timeout: 3)
        for _ in 0..<16 { try? huge.send(String(repeating: "x", count: 1000)) }
        #expect(try huge.readLine().hasPrefix("ERR too-long "))

        #expect(try service.ask("ping") == "pong\n")
        try service.stop()
    }
}
