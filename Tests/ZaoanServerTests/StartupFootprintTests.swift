import Foundation
import Testing

/// The issue "Every request at the floor, ready in 5 ms": libical and what it pulls in (the
/// system's ICU C++ libraries, libstdc++'s users, Berkeley DB) are loaded the first time
/// libical is called (Sources/CICal/lazy.c), not when the service starts: a service that
/// only greets never maps them, and one asked for a recurring room loads libical then and
/// answers as before.
@Suite("What start-up leaves behind: libical loaded when first needed, start-up code given back")
struct StartupFootprintTests {
    /// The lines of the process's /proc/PID/maps that name libical or the libraries it
    /// brings (Debian's ICU, libicalss, libdb).
    private static func libicalMappings(_ pid: pid_t) -> [String] {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return maps.split(separator: "\n").map(String.init).filter {
            $0.contains("/libical") || $0.contains("/libicuuc") || $0.contains("/libicui18n") || $0.contains("/libdb-")
        }
    }

    @Test("a service that greets never maps libical; a recurring room loads it and is added")
    func loadedOnFirstUse() throws {
        let service = try TestService.start()
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        #expect(try service.ask("greeting").hasSuffix("\n"))
        #expect(try service.ask("time HH:mm").count > 1)
        #expect(Self.libicalMappings(service.pid) == [], "libical was mapped before anything needed it")
        #expect(try service.ask("live add news 2030-03-27 07:00 Morning news repeat=daily end=+30m") == "ok\n")
        #expect(Self.libicalMappings(service.pid).contains { $0.contains("/libical.so") },
                "parsing the room's rule should have loaded libical into the service")
        #expect(try service.ask("live show news").contains("FREQ=DAILY"))
    }

    /// Resident kB of the service's own executable's code mappings (r-xp).
    private static func codeResidentKiB(_ pid: pid_t) -> Int {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
        let smaps = (try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8)) ?? ""
        var inCode = false, total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), !line.hasPrefix("Rss") {
                inCode = fields[1] == "r-xp" && line.hasSuffix(executable)
            } else if inCode, fields.first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    @Test("after its first answer the service gives back start-up's code pages and answers as before")
    func startupCodeGivenBack() throws {
        var configuration = TestService.Configuration()
        configuration.arguments = ["--verbose"]
        let service = try TestService.start(configuration)
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        #expect(try service.ask("ping") == "pong\n")
        let log = try #require(eventually(timeout: 10, interval: 0.1) { service.stderrText.contains("KiB of code mappings") } ? service.stderrText : nil,
                               "the service should say it gave back its start-up code; stderr: \(service.stderrText)")
        let released = log.components(separatedBy: "gave back the pages of ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        #expect(released > 0, "no code pages given back: \(log)")
        #expect(Self.codeResidentKiB(service.pid) < released, "serving should have mapped back less code than start-up held")
        // What serving runs comes back from the page cache: every answer as before.
        #expect(try service.ask("greeting").hasSuffix("\n"))
        #expect(try service.ask("time yyyy-MM-dd HH:mm:ss").count == 20)
        #expect(try service.ask("status").hasSuffix("\n"))
        #expect(try service.ask("live add tea +10m Tea") == "ok\n")
        #expect(try service.ask("countdown").contains("Tea"))
    }
}
