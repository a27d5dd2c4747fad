import Foundation
import Glibc
import Testing

/// Nothing a client sends can crash or stall the service or delay other clients.
@Suite("Misbehaving and many clients")
struct RobustnessTests {
    /// The `connections_open` line of `stats`.
    private func openConnections(_ service: TestService) throws -> Int? {
        let stats = try service.ask("stats")
        guard let line = stats.split(separator: "\n").first(where: { $0.hasPrefix("connections_open: ") }) else { return nil }
        return Int(line.dropFirst("connections_open: ".count))
    }

    @Test("clients that disconnect before reading their reply do not hurt the service")
    func disconnectBeforeReading() throws {
        let service = try TestService.start()

        // Ask and hang up at once, many times.
        for index in 0..<50 {
            let client = try RawClient(path: service.socketPath)
            try client.send(index.isMultiple(of: 2) ? "greeting\n" : "stats\n")
            client.close()
        }
        // A session that asks for far more than the socket buffer holds, then leaves: the
        // server is mid-write when the peer goes away (EPIPE / ECONNRESET).
        let flood = try RawClient(path: service.socketPath)
        try flood.send("session\n" + String(repeating: "help\n", count: 3000))
        // Its first answer read: the server is answering, with megabytes still to write.
        #expect(try flood.readLine(timeout: 10) == "ok")
        flood.close()

        #expect(service.isRunning, "zaoan died; stderr: \(service.stderrText)")
        #expect(try service.ask("ping") == "pong\n")
        // Every one of those connections is let go (only the stats request itself is open).
        let settled = try eventually(timeout: 3) { try openConnections(service) == 1 }
        #expect(settled, "connections leaked: \((try? service.ask("stats")) ?? "no stats")")
        try service.stop()
    }

    @Test("a client that does not read its answers delays nobody else")
    func slowReaderDoesNotStallOthers() throws {
        let service = try TestService.start()
        let slow = try RawClient(path: service.socketPath, timeout: 5)
        // Over a megabyte of answers that the client never reads, more than the socket
        // buffers and the server's output high-water mark hold: the server must keep
        // serving others while this output is pending.
        try slow.send("session\n")
        for _ in 0..<10 { try slow.send(String(repeating: "help\n", count: 100)) }

        for _ in 0..<5 {
            let started = Date()
            #expect(try ask(service.socketPath, "ping", timeout: 2) == "pong\n")
            #expect(Date().timeIntervalSince(started) < 0.5)
        }
        #expect(slow.peerState(within: 0) == .sentData, "the slow client's answers should be waiting for it")
        slow.close()
        #expect(service.isRunning)
        #expect(try eventually(timeout: 3) { try openConnections(service) == 1 })
        try service.stop()
    }

    /// Resident memory of a process, in bytes.
    private func residentBytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    @Test("output waiting for clients that do not read stays bounded", Sanitizer.skipped("it bounds the resident memory, which the sanitizer's shadow memory and quarantine inflate"))
    func pendingOutputIsBounded() throws {
        let service = try TestService.start()
        let before = try #require(residentBytes(service.pid))
        // Three sessions each send one 64 KiB write of `help` lines (5 bytes in, about a
        // kilobyte out) and never read. Past the output high-water mark (`OutputLimits.highWater`,
        // 64 KiB) the server should stop answering a connection until it reads: a few hundred
        // KiB each at most.
        var flooders: [RawClient] = []
        for _ in 0..<3 {
            let client = try RawClient(path: service.socketPath, timeout: 5)
            try client.send("session\n" + String(repeating: "help\n", count: 13_000))
            flooders.append(client)
        }
        // Wait until the server has worked through what it read (it answers ping again and
        // its memory stops moving).
        var last = 0
        _ = try eventually(timeout: 10, interval: 0.2) {
            _ = try service.ask("ping")
            let now = residentBytes(service.pid) ?? 0
            defer { last = now }
            return abs(now - last) < 256 * 1024
        }
        let growth = (residentBytes(service.pid) ?? 0) - before
        #expect(growth < 12 * 1024 * 1024,
                "resident memory grew by \(growth / 1024) KiB for 3 clients that do not read")
        flooders.forEach { $0.close() }
        #expect(try service.ask("ping") == "pong\n")
        try service.stop()
    }

    @Test("200 concurrent clients are all answered, each with its own answer")
    func twoHundredConcurrentClients() throws {
        let service = try TestService.start()
        let count = 200
        var fds: [Int32] = []
        defer { fds.forEach { _ = Glibc.close($0) } }

        // Open all 200 connections first, so they are all open at once, then send.
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(fd >= 0)
            fds.append(fd)
            let connected = try withUnixAddress(service.socketPath) { connect(fd, $0, $1) }
            try #require(connected == 0, "connect #\(fds.count): \(String(cString: strerror(errno)))")
        }
        // Distinct requests, so answers crossed between connections would show.
        func request(_ index: Int) -> String { index.isMultiple(of: 5) ? "ping" : "duration \(index)" }
        func expected(_ index: Int) -> String {
            index.isMultiple(of: 5) ? "pong\n" : String(format: "%02d:%02d\n", index / 60, index % 60)
        }
        for (index, fd) in fds.enumerated() {
            let bytes = Array((request(index) + "\n").utf8)
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(sent == bytes.count, "send #\(index): \(String(cString: strerror(errno)))")
        }

        var received = [[UInt8]](repeating: [], count: count)
        var finished = [Bool](repeating: false, count: count)
        let deadline = Date().addingTimeInterval(10)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while finished.contains(false) && Date() < deadline {
            var entries = fds.enumerated().filter { !finished[$0.offset] }.map { pollfd(fd: $0.element, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), 200)
            guard ready > 0 else { continue }
            for entry in entries where entry.revents != 0 {
                let index = fds.firstIndex(of: entry.fd)!
                let got = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if got > 0 {
                    received[index].append(contentsOf: buffer[0..<got])
                } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                    finished[index] = true
                }
            }
        }
        let unfinished = finished.indices.filter { !finished[$0] }
        #expect(unfinished.isEmpty, "\(unfinished.count) connections still open after 10 s, e.g. #\(unfinished.prefix(5))")
        let wrong = received.indices.filter { String(decoding: received[$0], as: UTF8.self) != expected($0) }
        let examples = wrong.prefix(3).map {
            "#\($0) \(request($0).debugDescription) → \(String(decoding: received[$0], as: UTF8.self).debugDescription)"
        }.joined(separator: ", ")
        #expect(wrong.isEmpty, "\(wrong.count) wrong answers, e.g. \(examples)")
        #expect(service.isRunning)
        try service.stop()
    }
}
