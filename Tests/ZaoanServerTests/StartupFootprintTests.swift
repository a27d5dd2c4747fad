import Foundation
import Testing

/// The issue "Every request at the floor, ready in 5 ms": libical and what it pulls in (the
/// system's ICU C++ libraries, libstdc++'s users, Berkeley DB) are loaded the first time
/// libical is called (Sources/CICal/lazy.c), not when the service starts: a service that
/// only greets never maps them. Since issue 30 a recurring room needs no libical either
/// (its rule and zone are zaoan's own engine's): the service adds and shows it with libical
/// still unmapped; only a calendar file's parsing loads it.
@Suite("What start-up leaves behind: libical loaded when first needed, start-up code given back")
struct StartupFootprintTests {
    /// The lines of the process's /proc/PID/maps that name libical or the libraries it
    /// brings (Debian's ICU, libicalss, libdb).
    private static func libicalMappings(_ pid: pid_t) -> [String] {
        let maps = procFile(pid, "maps")
        return maps.split(separator: "\n").map(String.init).filter {
            $0.contains("/libical") || $0.contains("/libicuuc") || $0.contains("/libicui18n") || $0.contains("/libdb-")
        }
    }

    @Test("a service that greets never maps libical, nor one that adds and shows a recurring room")
    func loadedOnFirstUse() throws {
        let service = try TestService.start()
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        #expect(try service.ask("greeting").hasSuffix("\n"))
        #expect(try service.ask("time HH:mm").count > 1)
        #expect(Self.libicalMappings(service.pid) == [], "libical was mapped before anything needed it")
        #expect(try service.ask("live add news 2030-03-27 07:00 Morning news repeat=daily end=+30m") == "ok\n")
        #expect(try service.ask("live show news").contains("FREQ=DAILY"))
        #expect(Self.libicalMappings(service.pid) == [], "the room's rule is zaoan's engine's: libical must not be loaded for it")
    }

    /// Resident and anonymous (written) kB of the service's own executable's mappings whose
    /// permissions (`r-xp`, `rw-p`, ...) `wanted` accepts, from /proc/PID/smaps.
    private static func executableKiB(_ pid: pid_t, _ wanted: (Substring) -> Bool) -> (resident: Int, written: Int) {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
        var inside = false, resident = 0, written = 0
        for line in procFile(pid, "smaps").split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), !line.hasSuffix(":") {
                inside = wanted(fields[1]) && line.hasSuffix(executable)
            } else if inside, fields.count > 1, let kib = Int(fields[1]) {
                if fields[0] == "Rss:" { resident += kib }
                if fields[0] == "Anonymous:" { written += kib }
            }
        }
        return (resident, written)
    }

    /// Resident kB of the executable's code (r-xp).
    private static func codeResidentKiB(_ pid: pid_t) -> Int { executableKiB(pid) { $0 == "r-xp" }.resident }

    /// Resident kB of the executable's data mappings (all but r-xp): those still backed by
    /// the file (never written), and the written, anonymous ones.
    private static func dataResidentKiB(_ pid: pid_t) -> (fileBacked: Int, written: Int) {
        let data = executableKiB(pid) { $0 != "r-xp" }
        return (data.resident - data.written, data.written)
    }

    @Test("after its first answer the service gives back start-up's code pages and answers as before")
    func startupCodeGivenBack() throws {
        // Started by hand, not through TestService (whose start asks `ping`): what start-up
        // mapped is read before any answer.
        let directory = try TemporaryDirectory()
        let socket = directory.file("z.sock")
        let service = try RunningZaoan(["serve", "--socket", socket], environment: try TestService.isolatedEnvironment(in: directory),
                                       scratch: directory)
        defer { service.process.terminate(); service.process.waitUntilExit() }
        let pid = service.process.processIdentifier
        try #require(eventually(timeout: 30) { FileManager.default.fileExists(atPath: socket) }, "the service made no socket")
        let atStart = Self.codeResidentKiB(pid)
        #expect(try ask(socket, "ping") == "pong\n")
        let givenBack = eventually(timeout: 10, interval: 0.05) { Self.codeResidentKiB(pid) < atStart / 2 }
        #expect(givenBack, "the code start-up mapped (\(atStart) KiB) should be given back after the first answer; now \(Self.codeResidentKiB(pid)) KiB")
        // What serving runs comes back from the page cache: every answer as before.
        #expect(try ask(socket, "greeting").hasSuffix("\n"))
        #expect(try ask(socket, "time yyyy-MM-dd HH:mm:ss").count == 20)
        #expect(try ask(socket, "status").hasSuffix("\n"))
        #expect(try ask(socket, "live add tea +10m Tea") == "ok\n")
        #expect(try ask(socket, "countdown").contains("Tea"))
    }

    /// The release build (Swift's static Foundation) has ICU's data table and the rest of its
    /// read-only data in the writable segment: the service makes it read-only and gives its
    /// pages back with the code's. What was written (relocated pointers, globals) is never given
    /// back: those pages exist nowhere else.
    @Test("the release build gives back its read-only data after the first answer, and keeps every written page")
    func releaseDataGivenBack() throws {
        guard let zaoan = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan-server --static-swift-stdlib)")
        }
        let directory = try TemporaryDirectory()
        let socket = directory.file("z.sock")
        let service = try RunningZaoan(["serve", "--socket", socket], environment: try TestService.isolatedEnvironment(in: directory),
                                       scratch: directory, binary: zaoan)
        defer { service.process.terminate(); service.process.waitUntilExit() }
        let pid = service.process.processIdentifier
        try #require(eventually(timeout: 30) { FileManager.default.fileExists(atPath: socket) }, "the service made no socket")
        let atStart = Self.dataResidentKiB(pid)
        #expect(try ask(socket, "ping") == "pong\n")
        let givenBack = eventually(timeout: 10, interval: 0.05) { Self.dataResidentKiB(pid).fileBacked < atStart.fileBacked / 2 }
        let after = Self.dataResidentKiB(pid)
        #expect(givenBack, "the read-only data start-up touched (\(atStart.fileBacked) KiB) should be given back after the first answer; now \(after.fileBacked) KiB")
        #expect(after.written >= atStart.written, "written pages were dropped: \(atStart.written) KiB before, \(after.written) KiB after")
        // ICU's data comes back from the page cache: every answer as before.
        #expect(try ask(socket, "greeting").hasSuffix("\n"))
        #expect(try ask(socket, "time yyyy-MM-dd HH:mm:ss EEEE").count > 20)
        #expect(try ask(socket, "status").hasSuffix("\n"))
        #expect(try ask(socket, "live add tea +10m Tea") == "ok\n")
        #expect(try ask(socket, "countdown").contains("Tea"))
    }
}
