import Foundation
import Glibc
import Testing

/// What the real-bar test needs besides zaoan, and the Debian packages that have it.
private enum HeadlessDesktop {
    static let packages = "xvfb i3-wm xdotool x11-utils x11-apps fonts-dejavu-core"
    static let names = ["Xvfb", "i3", "i3bar", "i3-msg", "xdotool", "xwd"]

    /// The tools by name, or a failure naming the packages (scripts/test installs them).
    static func tools() throws -> [String: String] {
        var found: [String: String] = [:]
        var missing: [String] = []
        for name in names {
            if let path = Locations.tool(name) { found[name] = path } else { missing.append(name) }
        }
        guard missing.isEmpty else {
            throw TestFailure("\(missing.joined(separator: ", ")) not found; install the Debian packages \(packages) (scripts/test does)")
        }
        return found
    }
}

/// Processes this test did not start itself (i3 starts i3bar in a session of its own, i3bar
/// starts `sh -c` and zaoan), found and ended through /proc.
private enum ProcessTable {
    /// A process's arguments; nil if it is gone or a zombie (whose cmdline is empty).
    static func arguments(_ pid: pid_t) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The first process whose arguments satisfy `matches`.
    static func find(_ matches: ([String]) -> Bool) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in entries.compactMap({ pid_t($0) }).sorted() {
            if let arguments = arguments(pid), matches(arguments) { return pid }
        }
        return nil
    }

    /// Running, not a zombie (nothing may reap what i3 double-forked away in a container).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    /// SIGTERM, then SIGKILL after 5 s, to `pid` if it still runs `matches` (so a reused pid
    /// is never signalled).
    static func end(_ pid: pid_t?, _ matches: ([String]) -> Bool) {
        guard let pid, let arguments = arguments(pid), matches(arguments) else { return }
        kill(pid, SIGTERM)
        if !eventually(timeout: 5, { !isRunning(pid) }) { kill(pid, SIGKILL) }
    }
}

/// One `session` connection that asks `stats`, so the test's own questions do not add to
/// `connections_total`.
private final class StatsSession {
    private let client: RawClient

    init(path: String) throws {
        client = try RawClient(path: path, timeout: 5)
        try client.send("session\n")
        let answer = try client.readLine()
        guard answer == "ok" else { throw TestFailure("session answered \(answer.debugDescription)") }
    }

    /// The `stats` fields as numbers (the ones that are).
    func stats() throws -> [String: Int] {
        try client.send("stats\n")
        var fields: [String: Int] = [:]
        while true {
            let line = try client.readLine()
            if line.isEmpty { break }  // stats ends with an empty line
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
                fields[String(parts[0])] = value
            }
        }
        return fields
    }

    func value(_ key: String) throws -> Int {
        guard let value = try stats()[key] else { throw TestFailure("stats has no \(key)") }
        return value
    }
}

