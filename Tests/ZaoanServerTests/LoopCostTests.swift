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
        defer { try? service.stop() }
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
        for client in clients {
            #expect(try client.readLine() == "ok")
            var answers: [String] = []
            for _ in 0..<requests.count { answers.append(try client.readLine()) }
            #expect(answers.allSatisfy { !$0.hasPrefix("ERR") && $0 != "pong" }, "\(answers.filter { $0.hasPrefix("ERR") }.prefix(3))")
            #expect(try client.readLine() == "pong", "the last answer is the last request's")
        }
        let held = Int(try Live.stats(service.socketPath)["held_for_next_turn"] ?? "") ?? 0
        #expect(held > 0, "1,600 new formatters cannot be made within one turn's loop time: lines were held for the next turn")
    }

    @Test("one account watches at most 32 distinct requests; a request watched already is free, and ending a watch makes room")
    func distinctWatchesPerAccount() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
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
