import Foundation
import Testing

/// What one account's requests and watches may cost the loop: a turn spends at most its
/// loop time answering (then the rest waits for the next turn, in order), and one account
/// watches at most 32 distinct requests.
@Suite("the loop's cost per account")
struct LoopCostTests {
    /// Distinct costly requests: each a new formatter (pattern, zone, Chinese calendar).
    static func costlyRequests(_ count: Int, salt: Int = 0) -> [String] {
        let zones = ["Asia/Shanghai", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe",
                     "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham"]
        let patterns = ["yyyy-MM-dd HH:mm:ss", "EEEE d MMMM y G", "QQQQ w 'week' Y", "h:mm:ss a zzzz", "LLLL ccc",
                        "U r MMMd calendar=chinese", "%A %d %B %Y %H:%M:%S", "D 'day' e"]
        return (0..<count).map { index in
            "time \(patterns[(index + salt) % patterns.count]) '\(index)-\(salt)' @\(zones[(index / patterns.count + salt) % zones.count])"
        }
    }

    @Test("pipelined costly requests from several sessions: every answer comes, in order, and the loop holds what a turn cannot afford for the next turn")
    func turnBudget() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test
        let requests = Self.costlyRequests(400)
        var clients: [RawClient] = []
        for salt in 0..<4 {
            let client = try RawClient(path: service.socketPath, timeout: 60)
            // A session, so its answers can be matched one to one; each ends with `ping`.
            try client.send((["session"] + Self.costlyRequests(400, salt: salt) + ["ping"]).map { $0 + "\n" }.joined())
            clients.append(client)
        }
        // Meanwhile another client is answered (how soon is for bench/soak to measure).
        #expect(try service.ask("ping", timeout: 30) == "pong\n")
        for client in clients { try Self.expectSessionAnswered(client, requests: requests.count) }
        #expect(try Self.heldForNextTurn(service) > 0, "1,600 new formatters cannot be made within one turn's loop time: lines were held for the next turn")
    }

    /// A session's `ok`, then `requests` answers (none an error, none the `pong` that
    /// follows them), then that `pong`: every answer came, in order.
    static func expectSessionAnswered(_ client: RawClient, requests: Int) throws {
        #expect(try client.readLine() == "ok")
        var answers: [String] = []
        for _ in 0..<requests { answers.append(try client.readLine()) }
        #expect(answers.allSatisfy { !$0.hasPrefix("ERR") && $0 != "pong" }, "\(answers.filter { $0.hasPrefix("ERR") }.prefix(3))")
        #expect(try client.readLine() == "pong", "the last answer is the last request's")
    }

    static func heldForNextTurn(_ service: TestService) throws -> Int {
        Int(try Live.stats(service.socketPath)["held_for_next_turn"] ?? "") ?? 0
    }

    /// One session alone: its lines come in a few reads, and only the check before each
    /// further line of a read (the framer's `mayTakeAnother`) can hold any of them, since
    /// every read starts a fresh turn with nothing spent.
    @Test("one session pipelining costly requests in one write is held within a read once its turn's loop time is spent, and every answer comes in order")
    func turnBudgetWithinOneRead() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test
        let requests = Self.costlyRequests(400)
        let client = try RawClient(path: service.socketPath, timeout: 60)
        try client.send((["session"] + requests + ["ping"]).map { $0 + "\n" }.joined())
        try Self.expectSessionAnswered(client, requests: requests.count)
        #expect(try Self.heldForNextTurn(service) > 0, "400 new formatters cannot be made within one turn's loop time: lines were held for the next turn")
    }

    @Test("one account watches at most 32 distinct requests; a request watched already is free, and ending a watch makes room")
    func distinctWatchesPerAccount() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test
        let requests = Self.costlyRequests(33)
        var watchers: [RawClient] = []
        for request in requests.prefix(32) {
            let client = try RawClient(path: service.socketPath, timeout: 10)
            try client.send("watch \(request)\n")
            #expect(!(try client.readLine()).hasPrefix("ERR"), "\(request)")
            watchers.append(client)
        }
        let refused = try service.ask("watch \(requests[32])")
        #expect(refused.hasPrefix("ERR busy this account watches 32 different requests already"), "\(refused)")
        // The same request again costs no rendering: allowed.
        let again = try RawClient(path: service.socketPath, timeout: 10)
        try again.send("watch \(requests[0])\n")
        #expect(!(try again.readLine()).hasPrefix("ERR"))
        // Ending both watches of the first request makes room for another.
        watchers[0].close()
        again.close()
        #expect(eventually(timeout: 10) { (try? Live.stats(service.socketPath)["watches"]) == "31" })
        let client = try RawClient(path: service.socketPath, timeout: 10)
        try client.send("watch \(requests[32])\n")
        #expect(!(try client.readLine()).hasPrefix("ERR"))
    }
}

