import Testing
@testable import ZaoanProtocol

/// The cache of parsed request lines: a hit is exactly what parsing gives, whatever the
/// lines; errors and long lines are never kept; the table never grows past its slots.
@Suite struct ParsedLinesTests {
    private func request(_ cache: ParsedLines, _ line: String) throws(ProtocolError) -> Request? {
        let bytes = Array(line.utf8)
        let result: Result<Request?, ProtocolError> = bytes.withUnsafeBytes { raw in
            do throws(ProtocolError) { return .success(try cache.request(for: raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    static let lines = ["ping", "greeting", "greeting 东京", "time yyyy-MM-dd HH:mm:ss", "time %H:%M", "status", "countdown",
                        "watch --format=waybar countdown", "TIME  HH:mm", "time \"HH  mm\"", "  ping  ", "ticker 2", "live show news",
                        "live add r +1h Title", "blocks time | greeting"]

    @Test("the same line again is a hit, and every answer is what parsing gives")
    func hitsAgreeWithParsing() throws {
        let cache = ParsedLines()
        for round in 0..<3 {
            for line in Self.lines {
                let expected = try? RequestParser.parse(line)  // a line that does not parse is checked below
                #expect((try? request(cache, line)) == expected, "\(line) in round \(round)")  // an error reads as nil here as in `expected`: the cache must fail where parsing does
            }
        }
        #expect(cache.hits > 0)
        #expect(cache.misses <= Self.lines.count + 3 * 4, "lines that share a slot may miss; the rest hit")
    }

    @Test("a line that does not parse throws every time and is not kept; a blank one is nil")
    func errorsAreNotKept() {
        let cache = ParsedLines()
        for _ in 0..<3 {
            #expect(throws: ProtocolError.self) { try request(cache, "no-such-command") }
        }
        #expect((try? request(cache, "   ")) == .some(nil))  // a blank line asks nothing (.some(nil)); a throw reads as nil and fails
        #expect(cache.count == 0)
        #expect(cache.hits == 0)
    }

    @Test("lines past the longest kept are parsed each time, never kept")
    func longLinesAreNotKept() throws {
        let cache = ParsedLines()
        let line = "time " + String(repeating: "H", count: ParsedLines.longestLine)
        for _ in 0..<3 { #expect(try request(cache, line) == RequestParser.parse(line)) }
        #expect(cache.count == 0)
        #expect(cache.hits == 0)
    }

    @Test("a flood of distinct lines: at most the slots are kept, and each answer is still right")
    func floodStaysBounded() throws {
        let cache = ParsedLines()
        for index in 0..<5_000 {
            let line = "time HH:mm '\(index)'"
            #expect(try request(cache, line) == RequestParser.parse(line))
        }
        #expect(cache.count <= ParsedLines.slots)
        // Lines that collide in a slot replace each other and still answer right.
        for index in stride(from: 4_999, to: 4_900, by: -1) {
            let line = "time HH:mm '\(index)'"
            #expect(try request(cache, line) == RequestParser.parse(line))
        }
    }
}