@Suite("zaoan bar in a real i3bar (i3 on Xvfb)")
struct RealI3barTests {
    @Test("i3bar hidden: zaoan bar closes its watch and sleeps; shown: it watches again; a click on the clock re-watches")
    func hideShowAndClick() throws {
        let started = Date()
        let tools = try HeadlessDesktop.tools()
        let service = try TestService.start(
            arguments: ["--language", "en"],
            config: ##"{"bar_blocks": ["countdown format=short", "time HH:mm:ss"], "bar_clock_formats": ["HH:mm:ss", "yyyy-MM-dd"], "countdown_formats": {"short": {"upcoming": "{title} {until}"}}, "countdown_levels": {"warning": {"minutes": 60, "color": "#ffb000"}}}"##)
        defer { try? service.stop() }
        let scratch = service.directory
        // A room 40 minutes ahead: the countdown block (in its own format) is at the warning
        // level, its text in #ffb000.
        try #require(try service.ask("live add tea +40m Tea") == "ok\n")

        // The X server picks a free display itself (-displayfd: it writes the number once it
        // accepts connections), so parallel runs never race for one.
        let xvfb = try StreamingProcess(
            ["/bin/sh", "-c", #"exec "$0" -displayfd 1 -screen 0 800x200x24 -nolisten tcp"#, tools["Xvfb"]!],
            environment: service.environment, stderrPath: scratch.file("xvfb.log"))
        defer { xvfb.stop() }
        guard let number = try xvfb.readLine(timeout: 20).flatMap({ Int($0) }) else {
            throw TestFailure("Xvfb did not report a display; its log: \(xvfb.errorText)")
        }
        var environment = service.environment
        environment["DISPLAY"] = ":\(number)"

        // i3 with no bar but ours, exactly as a user writes it: i3bar runs the status command
        // through `sh -c`, so the stop and continue signals (sent to the process group) reach
        // that shell too. No config wizard: that is started only by the default config. i3
        // runs as root too (on Xvfb it does not refuse, unlike sway), so no setpriv.
        let ipc = scratch.file("i3.sock")
        let zaoanBar = [Locations.zaoan, "bar", "--socket", service.socketPath, "--config", service.configPath]
        try scratch.write("i3.conf", """
            # i3 config file (v4)
            ipc-socket \(ipc)
            font pango:DejaVu Sans Mono 10
            bar {
                status_command \(zaoanBar.map(Hostile.shellQuoted).joined(separator: " "))
                mode dock
                position top
                font pango:DejaVu Sans Mono 10
            }

            """)
        let i3 = try StreamingProcess(["/bin/sh", "-c", #"exec "$0" -c "$1" 1>&2"#, tools["i3"]!, scratch.file("i3.conf")],
                                      environment: environment, stderrPath: scratch.file("i3.log"))
        // i3bar and zaoan bar leave with i3; if they do not, they are ended by pid.
        let isI3bar = { (arguments: [String]) in
            arguments.first.map { $0.hasSuffix("i3bar") } == true && arguments.contains("--socket=\(ipc)")
        }
        let isZaoanBar = { (arguments: [String]) in Array(arguments.prefix(zaoanBar.count)) == zaoanBar }
        var i3barPID: pid_t?
        var barPID: pid_t?
        defer {
            i3.stop()
            ProcessTable.end(i3barPID, isI3bar)
            ProcessTable.end(barPID, isZaoanBar)
        }
        func logs() -> String { "i3 and i3bar log (zaoan bar's stderr included): \(i3.errorText)" }
        func i3msg(_ command: String) throws {
            let result = try Tool.run(tools["i3-msg"]!, ["-s", ipc, command], environment: environment, scratch: scratch)
            guard result.status == 0, result.output.contains(#""success":true"#) else {
                throw TestFailure("i3-msg \(command): \(result); \(logs())")
            }
        }

        // Running: i3bar's child zaoan bar watches the service.
        #expect(eventually(timeout: 20) {
            i3barPID = ProcessTable.find(isI3bar)
            barPID = ProcessTable.find(isZaoanBar)
            return barPID != nil && i3barPID != nil
        }, "i3bar and its status command zaoan bar should start; \(logs())")
        let bar = try #require(barPID)
        let stats = try StatsSession(path: service.socketPath)
        #expect(try eventually(timeout: 10) { try stats.value("watches") == 1 }, "zaoan bar should watch; \(logs())")
        let ready = Date()

        // The countdown block's colour, as i3bar draws it: the bar's pixels (xwd of the root
        // window) hold amber text, glyph pixels of (255, 176, 0) scaled by their coverage;
        // i3bar's own white text and black background have none.
        var amber = 0
        #expect(try eventually(timeout: 20, interval: 0.3) {
            amber = try XWindowDump.pixels(tools["xwd"]!, environment: environment, scratch: scratch, rows: 0..<40)
                .filter { $0.red > 150 && $0.blue < 40 && (55...75).contains(Int($0.green) * 100 / Int($0.red)) }.count
            return amber > 20
        }, "i3bar should draw the warning level's colour #ffb000 (\(amber) amber pixels); \(logs())")

