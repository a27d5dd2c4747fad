import Foundation
import Testing

/// `--format=i3bar blocks A ; B`: a whole bar line from one request, so a bar watches all
/// its blocks on one connection.
@Suite("blocks: several requests as one i3bar line")
struct BlocksRequestTests {
    private func array(_ line: String) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [[String: Any]], "not an array of objects: \(line)")
    }

    @Test("one array of blocks, a failing part as a block that says so")
    func oneLine() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let line = try service.ask("--format=i3bar blocks time HH:mm @Asia/Tokyo ; greeting ; countdown nope")
        let blocks = try array(line)
        #expect(blocks.count == 3, "\(line)")
        // A clock in another zone says which; each instance is the block's place and command.
        #expect((blocks[0]["full_text"] as? String)?.wholeMatch(of: /Tokyo \d\d:\d\d/) != nil, "\(line)")
        #expect(blocks.map { $0["instance"] as? String } == ["0-time", "1-greeting", "2-countdown"], "\(line)")
        #expect((blocks[1]["full_text"] as? String)?.hasPrefix("Good") == true, "\(line)")
        #expect((blocks[2]["full_text"] as? String)?.hasPrefix("zaoan: not-found") == true, "\(line)")
        #expect(blocks.allSatisfy { $0["name"] as? String == "zaoan" && $0["markup"] as? String == "none" }, "\(line)")
    }

    @Test("what blocks refuses", arguments: [
        ("blocks time ; greeting", "ERR bad-argument blocks answers as i3bar only"),
        ("--format=i3bar blocks", "ERR bad-argument blocks needs requests"),
        ("--format=i3bar blocks time ; ; greeting", "ERR bad-argument blocks needs requests"),
        ("--format=i3bar blocks watch time", "ERR bad-argument a part of blocks is a plain request"),
        ("--format=i3bar blocks stats", "ERR bad-argument a part of blocks is a plain request"),
        ("--format=i3bar blocks live rm x", "ERR bad-argument 'live' cannot be a block"),
        ("--format=i3bar blocks " + Array(repeating: "ping", count: 17).joined(separator: " ; "), "ERR bad-argument blocks takes at most 16 requests"),
    ])
    func refused(request: String, prefix: String) throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let answer = try service.ask(request)
        #expect(answer.hasPrefix(prefix), "\(request): \(answer)")
    }

    @Test("watched, a new line comes whenever one block changes")
    func watched() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let client = try RawClient(path: service.socketPath, timeout: 10)
        try client.send("watch --format=i3bar blocks greeting ; time HH:mm:ss\n")
        let first = try array(try client.readLine())
        let second = try array(try client.readLine())
        #expect(first.count == 2 && second.count == 2)
        #expect(first[1]["full_text"] as? String != second[1]["full_text"] as? String, "the clock block ticks")
    }

    /// A bar line of clocks is rendered at each tick from a form compiled when the watch
    /// began (`WatchedLine`); new settings compile it again.
    @Test("a watched line of clocks follows a reload that changes time_format and language")
    func watchedClocksFollowReload() throws {
        let service = try TestService.start(config: #"{"language": "en", "timezone": "UTC", "time_format": "HH:mm:ss"}"#)
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        let client = try RawClient(path: service.socketPath, timeout: 10)
        try client.send("watch --format=i3bar blocks time ; time HH:mm @Asia/Tokyo\n")
        let first = try array(try client.readLine())
        #expect((first[0]["full_text"] as? String)?.wholeMatch(of: /\d\d:\d\d:\d\d/) != nil, "\(first)")
        #expect((first[1]["full_text"] as? String)?.wholeMatch(of: /Tokyo \d\d:\d\d/) != nil, "\(first)")

        try #"{"language": "zh", "timezone": "UTC", "time_format": "'at' HH:mm:ss"}"#.write(toFile: service.configPath, atomically: true, encoding: .utf8)
        #expect(try service.ask("reload") == "ok\n")
        var seen: [[String: Any]] = []
        for _ in 0..<10 {
            seen = try array(try client.readLine())
            if (seen[0]["full_text"] as? String)?.hasPrefix("at ") == true { break }
        }
        #expect((seen[0]["full_text"] as? String)?.wholeMatch(of: /at \d\d:\d\d:\d\d/) != nil, "\(seen)")
        #expect((seen[1]["full_text"] as? String)?.wholeMatch(of: /东京 \d\d:\d\d/) != nil, "\(seen)")
    }
}
