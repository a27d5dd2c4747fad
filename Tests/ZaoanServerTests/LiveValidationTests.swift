import Foundation
import Testing

/// `live add` / `live rm` / `live show` / `countdown ID` arguments, against the real binary.
@Suite("Live rooms: validation, limits and replies")
struct LiveValidationTests {
    struct BadAdd: CustomStringConvertible, Sendable {
        let request: String
        let code: String
        /// Text the message must contain: which value was wrong.
        let mentions: String?
        var description: String { String(request.prefix(80)) }
    }

    static let badAdds: [BadAdd] = [
        BadAdd(request: "live add bad!id +1h", code: "bad-argument", mentions: "bad!id"),
        BadAdd(request: "live add 夜读 +1h", code: "bad-argument", mentions: "夜读"),
        BadAdd(request: "live add " + String(repeating: "a", count: 65) + " +1h", code: "bad-argument", mentions: nil),
        BadAdd(request: "live add x yesterday", code: "bad-argument", mentions: "yesterday"),
        BadAdd(request: "live add x 25:00", code: "bad-argument", mentions: "25:00"),
        BadAdd(request: "live add x 2026-02-30 20:00", code: "bad-argument", mentions: "2026-02-30"),
        BadAdd(request: "live add x 2026-12-01T20:00+08:00 end=2026-12-01T19:00+08:00", code: "bad-argument", mentions: "end="),
        BadAdd(request: "live add x 2026-12-01T20:00+08:00 end=2026-12-01T20:00+08:00", code: "bad-argument", mentions: "end="),
        BadAdd(request: "live add x +1h end=later", code: "bad-argument", mentions: "later"),
        BadAdd(request: "live add x +1h viewers=-1", code: "bad-argument", mentions: "-1"),
        BadAdd(request: "live add x +1h viewers=many", code: "bad-argument", mentions: "many"),
        BadAdd(request: "live add x", code: "bad-argument", mentions: nil),
        BadAdd(request: "live add", code: "bad-argument", mentions: nil),
        // 257 bytes of title: 85 three-byte characters and "ab".
        BadAdd(request: "live add x +1h " + String(repeating: "夜", count: 85) + "ab", code: "bad-argument", mentions: "257"),
        BadAdd(request: "live rm", code: "bad-argument", mentions: nil),
        BadAdd(request: "live rm a b", code: "bad-argument", mentions: nil),
        BadAdd(request: "live rm bad!id", code: "bad-argument", mentions: nil),
        BadAdd(request: "live list x", code: "bad-argument", mentions: nil),
        BadAdd(request: "live", code: "bad-argument", mentions: nil),
    ]

    @Test("bad values get ERR bad-argument naming the value, and change nothing", arguments: badAdds)
    func badArguments(_ bad: BadAdd) throws {
        let service = try TestService.start(arguments: ["--timezone", "Asia/Shanghai"])
        let answer = try service.ask(bad.request)
        #expect(answer.hasPrefix("ERR \(bad.code) "), "\(answer.debugDescription)")
        #expect(answer.hasSuffix("\n") && answer.filter { $0 == "\n" }.count == 1, "one line: \(answer.debugDescription)")
        if let mentions = bad.mentions {
            #expect(answer.contains(mentions), "the message should say which value is wrong: \(answer.debugDescription)")
        }
        #expect(try service.ask("live list") == "\n")
        #expect(try Live.stats(service.socketPath)["live_rooms"] == "0")
        try service.stop()
    }

    @Test("limits that fit: a 64-byte ID and a 256-byte title; options; replacing by ID")
    func limitsThatFit() throws {
        let service = try TestService.start(arguments: ["--timezone", "Asia/Shanghai", "--language", "en"])
        let id = String(repeating: "A-z_9", count: 12) + "abcd"
        #expect(id.utf8.count == 64)
        let title = String(repeating: "夜", count: 85) + "a"
        #expect(title.utf8.count == 256)
        #expect(try service.ask("live add \(id) 2026-12-01T20:00+08:00 \(title)") == "ok\n")
        let show = try Live.lines(service.ask("live show \(id)"))
        #expect(show.contains("title: \(title)"), "\(show)")

        // Options anywhere after START; quoted values keep their spaces; the rest is the title.
        #expect(try service.ask(#"live add r1 2026-12-01 20:00 Night desc="two words" reading viewers=12 end=+90m"#) == "ok\n")
        let r1 = try Live.lines(service.ask("live show r1"))
        #expect(r1.contains("title: Night reading"), "\(r1)")
        #expect(r1.contains("start: 2026-12-01T20:00:00+08:00"), "\(r1)")
        #expect(r1.contains("end: 2026-12-01T21:30:00+08:00"), "end=+90m counts from the start: \(r1)")
        #expect(r1.contains("description: two words"), "\(r1)")
        #expect(r1.contains("viewers: 12"), "\(r1)")

        // The same ID again replaces the room.
        #expect(try service.ask("live add r1 2026-12-02T08:00+08:00 Morning") == "ok\n")
        let replaced = try Live.lines(service.ask("live show r1"))
        #expect(replaced.contains("title: Morning"), "\(replaced)")
        #expect(replaced.contains("start: 2026-12-02T08:00:00+08:00"), "\(replaced)")
        #expect(!replaced.contains(where: { $0.hasPrefix("viewers:") }), "a replacement is the new room only: \(replaced)")
        #expect(try Live.stats(service.socketPath)["live_rooms"] == "2")
        try service.stop()
    }

    @Test("max_rooms: the next new ID gets ERR full; replacing still works; rm makes room")
    func full() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"], config: #"{"max_rooms": 3}"#)
        for id in ["a", "b", "c"] {
            #expect(try service.ask("live add \(id) +1h \(id)") == "ok\n")
        }
        let refused = try service.ask("live add d +1h d")
        #expect(refused.hasPrefix("ERR full "), "\(refused.debugDescription)")
        #expect(try service.ask("live add b +2h bee") == "ok\n", "replacing an existing ID is not a new room")
        #expect(try service.ask("live rm a") == "ok\n")
        #expect(try service.ask("live add d +1h d") == "ok\n")
        #expect(try Live.list(service.socketPath).map { $0[0] } == ["c", "d", "b"], "by start, then ID")
        try service.stop()
    }

    @Test("unknown IDs: live rm, live show and countdown ID get ERR not-found")
    func notFound() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        for request in ["live rm nosuch", "live show nosuch", "countdown nosuch"] {
            let answer = try service.ask(request)
            #expect(answer.hasPrefix("ERR not-found "), "\(request): \(answer.debugDescription)")
        }
        #expect(try service.ask("live add here +1h") == "ok\n")
        #expect(try service.ask("live rm here") == "ok\n")
        #expect(try service.ask("live rm here").hasPrefix("ERR not-found "), "removed twice")
        try service.stop()
    }
}