        // Hidden: `bar mode hide` makes i3bar (4.22) unmap its window (hidden_state starts as
        // hide) and send the stop signal; `bar mode dock` below sends the continue signal.
        try i3msg("bar mode hide")
        #expect(try eventually(timeout: 10) { try stats.value("watches") == 0 },
                "a hidden bar should have no watch at the service; \(logs())")
        try #require(ProcessTable.isRunning(bar), "zaoan bar must survive the stop signal (and so must the sh -c around it); \(logs())")
        // Over a measured window: a sleeping bar wakes at most once or twice.
        let before = WakeupTests.voluntarySwitches(bar), windowStart = Date()
        Thread.sleep(forTimeInterval: 3)
        let wakeups = WakeupTests.voluntarySwitches(bar) - before
        let window = Date().timeIntervalSince(windowStart)
        print("hidden zaoan bar: \(wakeups) wake-ups in \(String(format: "%.1f", window)) s")
        try #require(ProcessTable.isRunning(bar), "zaoan bar should still run while hidden; \(logs())")
        #expect(wakeups <= 2, "the hidden zaoan bar woke \(wakeups) times in \(window) s")

        // Shown: `bar mode dock` maps the bar again and i3bar sends the continue signal.
        try i3msg("bar mode dock")
        #expect(try eventually(timeout: 10) { try stats.value("watches") == 1 },
                "a shown bar should watch again; \(logs())")
        try #require(ProcessTable.isRunning(bar) && ProcessTable.find(isZaoanBar) == bar,
                "the same zaoan bar should be running; \(logs())")

        // A click on the clock: i3bar draws status blocks right-aligned, and the clock (the
        // last block, 8 characters) holds x = width − 30. The bar re-watches with the next format.
        var geometry: [String: Int] = [:]
        #expect(try eventually(timeout: 10) {
            let search = try Tool.run(tools["xdotool"]!, ["search", "--onlyvisible", "--class", "i3bar"],
                                      environment: environment, scratch: scratch)
            guard let window = search.output.split(separator: "\n").first else { return false }
            let shell = try Tool.run(tools["xdotool"]!, ["getwindowgeometry", "--shell", String(window)],
                                     environment: environment, scratch: scratch)
            geometry = Dictionary(shell.output.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]) else { return nil }
                return (String(parts[0]), value)
            }) { $1 }
            return (geometry["WIDTH"] ?? 0) > 30 && (geometry["HEIGHT"] ?? 0) > 0
        }, "the i3bar window should be visible; \(logs())")
        let x = geometry["X", default: 0] + geometry["WIDTH", default: 0] - 30
        let y = geometry["Y", default: 0] + geometry["HEIGHT", default: 0] / 2
        let connections = try stats.value("connections_total")
        let click = try Tool.run(tools["xdotool"]!, ["mousemove", "\(x)", "\(y)", "click", "1"],
                                 environment: environment, scratch: scratch)
        #expect(click.status == 0, "\(click)")
        #expect(try eventually(timeout: 10) { try stats.value("connections_total") > connections },
                "a click at (\(x), \(y)) on the clock should make zaoan bar watch anew; \(logs())")
        #expect(try eventually(timeout: 10) { try stats.value("watches") == 1 }, "one watch after the click; \(logs())")

        print("real i3bar test: X, i3 and the bar ready in \(String(format: "%.1f", ready.timeIntervalSince(started))) s, "
              + "whole test \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }
}

/// The root window's pixels from `xwd` (x11-apps), read from its XWD file: a header of
/// big-endian 32-bit fields, the window name, the colour map, then ZPixmap rows. Xvfb's
/// 24-bit screen has 32 bits per pixel, blue first when the byte order is LSBFirst.
enum XWindowDump {
    struct Pixel: Equatable { let red, green, blue: UInt8 }

    static func pixels(_ xwd: String, environment: [String: String], scratch: TemporaryDirectory, rows: Range<Int>) throws -> [Pixel] {
        let path = scratch.file("root.xwd")
        let result = try Tool.run(xwd, ["-root", "-silent", "-out", path], environment: environment, scratch: scratch)
        guard result.status == 0, let data = FileManager.default.contents(atPath: path) else { throw TestFailure("xwd: \(result)") }
        let bytes = [UInt8](data)
        func field(_ index: Int) throws -> Int {
            let at = index * 4
            guard at + 4 <= bytes.count else { throw TestFailure("xwd file too short") }
            return bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = try field(0), width = try field(4), height = try field(5), byteOrder = try field(7)
        let bitsPerPixel = try field(11), bytesPerLine = try field(12), colours = try field(19)
        guard bitsPerPixel == 32 else { throw TestFailure("xwd: \(bitsPerPixel) bits per pixel, expected 32") }
        let start = headerSize + colours * 12
        var found: [Pixel] = []
        for row in rows where row < height {
            for column in 0..<width {
                let at = start + row * bytesPerLine + column * 4
                guard at + 4 <= bytes.count else { throw TestFailure("xwd file too short for \(width)x\(height)") }
                let p = bytes[at..<at + 4].map { $0 }
                found.append(byteOrder == 0 ? Pixel(red: p[2], green: p[1], blue: p[0]) : Pixel(red: p[1], green: p[2], blue: p[3]))
            }
        }
        return found
    }
}
