import Foundation
import Testing

/// The issue "Every request at the floor, ready in 5 ms": libical and what it pulls in (the
/// system's ICU C++ libraries, libstdc++'s users, Berkeley DB) are loaded the first time
/// libical is called (Sources/CICal/lazy.c), not when the service starts: a service that
/// only greets never maps them. Since issue 30 a recurring room needs no libical either
/// (its rule and zone are zaoan's own engine's): the service adds and shows it with libical
/// still unmapped; only a calendar file's parsing loads it.
@Suite("What start-up leaves behind: libical, ERFA and libnova loaded when first needed, the program's own mappings never changed")
struct StartupFootprintTests {
    /// The lines of the process's /proc/PID/maps that name any of `libraries`.
    private static func mappings(_ pid: pid_t, of libraries: [String]) -> [String] {
        procFile(pid, "maps").split(separator: "\n").map(String.init).filter { line in libraries.contains { line.contains($0) } }
    }

    /// libical and what it brings (Debian's ICU, libicalss, libdb).
    private static let libical = ["/libical", "/libicuuc", "/libicui18n", "/libdb-"]
    /// ERFA and libnova, which the almanac computes solar terms and new moons with.
    private static let astronomy = ["/liberfa", "/libnova"]

    /// Issue 34: ERFA and libnova are loaded the first time the almanac computes
    /// (Sources/CAstronomy/lazy.c), as libical is the first time a calendar is parsed.
    @Test("a service that greets maps neither libical nor ERFA and libnova; a recurring room needs no libical, a Chinese date loads ERFA and libnova")
    func loadedOnFirstUse() throws {
        let service = try TestService.start()
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        #expect(try service.ask("greeting").hasSuffix("\n"))
        #expect(try service.ask("time HH:mm").count > 1)
        #expect(Self.mappings(service.pid, of: Self.libical) == [], "libical was mapped before anything needed it")
        #expect(Self.mappings(service.pid, of: Self.astronomy) == [], "ERFA or libnova was mapped before the almanac computed")
        #expect(try service.ask("live add news 2030-03-27 07:00 Morning news repeat=daily end=+30m") == "ok\n")
        #expect(try service.ask("live show news").contains("FREQ=DAILY"))
        #expect(Self.mappings(service.pid, of: Self.libical) == [], "the room's rule is zaoan's engine's: libical must not be loaded for it")
        let answer = try service.ask("time MMMd calendar=chinese @Asia/Shanghai")
        #expect(!answer.hasPrefix("ERR"), "\(answer)")
        #expect(eventually(timeout: 30) { !Self.mappings(service.pid, of: Self.astronomy).isEmpty },
                "a Chinese date was answered without the almanac's libraries")
    }

    /// Issue 34: the static Swift runtime needs libstdc++; the release zaoan-server takes it
    /// from the static archive (packaging/link/libstdc++.so, a linker script), so a start
    /// does not map and relocate libstdc++.so (about 1 ms and 1 MB of a first greeting,
    /// docs/benchmarks.md). A calendar still loads libical with ICU and libstdc++.so in the
    /// reader process beside it: CalendarFeedTests' big calendar reads one with this build.
    @Test("the release service maps no libstdc++.so: it is linked in")
    func releaseMapsNoSharedLibstdcxx() throws {
        guard let release = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan-server --static-swift-stdlib)")
        }
        var configuration = TestService.Configuration()
        configuration.binary = release
        let service = try TestService.start(configuration)
        defer { try? service.stop() }  // a failed stop is reported by the next test's start
        #expect(try service.ask("greeting").hasSuffix("\n"))
        #expect(try service.ask("time yyyy-MM-dd EEEE").count > 1)
        #expect(!Self.mappings(service.pid, of: ["/libc.so"]).isEmpty, "the maps were read")
        #expect(Self.mappings(service.pid, of: ["/libstdc++"]) == [], "\(release): zaoan-server mapped libstdc++.so")
    }

    /// The lines of /proc/PID/maps for the service's own executable: address range,
    /// permissions and offset.
    private static func executableMappings(_ pid: pid_t) -> [String] {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
        return procFile(pid, "maps").split(separator: "\n").map(String.init).filter { $0.hasSuffix(executable) }
    }

    /// Issue 34: the service used to give back start-up's pages by changing its own
    /// mappings (mprotect on the writable segment, madvise(MADV_DONTNEED) on code and data),
    /// which a page written since load (a relocation, a debugger) would silently lose. It no
    /// longer touches them: what the loader mapped stays mapped as it was, in the debug and
    /// the release build alike.
    @Test("the service never changes its own mappings: the same maps before and after answering")
    func mappingsUntouched() throws {
        for binary in [Locations.zaoan, Locations.releaseZaoan].compactMap({ $0 }) {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let socket = directory.file("z.sock")
            let service = try RunningZaoan(["serve", "--socket", socket], environment: try TestService.isolatedEnvironment(in: directory),
                                           scratch: directory, binary: binary)
            defer { service.process.terminate(); service.process.waitUntilExit() }
            let pid = service.process.processIdentifier
            try #require(eventually(timeout: 30) { FileManager.default.fileExists(atPath: socket) }, "the service made no socket")
            let atStart = Self.executableMappings(pid)
            #expect(!atStart.isEmpty)
            for request in ["ping", "greeting", "time yyyy-MM-dd HH:mm:ss EEEE", "status", "live add tea +10m Tea", "countdown"] {
                #expect(try ask(socket, request).hasSuffix("\n"), "\(request)")
            }
            // The first turn after an answer is where the page release ran: wait past it.
            #expect(try ask(socket, "ping") == "pong\n")
            #expect(Self.executableMappings(pid) == atStart, "\(binary): the service changed its own mappings")
        }
    }
}
