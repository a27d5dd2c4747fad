import Foundation
import Testing

/// The issue "Every request at the floor, ready in 5 ms": libical and what it pulls in (the
/// system's ICU C++ libraries, libstdc++'s users, Berkeley DB) are loaded the first time
/// libical is called (Sources/CICal/lazy.c), not when the service starts: a service that
/// only greets never maps them, and one asked for a recurring room loads libical then and
/// answers as before.
@Suite("libical is loaded when first needed")
struct LazyLibICalTests {
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
}
