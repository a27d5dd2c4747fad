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
        try Data(#"{"language": "en", "city": "Atlantis"}"#.utf8).write(to: URL(fileURLWithPath: service.configPath))
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
}
