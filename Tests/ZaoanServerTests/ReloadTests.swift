import Foundation
import Glibc
import Testing

@Suite("Reloading the configuration")
struct ReloadTests {
    private func city(of greeting: String) -> String {
        String(greeting.split(separator: "·").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("reload with a broken file answers ERR bad-config and keeps the old settings")
    func reloadBrokenFile() throws {
        let service = try TestService.start(config: #"{"language": "en", "city": "Tokyo"}"#)
        #expect(city(of: try service.ask("greeting")) == "Tokyo")

        try Data(#"{"language": "en", "city": "Paris""#.utf8).write(to: URL(fileURLWithPath: service.configPath))
        let broken = try service.ask("reload")
        #expect(broken.hasPrefix("ERR bad-config "), "\(broken)")
        #expect(city(of: try service.ask("greeting")) == "Tokyo", "the old settings should stay")

        // Valid JSON with a bad value: rejected too, naming the key.
        try Data(#"{"language": "en", "city": "Lilliput"}"#.utf8).write(to: URL(fileURLWithPath: service.configPath))
        let unknownCity = try service.ask("reload")
        #expect(unknownCity.hasPrefix("ERR bad-config ") && unknownCity.contains("city"), "\(unknownCity)")
        #expect(city(of: try service.ask("greeting")) == "Tokyo")

        // And a good file is taken.
        try Data(#"{"language": "en", "city": "Paris"}"#.utf8).write(to: URL(fileURLWithPath: service.configPath))
        #expect(try service.ask("reload") == "ok\n")
        #expect(city(of: try service.ask("greeting")) == "Paris")
        try service.stop()
    }

    @Test("SIGHUP re-reads the file: a good change moves the greeting's city, a bad one is ignored")
    func sighup() throws {
        let service = try TestService.start(config: #"{"language": "zh", "city": "北京"}"#)
        #expect(city(of: try service.ask("greeting")) == "北京")

        try Data(#"{"language": "zh", "city": "东京"}"#.utf8).write(to: URL(fileURLWithPath: service.configPath))
        service.signal(SIGHUP)
        let moved = try eventually(timeout: 5) { city(of: try service.ask("greeting")) == "东京" }
        #expect(moved, "greeting after SIGHUP: \((try? service.ask("greeting")) ?? "none"); stderr: \(service.stderrText)")

        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: service.configPath))
        service.signal(SIGHUP)
        // The rejection is logged; wait for it, then check nothing changed.
        let logged = eventually(timeout: 5) { service.stderrText.contains("reload rejected") || service.stderrText.lowercased().contains("keeping") }
        #expect(logged, "a rejected reload should be logged; stderr: \(service.stderrText)")
        #expect(service.isRunning)
        #expect(city(of: try service.ask("greeting")) == "东京")
        try service.stop()
    }

    /// ~1 MiB of cities (each one a place to resolve): seconds to read in a debug build.
    private static let bigConfig = "{\"language\": \"en\", \"city\": \"Paris\", \"cities\": {"
        + (0..<30_000).map { #""City\#($0)": "Asia/Tokyo""# }.joined(separator: ", ") + "}}"

    @Test("a reload is read off the loop: another client's ping is answered while it is read, and the reload's own answer comes in its place")
    func readOffTheLoop() throws {
        let service = try TestService.start(config: #"{"language": "en", "city": "Tokyo"}"#)
        try Data(Self.bigConfig.utf8).write(to: URL(fileURLWithPath: service.configPath))
        // Read on the loop (before), the ping waited for the whole read and the reload's answer
        // was written first, every time. Off the loop, the read outlasts a ping by far; three
        // tries keep a loaded machine's scheduling from deciding.
        var pingFirst = false
        for _ in 0..<3 where !pingFirst {
            let reloading = try RawClient(path: service.socketPath, timeout: 60)
            try reloading.send("reload\nping\n")
            let other = try RawClient(path: service.socketPath, timeout: 60)
            try other.send("ping\n")
            #expect(try other.readLine() == "pong")
            pingFirst = reloading.peerState(within: 0) == .open
            // The reload's answer, then the ping behind it, in request order.
            #expect(try reloading.readLine() == "ok")
            #expect(try reloading.readLine() == "pong")
        }
        #expect(pingFirst, "another client's ping waited for the config to be read")
        #expect(try service.ask("greeting City29999").contains("City29999"), "the cities read off the loop are in force")
        try service.stop()
    }

    @Test("a room change sent after a reload in one write waits for the reload and is answered after it")
    func changeAfterReloadInOrder() throws {
        let service = try TestService.start(config: #"{"language": "en", "city": "Tokyo"}"#)
        try Data(Self.bigConfig.utf8).write(to: URL(fileURLWithPath: service.configPath))
        let client = try RawClient(path: service.socketPath, timeout: 60)
        // The change is refused (no such room), so its answer cannot pass for the reload's.
        try client.send("session\nreload\nlive rm nosuch\ngreeting\nquit\n")
        let lines = try client.readToEndText().split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        guard lines.count == 5 else { return }
        #expect(lines[0] == "ok" && lines[1] == "ok", "\(lines)")
        #expect(lines[2].hasPrefix("ERR not-found"), "\(lines)")
        #expect(city(of: lines[3]) == "Paris", "\(lines)")
        try service.stop()
    }
}
