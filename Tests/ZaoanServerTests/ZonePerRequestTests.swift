import Foundation
import Testing

/// One service, several cities: `time`, `greeting` and `status` take a zone or city per
/// request (`@Asia/Tokyo`, `@东京`), so a bar can show several clocks from one service.
@Suite("Zones per request")
struct ZonePerRequestTests {
    /// `date +%H:%M %z` in a zone, at the instant `service` answers for (same minute,
    /// asked again if the minute turned in between).
    private func expectSameAsDate(_ service: TestService, zone: String, request: String) throws {
        for _ in 0..<3 {
            let before = try dateNow(zone, service)
            let answer = try service.ask(request)
            let after = try dateNow(zone, service)
            if before == after {
                #expect(answer == before, "\(request)")
                return
            }
        }
        Issue.record("the minute kept turning while asking \(request)")
    }

    private func dateNow(_ zone: String, _ service: TestService) throws -> String {
        let result = try Tool.run("/bin/date", ["+%H:%M %z"], environment: ["TZ": zone, "LC_ALL": "C"], scratch: service.directory)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test("time, greeting and status in another zone, by IANA name or city")
    func zonesAndCities() throws {
        let service = try TestService.start(arguments: ["--language", "zh", "--timezone", "UTC", "--city", "北京"])
        defer { try? service.stop() }
        try expectSameAsDate(service, zone: "UTC", request: "time HH:mm xx")
        try expectSameAsDate(service, zone: "Asia/Tokyo", request: "time HH:mm xx @Asia/Tokyo")
        try expectSameAsDate(service, zone: "Asia/Tokyo", request: "time HH:mm xx @东京")
        try expectSameAsDate(service, zone: "Asia/Kathmandu", request: "time HH:mm xx @Asia/Kathmandu")
        try expectSameAsDate(service, zone: "America/New_York", request: #"time "HH:mm xx" @"New York""#)
        try expectSameAsDate(service, zone: "Pacific/Chatham", request: "time %H:%M %z @Pacific/Chatham")
        #expect(try service.ask("greeting @Europe/Berlin").hasSuffix("·柏林\n"))
        #expect(try service.ask("greeting Europe/Berlin").hasSuffix("·柏林\n"))
        #expect(try service.ask("greeting @东京").hasSuffix("·东京\n"))
        #expect(try service.ask("greeting @America/Argentina/Buenos_Aires").hasSuffix("·Buenos Aires\n"))
        let status = try service.ask("status @东京")
        #expect(status.contains("·东京"), "\(status)")
        let json = try service.ask("--format=json time HH:mm @Asia/Tokyo")
        #expect(json.hasPrefix(#"{"text":""#), "\(json)")
    }

    @Test("an unknown or hostile zone is a clear error and nothing else", arguments: [
        "time HH:mm @Lilliput", "time HH:mm @../../../etc/passwd", "time HH:mm @/etc/localtime",
        "greeting @Mars/Olympus_Mons", "status @Asia/Tokyo\u{1}",
    ])
    func unknownZones(request: String) throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let answer = try service.ask(request)
        #expect(answer.hasPrefix("ERR unknown-city unknown city or zone") || answer.hasPrefix("ERR unknown-city unknown city"), "\(request): \(answer)")
        #expect(try service.ask("ping") == "pong\n")
    }

    @Test("a zone name longer than 64 bytes is refused by length")
    func longZone() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let answer = try service.ask("time HH:mm @" + String(repeating: "A", count: 65))
        #expect(answer.hasPrefix("ERR bad-argument the zone '@AAAA"), "\(answer)")
        #expect(answer.contains("longer than 64 bytes"), "\(answer)")
    }

    @Test("a watched clock in another zone streams")
    func watchZoned() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        let watch = try RawClient(path: service.socketPath, timeout: 10)
        try watch.send("watch time xx @Asia/Kolkata\n")
        #expect(try watch.readLine() == "+0530")
    }
}
