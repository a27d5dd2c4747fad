import Foundation
import Glibc
import Testing

/// `zaoan ask`, `watch` and `bar` run inside prompts and bars dozens of times a minute: a
/// broken or hostile server, or a hostile argument, must never hang them, bloat them, reach
/// the terminal as control sequences, or send a request the user did not mean.
@Suite("Clients that cannot be turned against their user")
struct ClientHardeningTests {
    /// A server that is not zaoan (Support/fake_server.py), misbehaving as `mode` says.
    final class FakeServer {
        let process = Process()
        let path: String

        init(_ mode: String, in directory: TemporaryDirectory, name: String = "fake.sock") throws {
            path = directory.file(name)
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: Neighbour.python)
            process.arguments = [Locations.packageRoot + "/Tests/ZaoanServerTests/Support/fake_server.py", mode, path]
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            let ready = output.fileHandleForReading.availableData
            guard String(decoding: ready, as: UTF8.self).hasPrefix("ready") else {
                throw TestFailure("fake server \(mode) did not start")
            }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private static let python = Neighbour.python

    /// Runs the shipped build of zaoan and reports its peak resident memory (ru_maxrss of the
    /// child, from Debian's python as a tiny wrapper). The debug build the other tests use
    /// loads more (about 19 MB before it does anything): memory is measured on what users run.
    private func runMeasured(_ arguments: [String], environment: [String: String], timeout: Double,
                             scratch: TemporaryDirectory) throws -> (result: ToolResult, peakKiB: Int) {
        guard let zaoan = Locations.releaseZaoan else {
            try Test.cancel("no release build at .build/release/zaoan to measure; scripts/test builds it (swift build -c release --product zaoan --static-swift-stdlib)")
        }
        let wrapper = """
            import resource, signal, subprocess, sys
            child = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL if sys.argv[1] == "quiet" else None)
            try:
                status = child.wait(timeout=float(sys.argv[1]) if sys.argv[1] != "quiet" else 30)
            except subprocess.TimeoutExpired:
                child.send_signal(signal.SIGTERM)
                status = child.wait()
            print("PEAK", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            sys.exit(status if status >= 0 else 128 - status)
            """
        try scratch.write("measure.py", wrapper)
        let result = try Tool.run(Self.python, [scratch.file("measure.py"), String(timeout), zaoan] + arguments,
                                  environment: environment, timeout: timeout + 20, scratch: scratch)
        let peak = result.errorOutput.split(separator: "\n").last { $0.hasPrefix("PEAK ") }.flatMap { Int($0.dropFirst(5)) } ?? -1
        return (result, peak)
    }

    @Test("a request word holding a line break or another control character is refused with exit 64, and nothing is sent",
          arguments: [["ask", "greeting", "Tokyo\nlive add smuggled +1h \"x"], ["ask", "greeting Tokyo\rlive rm a"],
                      ["watch", "time", "HH:mm\u{1B}]0;x\u{07}"], ["ask", "--", "ping\u{2028}live rm a"], ["ask", "ping\u{85}"]])
    func smuggling(arguments: [String]) throws {
        let service = try TestService.start()
        let result = try service.zaoan(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.errorOutput.contains("must not hold control characters or line breaks"), "\(result)")
        #expect(try service.ask("live list") == "\n", "no room was created")
        try service.stop()
    }

