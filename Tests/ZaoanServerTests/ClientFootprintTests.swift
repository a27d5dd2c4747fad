import Foundation
import Glibc
import Testing

/// The issue "Bars: lighter than i3status": `zaoan ask`, `watch` and `bar` run inside
/// prompts and bars all day, so the `zaoan` binary is a small client — no Foundation, no
/// ICU, at most 8 MB resident — and `zaoan serve` / `zaoan check-config` exec the
/// `zaoan-server` installed beside it, which since issue 34 has no Foundation or ICU either.
@Suite("The small client and the server beside it")
struct ClientFootprintTests {
    /// The most a running client may hold resident (VmHWM, its peak), in KiB.
    static let residentLimitKiB = 8 * 1024

    /// Lines of /proc/PID/maps naming Foundation or ICU (their shared libraries, when the
    /// Swift runtime is linked dynamically).
    private static func foundationMappings(_ pid: pid_t) -> [String] {
        let maps = procFile(pid, "maps")
        return maps.split(separator: "\n").map(String.init).filter {
            let lowered = $0.lowercased()
            return lowered.contains("foundation") || lowered.contains("icu")
        }
    }

    private static func mapsSwiftRuntime(_ pid: pid_t) -> Bool {
        (procFile(pid, "maps")).contains("libswiftCore.so")
    }