/// Large answers: bounded in lines, and in the memory one account's unread answers hold.
@Suite("large answers")
struct LargeAnswerTests {
    /// A calendar of `count` events, one every `spacing` seconds (ten minutes) from an hour
    /// from now, each with a title of 250 bytes.
    static func manyEvents(_ count: Int, spacing: Double = 600) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let first = Date().addingTimeInterval(3600)
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//EN"]
        for index in 0..<count {
            let start = first.addingTimeInterval(Double(index) * spacing)
            let title = "Event \(index) " + String(repeating: "x", count: 240)
            lines += ["BEGIN:VEVENT", "UID:many-\(index)", "DTSTAMP:20261201T000000Z", "DTSTART:\(formatter.string(from: start))",
                      "DTEND:\(formatter.string(from: start.addingTimeInterval(300)))", "SUMMARY:\(title)", "END:VEVENT"]
        }
        lines += ["END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    static func service(events: Int, config extra: String = "") throws -> (TestService, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        let calendar = try folder.makeDirectory("cal")
        try Self.manyEvents(events).write(toFile: calendar + "/many.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"calendar_window_hours": 744, "calendars": ["\#(calendar)"]\#(extra)}"#)
        try service.waitUntilCalendarsRead()
        return (service, folder)
    }

    @Test("schedule lists at most 2,000 lines, then says how many more and how to ask for fewer")
    func scheduleBounded() throws {
        let (service, folder) = try Self.service(events: 2_300)
        defer { try? service.stop(); folder.remove() }
        let lines = try service.ask("schedule 744", timeout: 30).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2_000 + 1 + 2, "2,000 events, the line saying more, the empty line ending the answer: \(lines.count)")
        #expect(lines.prefix(2_000).allSatisfy { $0.split(separator: "\t").count == 4 })
        #expect(lines[2_000] == "… and 300 more within 744 hours; ask for fewer hours or one calendar (schedule HOURS calendar=NAME)", "\(lines[2_000])")
        let day = try service.ask("schedule 24", timeout: 30).split(separator: "\n").count
        #expect(day == 138 || day == 139, "24 hours: the events from an hour on, one each ten minutes: \(day)")
    }

    /// Asks `request` on a new connection and waits until its answer begins to arrive, or
    /// the connection is closed: the service has answered it.
    static func askUnread(_ service: TestService, _ request: String) throws -> RawClient {
        let client = try RawClient(path: service.socketPath, timeout: 30)
        try client.send(request + "\n")
        _ = client.peerState(within: 30)
        return client
    }

    @Test("an account that leaves half of output_hard_limit unread gets its next requests refused before anything is rendered; ping, version and stats still answer; the memory goes back")
    func unreadBacklogRefused() throws {
        let (service, folder) = try Self.service(events: 2_000, config: #", "output_hard_limit": 1048576"#)
        defer { try? service.stop(); folder.remove() }
        let before = Self.residentKiB(service.pid)
        // Each answer is about 360 KB (2,000 lines, titles cut to 120 characters), a distinct
        // rendering each, kept for a client that reads nothing: two are taken, then refused.
        var clients: [RawClient] = []
        for hours in 0..<12 { clients.append(try Self.askUnread(service, "schedule \(744 - hours)")) }
        let refused = clients.suffix(8).map { (try? $0.readToEndText()) ?? "" }
        for answer in refused {
            #expect(answer.hasPrefix("ERR busy this account (uid 0) has ") && answer.contains("half of output_hard_limit (1048576); read them"), "\(answer.prefix(300))")
        }
        #expect(try ask(service.socketPath, "ping") == "pong\n")
        let stats = try Live.stats(service.socketPath)
        #expect(Int(stats["refused_unread_backlog"] ?? "") ?? 0 >= 8, "\(stats)")
        for client in clients { client.close() }
        #expect(eventually(timeout: 10) { (try? Live.stats(service.socketPath)["connections_open"]) == "1" })
        // Once read, or gone, the account is answered again.
        #expect(try ask(service.socketPath, "schedule 1", timeout: 30).hasPrefix("ERR") == false)
        // What the unread answers held goes back once their connections are gone.
        #expect(eventually(timeout: 10) { Self.residentKiB(service.pid) < before + 8 * 1024 },
                "RSS \(before) KiB before, \(Self.residentKiB(service.pid)) KiB after the connections closed")
    }

    @Test("an answer that takes its account past output_hard_limit (one larger than half of it) closes its connection")
    func unreadPastTheBound() throws {
        // 512 KiB: a schedule of 200 hours (about 214 KB) leaves the account under half; one of
        // 744 hours (2,000 lines, about 358 KB) then crosses it.
        let (service, folder) = try Self.service(events: 2_000, config: #", "output_hard_limit": 524288"#)
        defer { try? service.stop(); folder.remove() }
        let first = try Self.askUnread(service, "schedule 200")
        let second = try Self.askUnread(service, "schedule 744")
        #expect(eventually(timeout: 30) { Int((try? Live.stats(service.socketPath))?["closed_output_limit"] ?? "") ?? 0 >= 1 },
                "no connection passed output_hard_limit (512 KiB) on its own, but together they held more")
        let log = service.stderrText
        #expect(log.contains("its account's unread answers, over all its connections, past 524288 bytes"), "\(log.suffix(2000))")
        first.close()
        second.close()
    }

    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// The Chinese calendar's first year, computed off the loop at start.
@Suite("the almanac at start")
struct AlmanacAtStartTests {
    @Test("with {lunar} in the template the year is computed at start without any request asking; without, nothing is computed")
    func preparedAtStart() throws {
        let service = try TestService.start(arguments: ["--language", "zh", "--timezone", "Asia/Shanghai"],
                                            config: #"{"status_template": "{greeting} {lunar} {next_festival}"}"#)
        defer { try? service.stop() }  // the checks are made; a failed stop is reported by its own test
        #expect(eventually(timeout: 20) { Int((try? Live.stats(service.socketPath))?["almanac_years"] ?? "") ?? 0 > 0 },
                "nobody asked for status, yet the almanac holds the year: it was prepared off the loop")
        let status = try service.ask("status")
        #expect(status.contains("年") && status.contains("还有"), "\(status)")

        let plain = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? plain.stop() }
        #expect(try plain.ask("status").hasPrefix("Good"))
        #expect(try Live.stats(plain.socketPath)["almanac_years"] == "0", "a template without the Chinese calendar computes none of it")
    }
}