    @Test("check-config quotes a city name with escape sequences as visible text, in its answer and its errors")
    func checkConfigFiltersText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = try TestService.isolatedEnvironment(in: directory)
        try directory.write("good.json", #"{"city": "A\u001b]0;pwned\u0007\u009b2J", "timezone": "UTC"}"#)
        try directory.write("bad.json", #"{"city": "B\u001b[2J\u001b]0;pwned\u0007"}"#)
        let good = try Tool.run(Locations.zaoan, ["check-config", directory.file("good.json")], environment: environment, timeout: 10, scratch: directory)
        #expect(good.status == 0 && good.output.contains("city A␛]0;pwned␇"), "\(good)")
        let bad = try Tool.run(Locations.zaoan, ["check-config", directory.file("bad.json")], environment: environment, timeout: 10, scratch: directory)
        #expect(bad.status == 1 && bad.errorOutput.contains("B␛[2J␛]0;pwned␇"), "\(bad)")
        for text in [good.output, good.errorOutput, bad.output, bad.errorOutput] {
            #expect(rawControls(in: text).isEmpty, "\(text.debugDescription)")
        }
    }

    @Test("a bar block holding a line break is refused by the config check, and left out by the bar, which sends it to nobody")
    func smugglingInBarConfig() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("c.json", #"{"bar_blocks": ["greeting Tokyo\nlive add x +1h y"]}"#)
        let environment = try TestService.isolatedEnvironment(in: directory)
        let check = try Tool.run(Locations.zaoan, ["check-config", directory.file("c.json")], environment: environment, timeout: 10, scratch: directory)
        #expect(check.status == 1 && check.errorOutput.contains("bar_blocks") && check.errorOutput.contains("line break"), "\(check)")
        // The bar (a bad value costs only itself): the block is left out with a warning, and
        // with no block left the default blocks stand; nothing holding the line break is sent.
        let service = try TestService.start()
        defer { try? service.stop() }
        let bar = try RunningZaoan(["bar", "--config", directory.file("c.json"), "--socket", service.socketPath], environment: environment, scratch: directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 10) { $0.contains("\"instance\":\"3-time\"") } != nil, "the default blocks: \(bar.lines.suffix(2)); \(bar.errorText)")
        #expect(eventually(timeout: 10) { bar.errorText.contains("warning: ") && bar.errorText.contains("bar_blocks") && bar.errorText.contains("line break") },
                "\(bar.errorText)")
        #expect(try service.ask("live list") == "\n", "no room was added by the smuggled line")
    }