    /// A field of /proc/PID/status in KiB (`VmHWM`: the peak resident set), or -1.
    static func statusKiB(_ pid: pid_t, _ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return -1 }
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
    }

    /// Symbols of `binary` that belong to Foundation or ICU (`nm`; the release build is
    /// linked statically, so they would be in the file, not in a library beside it).
    private static func foundationSymbols(_ binary: String, scratch: TemporaryDirectory) throws -> [String] {
        guard let nm = Locations.tool("nm") else { try Test.cancel("nm (binutils) is not installed") }
        let result = try Tool.run(nm, ["--defined-only", binary], environment: Tool.baseEnvironment(home: scratch.path),
                                  timeout: 60, scratch: scratch)
        try #require(result.status == 0 && !result.timedOut, "nm \(binary): \(result.errorOutput.prefix(500))")
        return result.output.split(separator: "\n").map(String.init).filter {
            // Swift mangles a module name with its length: 10Foundation, 20FoundationEssentials.
            $0.contains("10Foundation") || $0.contains("FoundationEssentials") || $0.contains("FoundationInternationalization")
                || $0.contains("icu_") || $0.contains("ucal_") || $0.contains("udat_")
        }
    }

    @Test("a running zaoan watch and the service map no Foundation or ICU; this test process does")
    func clientLoadsNoFoundation() throws {
        let service = try TestService.start()
        // A watch with a service, and one without (the path a bar takes while it is down).
        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "time", "HH:mm:ss"],
                                     environment: service.environment, scratch: service.directory)
        let down = try RunningZaoan(["watch", "--socket", service.directory.file("none.sock"), "ping"],
                                    environment: service.environment, scratch: service.directory)
        try #require(watch.nextLine(timeout: 5) != nil, "stderr: \(watch.errorText)")
        try #require(down.nextLine(timeout: 5) == "zaoan: service not running", "stderr: \(down.errorText)")
        for client in [watch, down] {
            let pid = client.process.processIdentifier
            #expect(Self.foundationMappings(pid).isEmpty, "\(Self.foundationMappings(pid).prefix(5))")
        }
        // Issue 34: nothing in the service imports Foundation, so no ICU is loaded.
        #expect(Self.foundationMappings(service.pid).isEmpty, "the service maps \(Self.foundationMappings(service.pid).prefix(5))")
        // The check can see Foundation where it is: in this test process, which links it to
        // compare with ICU (when the runtime is a shared library, as in the debug build).
        if Self.mapsSwiftRuntime(getpid()) {
            #expect(!Self.foundationMappings(getpid()).isEmpty, "this test process maps Foundation")
        }
        #expect(watch.terminate() && down.terminate())
        try service.stop()
    }

    @Test("the release zaoan and zaoan-server hold no Foundation or ICU symbols; the test bundle does")
    func releaseClientHasNoFoundationSymbols() throws {
        guard let zaoan = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan; scripts/test builds it (swift build -c release --product zaoan --static-swift-stdlib)")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let found = try Self.foundationSymbols(zaoan, scratch: directory)
        let count = found.count
        #expect(count == 0, "\(count) Foundation/ICU symbols in \(zaoan), e.g. \(found.prefix(3))")
        let server = (zaoan as NSString).deletingLastPathComponent + "/zaoan-server"
        if FileManager.default.isExecutableFile(atPath: server) {
            let serverFound = try Self.foundationSymbols(server, scratch: directory)
            #expect(serverFound.isEmpty, "\(serverFound.count) Foundation/ICU symbols in \(server), e.g. \(serverFound.prefix(3))")
        }
        // The check finds them where they are: in the test bundle, whose oracles use Foundation.
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(try !Self.foundationSymbols(bundle, scratch: directory).isEmpty, "the check finds them in \(bundle)")
    }

    @Test("zaoan serve is zaoan-server: the same pid, argv[0] unchanged, the server's executable, still named zaoan")
    func serveExecsTheServer() throws {
        let service = try TestService.start()
        let pid = service.pid
        let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        let arguments = command.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        #expect(arguments.prefix(2) == [Locations.zaoan, "serve"], "\(arguments)")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable == (Locations.zaoan as NSString).deletingLastPathComponent + "/zaoan-server", "\(executable)")
        // ps -C zaoan, pgrep -x zaoan and the journal's _COMM=zaoan still find it.
        let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        #expect(name == "zaoan\n", "\(name.debugDescription)")
        try service.stop()
    }

    @Test("serve and check-config without zaoan-server beside zaoan exit 69 naming where it should be")
    func missingServer() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        let bin = try directory.makeDirectory("bin")
        let client = bin + "/zaoan"
        try FileManager.default.copyItem(atPath: Locations.zaoan, toPath: client)
        for arguments in [["serve", "--socket", directory.file("s.sock")], ["check-config"]] {
            let result = try Tool.run(client, arguments, environment: environment, timeout: 10, scratch: directory)
            #expect(!result.timedOut && result.status == 69, "\(arguments): \(result)")
            #expect(result.errorOutput.contains("zaoan \(arguments[0]) needs \(bin)/zaoan-server: No such file or directory"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sock")))
        // The clients need no server binary.
        let help = try Tool.run(client, ["--help"], environment: environment, timeout: 10, scratch: directory)
        #expect(help.status == 0 && help.output.contains("zaoan serve"), "\(help)")
        // Through a symbolic link, the server is found beside the real file.
        let link = directory.file("link-to-zaoan")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Locations.zaoan)
        try directory.write("c.json", #"{"timezone": "UTC"}"#)
        let checked = try Tool.run(link, ["check-config", directory.file("c.json")], environment: environment, timeout: 10, scratch: directory)
        #expect(checked.status == 0 && checked.output.contains(": ok (city"), "\(checked)")
    }

    /// Each client of the release build — what users run — at most 8 MB resident at its
    /// peak, read from /proc/PID/status while it runs: `watch` and `bar` once they show
    /// what the service sent, `ask` once it holds the whole answer (it has begun writing it
    /// to a pipe too small to take it all, so it waits there, at its largest).
    @Test("zaoan ask, watch and bar of the release build each stay within 8 MB resident")
    func clientsStaySmall() throws {
        guard let zaoan = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan to measure; scripts/test builds it (swift build -c release --product zaoan --static-swift-stdlib)")
        }
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"bar_blocks": ["time HH:mm:ss", "greeting", "ticker", "countdown", "status"]}"#)
        let environment = service.environment
        var peaks: [String: Int] = [:]

        let watch = try RunningZaoan(["watch", "--socket", service.socketPath, "--format", "json", "time", "HH:mm:ss"],
                                     environment: environment, scratch: service.directory, binary: zaoan)
        #expect(watch.nextLine(timeout: 5) != nil && watch.nextLine(timeout: 3) != nil, "stderr: \(watch.errorText)")
        peaks["watch"] = Self.statusKiB(watch.process.processIdentifier, "VmHWM")
        #expect(watch.terminate())

        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: environment,
                                   scratch: service.directory, binary: zaoan)
        let statusLines = bar.line(within: 5) { $0.hasPrefix("[{") } != nil && bar.nextLine(timeout: 3) != nil
        #expect(statusLines, "stderr: \(bar.errorText)")
        peaks["bar"] = Self.statusKiB(bar.process.processIdentifier, "VmHWM")
        #expect(bar.terminate())

        // An answer of ~12 KB (`%c` is 24 bytes) into a pipe of 4 KiB.
        let pattern = String(repeating: "%c", count: 500)
        let ask = try RunningZaoan(["ask", "--socket", service.socketPath, "time", pattern], environment: environment,
                                   scratch: service.directory, binary: zaoan, pipeCapacity: 4096)
        #expect(ask.waitForOutput(timeout: 5), "stderr: \(ask.errorText)")
        peaks["ask"] = Self.statusKiB(ask.process.processIdentifier, "VmHWM")
        let answer = ask.readToEnd(timeout: 5)
        #expect(answer.count > 10_000, "\(answer.count) bytes: \(ask.errorText)")
        #expect(eventually(timeout: 5) { !ask.process.isRunning } && ask.process.terminationStatus == 0)

        print("release client peak RSS (KiB): \(peaks.sorted { $0.key < $1.key })")
        for (client, peak) in peaks {
            #expect(peak > 0 && peak <= Self.residentLimitKiB, "zaoan \(client): peak RSS \(peak) KiB, over \(Self.residentLimitKiB) KiB")
        }
        try service.stop()
    }
}
