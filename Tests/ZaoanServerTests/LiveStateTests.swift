import Foundation
import Glibc
import Testing

/// Rooms survive SIGTERM and SIGKILL; a change is acknowledged only once it is on disk; a
/// corrupt state file is moved aside and the service starts empty.
@Suite("Live rooms: state on disk")
struct LiveStateTests {
    /// `live show` for each ID, without the `state:` line (it changes with the clock).
    private func snapshot(_ path: String, _ ids: [String]) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for id in ids {
            result[id] = try Live.lines(ask(path, "live show \(id)")).filter { !$0.hasPrefix("state: ") }
        }
        return result
    }

    static let rooms = [
        "live add night 2026-12-01T20:00+08:00 夜读 end=2026-12-01T21:30+08:00",
        #"live add talk 2027-01-15 09:30:15 Morning talk desc="with guests" viewers=1200"#,
        "live add past 2020-01-01T00:00Z 旧节目",
        "live add soon +2h 很快",
    ]
    static let ids = ["night", "talk", "past", "soon"]

    @Test("rooms survive SIGTERM + restart and SIGKILL + restart, with the same start times")
    func restarts() throws {
        let world = try LiveWorld()
        let first = try world.start()
        for add in Self.rooms {
            #expect(try first.ask(add) == "ok\n", "\(add); stderr: \(first.stderrText)")
        }
        let before = try snapshot(world.socketPath, Self.ids)
        #expect(before["night"]?.contains("start: 2026-12-01T20:00:00+08:00") == true, "\(before)")
        #expect(before["talk"]?.contains("start: 2027-01-15T09:30:15+08:00") == true, "\(before)")
        let listed = try Live.list(world.socketPath).map { [$0[0], $0[1], $0[2], $0[4]] }

        try first.stop()
        let second = try world.start()
        #expect(try snapshot(world.socketPath, Self.ids) == before, "after SIGTERM and restart")
        #expect(try Live.list(world.socketPath).map { [$0[0], $0[1], $0[2], $0[4]] } == listed)

        // A change made by the second run, then SIGKILL: no chance to save anything at exit.
        #expect(try second.ask("live rm past") == "ok\n")
        #expect(try second.ask("live add late +3h 晚") == "ok\n")
        let beforeKill = try snapshot(world.socketPath, ["night", "talk", "soon", "late"])
        second.signal(SIGKILL)
        #expect(second.waitForExit(timeout: 5))

        let third = try world.start()
        #expect(try snapshot(world.socketPath, ["night", "talk", "soon", "late"]) == beforeKill, "after SIGKILL and restart")
        #expect(try third.ask("live show past").hasPrefix("ERR not-found "), "a removal is durable too")
        #expect(try Live.stats(world.socketPath)["live_rooms"] == "4")

        // The file: STATE_DIRECTORY wins over XDG_STATE_HOME, carries a format version and the rooms.
        let file = try world.stateFile()
        #expect(file["version"] as? Int == 1, "\(file)")
        #expect((file["rooms"] as? [Any])?.count == 4, "\(file)")
        #expect(!FileManager.default.fileExists(atPath: third.environment["XDG_STATE_HOME"]! + "/zaoan/state.json"),
                "with STATE_DIRECTORY set, nothing goes to $XDG_STATE_HOME")
        try third.stop()
    }

    @Test("without STATE_DIRECTORY the state is $XDG_STATE_HOME/zaoan/state.json")
    func xdgStateHome() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"])
        #expect(try service.ask("live add x +1h x") == "ok\n")
        let path = service.environment["XDG_STATE_HOME"]! + "/zaoan/state.json"
        // Acknowledged means on disk: the file holds the room as soon as `ok` arrives.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let rooms = object?["rooms"] as? [[String: Any]]
        #expect(rooms?.first?["id"] as? String == "x", "\(String(decoding: data, as: UTF8.self))")
        try service.stop()
    }

    /// Several clients add rooms while the service is killed with SIGKILL at random moments
    /// and restarted on the same socket and state. Every `ok` must survive; the file must parse.
    @Test("SIGKILL at random moments during concurrent adds: every acknowledged add survives")
    func crashes() throws {
        let world = try LiveWorld(config: #"{"max_rooms": 10000}"#)
        let acknowledged = LiveLocked<Set<String>>([])
        let attempts = LiveLocked(0)
        let running = LiveLocked(true)
        let unexpected = LiveLocked<[String]>([])
        let clients = 4
        let path = world.socketPath
        var generator = SystemRandomNumberGenerator()
        var service = try world.start()

        let finished = DispatchGroup()
        for client in 0..<clients {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                var serial = 0
                while running.withLock({ $0 }) {
                    let id = "c\(client)-\(serial)"
                    serial += 1
                    attempts.withLock { $0 += 1 }
                    // Errors (refused, reset, closed before the answer) are unacknowledged adds.
                    if let answer = try? ask(path, "live add \(id) +\(serial)m room \(id)", timeout: 3) {
                        if answer == "ok\n" {
                            acknowledged.withLock { _ = $0.insert(id) }
                        } else if !answer.isEmpty {
                            unexpected.withLock { $0.append("live add \(id) got \(answer.debugDescription)") }
                        }
                    } else {
                        usleep(2_000)
                    }
                }
            }
        }

        var kills: [Int] = []
        for _ in 0..<6 {
            let delay = Int.random(in: 30_000...300_000, using: &generator)
            kills.append(delay / 1000)
            usleep(UInt32(delay))
            service.signal(SIGKILL)
            #expect(service.waitForExit(timeout: 5), "zaoan did not die of SIGKILL")
            service = try world.start()
        }
        usleep(100_000)
        running.withLock { $0 = false }
        finished.wait()

        let acked = acknowledged.withLock { $0 }
        #expect(unexpected.withLock { $0 }.isEmpty, "answers other than ok (or none, when killed): \(unexpected.withLock { $0 }.prefix(10))")
        let tried = attempts.withLock { $0 }
        #expect(acked.count > 20, "too few adds got through to mean anything: \(acked.count) of \(tried); kills after \(kills) ms")

        // The file parses, and holds every acknowledged room.
        let file = try world.stateFile()
        #expect(file["version"] as? Int == 1)
        let stored = Set(((file["rooms"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        let missingOnDisk = acked.subtracting(stored)
        #expect(missingOnDisk.isEmpty, "acknowledged but not in state.json: \(missingOnDisk.sorted().prefix(20)); kills after \(kills) ms")

        // And the service, restarted once more, serves them.
        let listed = Set(try Live.list(path).map { $0[0] })
        let missing = acked.subtracting(listed)
        #expect(missing.isEmpty, "acknowledged but not listed after restart: \(missing.sorted().prefix(20)) (\(acked.count) acknowledged, \(listed.count) listed)")
        #expect(!service.stderrText.contains("corrupt"), "no restart may find a torn file: \(service.stderrText)")
        try service.stop()
    }

    @Test("concurrent adds, many arriving while a save is in flight, are each answered once saved and all kept")
    func addsDuringSaves() throws {
        let world = try LiveWorld(config: #"{"max_rooms": 10000}"#)
        let service = try world.start()
        let path = world.socketPath
        let clients = 4, addsEach = 25
        let answers = LiveLocked<[String: String]>([:])
        let finished = DispatchGroup()
        for client in 0..<clients {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for serial in 0..<addsEach {
                    // One after another on each client: the next is sent once the last is
                    // answered, so the clients' adds keep landing while another's save runs.
                    let id = "c\(client)-\(serial)"
                    let answer = (try? ask(path, "live add \(id) +\(serial + 1)m room \(id)", timeout: 10)) ?? "no answer in 10 s"
                    answers.withLock { $0[id] = answer }
                }
            }
        }
        finished.wait()
        let got = answers.withLock { $0 }
        let notOK = got.filter { $0.value != "ok\n" }
        #expect(got.count == clients * addsEach && notOK.isEmpty, "adds not answered ok: \(notOK.sorted { $0.key < $1.key }.prefix(10)); stderr: \(service.stderrText)")
        let listed = Set(try Live.list(path).map { $0[0] })
        let stored = Set(((try world.stateFile()["rooms"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(listed == Set(got.keys), "listed: \(listed.count) of \(got.count)")
        #expect(stored == Set(got.keys), "in state.json: \(stored.count) of \(got.count)")
        try service.stop()
    }

    struct Corrupt: CustomStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var description: String { name }
    }

    static let corruptFiles: [Corrupt] = [
        Corrupt(name: "garbage bytes", bytes: [0x00, 0xFF, 0xFE, 0x7B, 0x22, 0x0A, 0x80, 0x81, 0x13, 0x37, 0xC3, 0x28]),
        Corrupt(name: "truncated JSON", bytes: Array(#"{"version": 1, "rooms": [{"id": "a", "title": "x", "sta"#.utf8)),
        Corrupt(name: "empty file", bytes: []),
        Corrupt(name: "a format version from the future", bytes: Array(#"{"version": 99, "rooms": []}"#.utf8)),
        Corrupt(name: "wrong shape", bytes: Array(#"[1, 2, 3]"#.utf8)),
    ]

    @Test("a corrupt state file is moved aside, logged, and the service starts empty", arguments: corruptFiles)
    func corrupt(_ corrupt: Corrupt) throws {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--timezone", "UTC", "--language", "en"]
        configuration.beforeStart = { directory, _ in
            try directory.makeDirectory("state/zaoan")
            try Data(corrupt.bytes).write(to: URL(fileURLWithPath: directory.file("state/zaoan/state.json")))
        }
        let started = Int(Date().timeIntervalSince1970)
        let service = try TestService.start(configuration)
        let stateDirectory = service.environment["XDG_STATE_HOME"]! + "/zaoan"

        #expect(try service.ask("live list") == "\n")
        #expect(try service.ask("countdown") == "\n")
        #expect(try Live.stats(service.socketPath)["live_rooms"] == "0")

        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory)
        let aside = names.filter { $0.hasPrefix("state.json.corrupt-") }
        #expect(aside.count == 1, "\(names)")
        if let name = aside.first {
            let stamp = Int(name.dropFirst("state.json.corrupt-".count))
            #expect(stamp.map { abs($0 - started) <= 5 } == true, "the suffix should be the time (Unix seconds): \(name)")
            let kept = FileManager.default.contents(atPath: stateDirectory + "/" + name)
            #expect(kept.map(Array.init) == corrupt.bytes, "the bad file is kept as it was, for inspection")
        }
        #expect(!names.contains("state.json"), "\(names)")
        let log = service.stderrText
        #expect(log.contains("<3>zaoan: "), "logged at error priority: \(log)")
        #expect(log.contains("state.json.corrupt-"), "the log says where the file went: \(log)")

        // The service goes on normally: a new state file, valid this time.
        #expect(try service.ask("live add fresh +1h fresh") == "ok\n")
        let data = try Data(contentsOf: URL(fileURLWithPath: stateDirectory + "/state.json"))
        #expect(((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["version"] as? Int == 1)
        try service.stop()
    }

    @Test("an unreadable state path (a directory) does not stop the service")
    func unreadable() throws {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--timezone", "UTC"]
        configuration.beforeStart = { directory, _ in
            try directory.makeDirectory("state/zaoan/state.json")
        }
        let service = try TestService.start(configuration)
        #expect(try service.ask("live list") == "\n")
        #expect(service.stderrText.contains("<3>zaoan: "), "the problem is logged as an error: \(service.stderrText)")
        #expect(try service.ask("live add fresh +1h fresh") == "ok\n", "and changes can be saved again: \(service.stderrText)")
        try service.stop()
    }
}