    @Test("a server that never finishes its answer: ask stops at the deadline, says so and names the socket",
          arguments: [("silent", "5s", 5.0), ("trickle", "2s", 2.0), ("silent", "100ms", 0.1)])
    func deadline(mode: String, timeout: String, seconds: Double) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try FakeServer(mode, in: directory)
        let arguments = (timeout == "5s" ? [] : ["--timeout", timeout]) + ["ping"]
        let result = try Tool.run(Locations.zaoan, ["ask", "--socket", server.path] + arguments,
                                  environment: try TestService.isolatedEnvironment(in: directory), timeout: 30, scratch: directory)
        #expect(result.status == 2, "\(result)")
        #expect(result.errorOutput.contains("within \(timeout == "5s" ? "5 s" : timeout == "2s" ? "2 s" : "100 ms")") && result.errorOutput.contains(server.path),
                "\(result)")
        #expect(result.elapsed >= seconds * 0.9 && result.elapsed < seconds + 5, "waited \(result.elapsed) s for a \(timeout) deadline")
    }

    @Test("a server that never ends its answer or floods lines: ask and watch stop or keep going in at most 16 MB",
          Sanitizer.skipped("it bounds the client's resident memory"), arguments: ["ask endless", "watch endless", "watch flood"])
    func sizeLimits(testCase: String) throws {
        let (command, mode) = (String(testCase.split(separator: " ")[0]), String(testCase.split(separator: " ")[1]))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try FakeServer(mode, in: directory)
        let (result, peakKiB) = try runMeasured([command, "--socket", server.path, "ping"],
                                                environment: try TestService.isolatedEnvironment(in: directory),
                                                timeout: command == "ask" ? 15 : 3, scratch: directory)
        print("\(testCase): exit \(result.status), peak RSS \(peakKiB / 1024) MB")
        #expect(peakKiB > 0 && peakKiB <= 16 * 1024, "peak RSS \(peakKiB) KiB")
        switch testCase {
        case "ask endless":
            #expect(result.status == 2 && result.errorOutput.contains("longer than 1024 KiB"), "\(result)")
        case "watch endless":
            #expect(result.errorOutput.contains("a line longer than 64 KiB"), "\(result)")
        default:
            #expect(result.output.count > 100_000, "the flood was printed as it came: \(result.output.count) bytes")
        }
    }

    /// What a terminal must never receive: C0 controls but TAB and LF, DEL, C1 controls (the
    /// 8-bit CSI among them) and bidirectional overrides.
    private func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    @Test("a server that sends escape sequences: ask and watch print none of them")
    func controlsFiltered() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try FakeServer("controls", in: directory)
        let environment = try TestService.isolatedEnvironment(in: directory)
        let ask = try Tool.run(Locations.zaoan, ["ask", "--socket", server.path, "ping"], environment: environment, timeout: 10, scratch: directory)
        #expect(ask.status == 0 && rawControls(in: ask.output).isEmpty && ask.output.contains("␛]0;pwned␇"), "\(ask)")
        let watch = try Tool.run(Locations.zaoan, ["watch", "--socket", server.path, "ping"], environment: environment, timeout: 3, scratch: directory)
        #expect(rawControls(in: watch.output).isEmpty && watch.output.contains("␛[2J"), "\(watch)")
        #expect(rawControls(in: watch.errorOutput).isEmpty, "\(watch)")
    }

    @Test("watch --format json and i3bar pass only the fields zaoan writes, with markup that cannot open a tag")
    func barFieldsFiltered() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try FakeServer("blocks", in: directory)
        let environment = try TestService.isolatedEnvironment(in: directory)
        let json = try Tool.run(Locations.zaoan, ["watch", "--socket", server.path, "--format", "json", "status"],
                                environment: environment, timeout: 3, scratch: directory)
        let first = try #require(json.output.split(separator: "\n").first, "\(json)")
        #expect(String(first) == #"{"text":"&lt;b&gt;big&lt;/b&gt; &amp;bogus; ␛]0;t␇","tooltip":"&lt;i&gt;t&lt;/i&gt;","class":"xyz","alt":"xyz"}"#,
                "\(first)")
        let i3bar = try Tool.run(Locations.zaoan, ["watch", "--socket", server.path, "--format", "i3bar", "status"],
                                 environment: environment, timeout: 3, scratch: directory)
        let block = try #require(i3bar.output.split(separator: "\n").first, "\(i3bar)")
        #expect(String(block) == ##"{"name":"zaoan","instance":"x","full_text":"&lt;span color=&quot;red&quot;&gt;x&lt;/span&gt; ␛[2J","color":"#ff0000","urgent":false,"markup":"pango"}"##
                || String(block).contains(#""full_text":"&lt;span"#), "\(block)")
        // A colour zaoan writes too (countdown_levels) passes, rewritten from its bytes; a bad one would not
        // (CountdownFormatServiceTests); nothing else does.
        #expect(String(block).contains(##""color":"#ff0000","urgent""##) && !String(block).contains("separator_block_width"), "\(block)")
    }

    @Test("the fallback socket directory /tmp/zaoan-<uid> is trusted only if it is the user's own and private",
          .enabled(if: Neighbour.unavailable == nil, "\(Neighbour.unavailable ?? "")"))
    func foreignDirectory() throws {
        let uid: uid_t = 65531
        let fallback = "/tmp/zaoan-\(uid)"
        try? FileManager.default.removeItem(atPath: fallback)
        defer { try? FileManager.default.removeItem(atPath: fallback) }
        try FileManager.default.createDirectory(atPath: fallback, withIntermediateDirectories: false)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        // Another user's server, planted where uid 65531's clients look.
        let server = try FakeServer("controls", in: TemporaryDirectory(path: fallback), name: "zaoan.sock")
        chmod(server.path, 0o666)
        func askAs65531() throws -> ToolResult {
            try Tool.run(Locations.tool("setpriv")!, ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Locations.zaoan, "ask", "ping"],
                         environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"], timeout: 10, scratch: directory)
        }
        for (owner, mode) in [(uid_t(65530), mode_t(0o755)), (uid, 0o755), (uid, 0o770), (uid_t(65530), 0o700)] {
            chown(fallback, owner, owner)
            chmod(fallback, mode)
            let result = try askAs65531()
            #expect(result.status == 2 && result.errorOutput.contains("not connecting to \(fallback)/zaoan.sock"),
                    "owner \(owner), mode \(String(mode, radix: 8)): \(result)")
            #expect(!result.output.contains("pwned"), "nothing from the planted server")
        }
        chown(fallback, uid, uid)
        chmod(fallback, 0o700)
        let own = try askAs65531()
        #expect(own.status == 0 && rawControls(in: own.output).isEmpty, "its own private directory is used: \(own)")
        _ = server
    }
}

extension TemporaryDirectory {
    /// An existing directory, used as one (not removed by the caller's `remove`).
    init(path: String) {
        self.path = path
    }
}
