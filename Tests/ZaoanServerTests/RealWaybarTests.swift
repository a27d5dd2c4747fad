import Foundation
import Glibc
import Testing

/// A Wayland desktop with nobody at it: sway 1.7 headless (it refuses to run as root, so it
/// runs as `nobody` through setpriv) with waybar as its bar, a session bus of its own for the
/// accessibility bus, and tools to look at it.
private struct HeadlessSway {
    static let packages = "sway waybar grim dbus-daemon at-spi2-core python3-pyatspi fonts-dejavu-core"
    /// Debian's Python, which has pyatspi; the `python3` first on PATH may be another.
    static let python = "/usr/bin/python3"

    /// Lists every label of the application called waybar with its accessible name and
    /// description (GTK 3 gives a widget's tooltip text as its description when none is set)
    /// and its extents in the bar window, which sits at (0, 0) of the only output.
    static let labelsScript = """
        import json, pyatspi
        def labels(node):
            for child in node:
                if child is None: continue
                if child.getRoleName() == "label":
                    e = child.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                    yield {"name": child.name, "description": child.description, "x": e.x, "y": e.y, "width": e.width}
                yield from labels(child)
        print(json.dumps([label for app in pyatspi.Registry.getDesktop(0) if app and app.name == "waybar" for label in labels(app)]))
        """

    /// A pointer device for a compositor without any: sway gives seat0 the pointer capability
    /// (and waybar a wl_pointer) only while one exists. The wlr-virtual-pointer protocol spoken
    /// directly on the Wayland socket (Debian 12 packages no client for it); the device lives
    /// until stdin closes, and `swaymsg seat seat0 cursor set` moves it.
    static let virtualPointerScript = """
        import os, socket, struct, sys
        s = socket.socket(socket.AF_UNIX); s.connect(os.environ["XDG_RUNTIME_DIR"] + "/" + os.environ["WAYLAND_DISPLAY"])
        def send(obj, op, args): s.sendall(struct.pack("<II", obj, (8 + len(args)) << 16 | op) + args)
        def events_until_done(callback):  # wl_display.sync, then every event until its callback fires
            send(1, 0, struct.pack("<I", callback)); data = b""
            while True:
                while len(data) >= 8 and len(data) >= struct.unpack("<I", data[4:8])[0] >> 16:
                    obj, word = struct.unpack("<II", data[:8]); yield obj, word & 0xFFFF, data[8:word >> 16]
                    if obj == callback: return
                    data = data[word >> 16:]
                chunk = s.recv(65536)
                if not chunk: sys.exit("the compositor closed the connection")
                data += chunk
        name = b"zwlr_virtual_pointer_manager_v1\\0"
        send(1, 1, struct.pack("<I", 2))  # wl_display.get_registry -> 2
        globals = [struct.unpack("<I", args[:4])[0] for obj, op, args in events_until_done(3) if obj == 2 and args[8:8 + len(name)] == name]
        if not globals: sys.exit("sway offers no zwlr_virtual_pointer_manager_v1")
        send(2, 0, struct.pack("<II", globals[0], len(name)) + name + struct.pack("<II", 1, 4))  # bind -> 4
        send(4, 0, struct.pack("<II", 0, 5))  # create_virtual_pointer(the default seat) -> 5
        for _ in events_until_done(6): pass
        print("ready", flush=True); sys.stdin.read()
        """

    static let names = ["sway", "swaymsg", "waybar", "grim", "dbus-daemon", "setpriv", "env"]

    /// The tools by name, or a failure naming the packages (scripts/test installs them).
    static func tools() throws -> [String: String] {
        let found = Dictionary(uniqueKeysWithValues: names.compactMap { name in Locations.tool(name).map { (name, $0) } })
        let missing = names.filter { found[$0] == nil } + (FileManager.default.isExecutableFile(atPath: python) ? [] : [python])
        guard missing.isEmpty else {
            throw TestFailure("\(missing.joined(separator: ", ")) not found; install the Debian packages \(packages) (scripts/test does)")
        }
        return found
    }

    let world: TemporaryDirectory
    /// Where everything of this desktop runs (XDG_RUNTIME_DIR), so every process it started,
    /// even those sway double-forks and the bus activates, can be found by its environment.
    let runtimeDirectory: String
    let tools: [String: String]
    let user: (uid: uid_t, gid: gid_t)

    /// An environment as a login would give `nobody`, plus `extra`, run through setpriv.
    func asUser(_ command: [String], _ extra: [String: String] = [:]) -> [String] {
        let environment = ["HOME": world.file("home"), "PATH": world.file("bin") + ":/usr/bin:/bin", "LANG": "C.UTF-8",
                           "TZ": "UTC", "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": world.file("home/.config"),
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtimeDirectory)/bus"].merging(extra) { $1 }
        return [tools["setpriv"]!, "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", tools["env"]!, "-i"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command
    }

    func run(_ command: [String], _ extra: [String: String] = [:], timeout: Double = 10) throws -> ToolResult {
        let argv = asUser(command, extra)
        return try Tool.run(argv[0], Array(argv.dropFirst()), environment: [:], timeout: timeout, scratch: world)
    }

    /// Every process still running in this desktop's environment (found through /proc).
    func processes() -> [pid_t] {
        let mark = Data("XDG_RUNTIME_DIR=\(runtimeDirectory)".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter {
            let environ = FileManager.default.contents(atPath: "/proc/\($0)/environ") ?? Data()
            return environ.split(separator: 0).contains { Data($0) == mark }
        }
    }

    /// SIGTERM to all of them, SIGKILL to what is left after 5 s.
    func end() {
        processes().forEach { kill($0, SIGTERM) }
        if !eventually(timeout: 5, interval: 0.1, { processes().isEmpty }) { processes().forEach { kill($0, SIGKILL) } }
    }
}

/// One label of waybar as AT-SPI sees it.
private struct BarLabel: Decodable {
    let name: String, description: String, x: Int, y: Int, width: Int
}

/// A `--format json` answer: the waybar object.
private struct WaybarObject: Decodable {
    let text: String, tooltip: String
}

/// A running desktop for one test: the service, sway with waybar as its bar (the shipped
/// module and style, unchanged), a session bus, and a virtual pointer once asked for.
/// `stop()` ends everything in the order it was started, backwards.
private final class WaybarSession {
    let started = Date()
    let tools: [String: String]
    let world: TemporaryDirectory
    let desktop: HeadlessSway
    let service: TestService
    private var bus: StreamingProcess?
    private var sway: StreamingProcess?
    private var pointer: StreamingProcess?
    private(set) var display: [String: String] = [:]
    private(set) var swaySocket = ""

    /// - Parameters:
    ///   - serviceConfig: the service's config file.
    ///   - rooms: `live add` arguments, added before waybar starts.
    ///   - language: the service's; `screenHeight`: the output's, in pixels (a month's tooltip
    ///     in Chinese needs more than the bar tests).
    init(serviceConfig: String? = nil, rooms: [[String]], language: String = "en", screenHeight: Int = 300) throws {
        tools = try HeadlessSway.tools()
        guard let nobody = getpwnam("nobody") else { throw TestFailure("no user nobody") }

        // The world nobody lives in: HOME and XDG_RUNTIME_DIR its own, the zaoan client on its
        // PATH (as the shipped module expects), and the service's socket there, where
        // `zaoan watch` looks by default.
        world = try TemporaryDirectory()
        desktop = HeadlessSway(world: world, runtimeDirectory: world.file("run"), tools: tools,
                               user: (nobody.pointee.pw_uid, nobody.pointee.pw_gid))
        chmod(world.path, 0o755)
        for directory in ["home", "run", "logs"] {
            try world.makeDirectory(directory)
            chown(world.file(directory), desktop.user.uid, desktop.user.gid)
        }
        try world.makeDirectory("bin", mode: 0o755)
        try FileManager.default.copyItem(atPath: Locations.zaoan, toPath: world.file("bin/zaoan"))
        var configuration = TestService.Configuration()
        configuration.socket = .path(world.file("run/zaoan.sock"))
        configuration.arguments = ["--language", language]
        configuration.config = serviceConfig
        service = try TestService.start(configuration)
        chown(service.socketPath, desktop.user.uid, desktop.user.gid)  // zaoan makes it 0600
        for room in rooms {
            let added = try service.zaoan(["ask", "--socket", service.socketPath, "live", "add"] + room)
            guard added.output == "ok\n" else { throw TestFailure("live add: \(added)") }
        }

        // waybar as a user sets it up: the shipped module included unchanged, the shipped style
        // appended; sway starts it as its bar. One output of 800×300 at (0, 0).
        let waybarDirectory = world.file("home/.config/waybar")
        try world.makeDirectory("home/.config/waybar", mode: 0o755)
        let integration = Locations.packageRoot + "/packaging/integrations/waybar/"
        try FileManager.default.copyItem(atPath: integration + "config.jsonc", toPath: waybarDirectory + "/zaoan.jsonc")
        try world.write("home/.config/waybar/config", """
            {"include": ["\(waybarDirectory)/zaoan.jsonc"], "layer": "top", "position": "top", "height": 30}
            """)
        try world.write("home/.config/waybar/style.css", "* { font-family: \"DejaVu Sans\", \"WenQuanYi Zen Hei\"; font-size: 14px; }\n"
                        + (try String(contentsOfFile: integration + "style.css", encoding: .utf8)))
        try world.write("sway.conf", "xwayland disable\noutput HEADLESS-1 mode 800x\(screenHeight) position 0 0\nbar {\n    swaybar_command waybar\n}\n")
        for file in ["sway.conf", "home/.config/waybar/config", "home/.config/waybar/zaoan.jsonc", "home/.config/waybar/style.css"] {
            chmod(world.file(file), 0o644)
        }

        // A session bus of the desktop's own at a known address: waybar (GTK) asks it for the
        // accessibility bus, which it starts (at-spi-bus-launcher) on demand.
        let bus = try StreamingProcess(desktop.asUser([tools["dbus-daemon"]!, "--session", "--nofork", "--print-address=1",
                                                       "--address=unix:path=\(desktop.runtimeDirectory)/bus"]),
                                       environment: [:], stderrPath: world.file("logs/bus.log"))
        self.bus = bus
        guard try bus.readLine(timeout: 20) != nil else { throw TestFailure("dbus-daemon did not start: \(bus.errorText)") }
        sway = try StreamingProcess(desktop.asUser([tools["sway"]!, "-c", world.file("sway.conf")],
                                                   ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"]),
                                    environment: [:], stderrPath: world.file("logs/sway.log"))
        var wayland = "", swaySocket = ""
        let runtime = desktop.runtimeDirectory
        guard eventually(timeout: 20, interval: 0.1, {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            wayland = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? ""
            swaySocket = names.first { $0.hasPrefix("sway-ipc.") }.map { runtime + "/" + $0 } ?? ""
            return !wayland.isEmpty && !swaySocket.isEmpty
        }) else { throw TestFailure("sway should make its Wayland and IPC sockets; \(logs())") }
        display = ["WAYLAND_DISPLAY": wayland]
        self.swaySocket = swaySocket
    }

    func stop() {
        pointer?.stop()
        sway?.stop()
        bus?.stop()
        try? service.stop()  // stopped already by a test that checks it: nothing left to do
        desktop.end()
        world.remove()
    }

    func logs() -> String { "sway and waybar log: \(sway?.errorText ?? "")" }

    /// The RGB bytes of a `width`×`height` region at (0, `top`), from grim as PPM.
    func screen(top: Int, height: Int) throws -> [UInt8] {
        let shot = try desktop.run([tools["grim"]!, "-t", "ppm", "-g", "0,\(top) 800x\(height)", "-"], display)
        let pixels = Array(shot.stdout.suffix(800 * height * 3))
        guard shot.status == 0, pixels.count == 800 * height * 3 else { throw TestFailure("grim: \(shot.errorOutput); \(logs())") }
        return pixels
    }

    /// Waits until the bar draws some text. Only then may AT-SPI look at it: GTK makes a
    /// widget's accessible when first asked, takes the tooltip then, and updates it only when
    /// the tooltip is set as plain text (waybar sets markup). A drawn text means waybar has
    /// set the tooltip, in the same update.
    func waitForText() throws {
        guard try eventually(timeout: 20, interval: 0.2, {
            let bar = try screen(top: 0, height: 30)
            return Set(stride(from: 0, to: bar.count, by: 3).map { Int(bar[$0]) << 16 | Int(bar[$0 + 1]) << 8 | Int(bar[$0 + 2]) }).count > 1
        }) else { throw TestFailure("the bar should show some text; \(logs())") }
    }

    /// waybar's labels as AT-SPI sees them, or why they could not be read.
    func labels() -> Result<[BarLabel], TestFailure> {
        guard let read = try? desktop.run([HeadlessSway.python, "-c", HeadlessSway.labelsScript], timeout: 5), read.status == 0 else {
            return .failure(TestFailure("the AT-SPI query did not run or failed"))
        }
        guard let labels = try? JSONDecoder().decode([BarLabel].self, from: read.stdout) else {
            return .failure(TestFailure("AT-SPI query: \(read)"))
        }
        return .success(labels)
    }

    /// `request`'s waybar object, asked of the service now.
    func answer(_ request: String) -> WaybarObject? {
        guard let asked = try? service.zaoan(["ask", "--socket", service.socketPath, "--format", "json", request]) else { return nil }
        return try? JSONDecoder().decode(WaybarObject.self, from: asked.stdout)
    }

    /// A pointer device, so sway gives waybar a wl_pointer.
    func addPointer() throws {
        let pointer = try StreamingProcess(desktop.asUser([HeadlessSway.python, "-c", HeadlessSway.virtualPointerScript], display),
                                           environment: [:], stderrPath: world.file("logs/pointer.log"))
        self.pointer = pointer
        guard try pointer.readLine(timeout: 20) == "ready" else { throw TestFailure("no virtual pointer: \(pointer.errorText); \(logs())") }
    }

    /// `swaymsg seat seat0 cursor ...`: `set X Y`, `press button1`, `release button1`.
    func cursor(_ command: String) throws {
        let done = try desktop.run([tools["swaymsg"]!, "-s", swaySocket, "seat seat0 cursor \(command)"])
        guard done.status == 0 else { throw TestFailure("swaymsg cursor \(command): \(done); \(logs())") }
    }

    func elapsed(since: Date? = nil) -> String { String(format: "%.1f", Date().timeIntervalSince(since ?? started)) }
}

@Suite("zaoan's waybar module in a real waybar (sway headless)", .enabled(if: geteuid() == 0, "sway refuses root, and switching to nobody (setpriv) needs root"))
struct RealWaybarTests {
    @Test("waybar shows zaoan's text and tooltip (read through AT-SPI), escaped for Pango; hovering pops the tooltip up")
    func textTooltipAndHover() throws {
        // Levels beside soon: the room 10 minutes ahead is soon and warning (the shipped
        // style.css draws warning after soon, so warning's background is the one shown).
        let session = try WaybarSession(serviceConfig: #"{"countdown_levels": {"warning": {"minutes": 30}, "critical": {"minutes": 5}}}"#,
                                        rooms: [["tea", "+10m", "<b>&", "Tea", "desc=Oolong and stories", "viewers=42"]])
        defer { session.stop() }
        let logs = session.logs
        try session.waitForText()

        // 1 and 3. The label whose name is zaoan's text, Pango-escaped back, has zaoan's tooltip
        // as its description. The text counts seconds, so both sides are read again until one
        // reading of the bar and the answer that follows it agree.
        var labels: [BarLabel] = [], answer = WaybarObject(text: "", tooltip: ""), problem = "nothing read"
        let found = eventually(timeout: 30, interval: 0.3) {
            switch session.labels() {
            case .failure(let failure): problem = failure.description; return false
            case .success(let read): labels = read
            }
            guard let object = session.answer("status") else { return false }
            answer = object
            return labels.contains { Hostile.pango($0.name) == answer.text && Hostile.pango($0.description) == answer.tooltip }
        }
        try #require(found, "waybar should show zaoan's answer \(answer) in a label with its tooltip; AT-SPI labels of waybar: \(labels); \(problem); \(logs())")
        let module = labels.first { Hostile.pango($0.name) == answer.text }!
        print("waybar label: \(module.name.debugDescription), description \(module.description.debugDescription) at x \(module.x), width \(module.width)")
        #expect(module.name.contains("<b>& Tea · starts in "), "the title shows as typed, not bold: \(module.name.debugDescription)")
        #expect(module.description.split(separator: "\n").count == 4 && module.description.hasPrefix("<b>& Tea\n")
                && module.description.hasSuffix("\nOolong and stories\n42 watching"),
                "the tooltip: title, start, description, viewers: \(module.description.debugDescription)")
        let ready = Date()

        try #require(module.x > 40 && module.width > 20, "the module should sit right of the bar's left end: \(module)")

        // 2. Hovering: a pointer device, parked on the empty left of the bar; then onto the
        // module. The tooltip opens below the bar (the cursor's 24 pixels from y 5 end above
        // row 40), so rows 40 and down change only by it.
        try session.addPointer()
        func cursor(_ x: Int) throws { try session.cursor("set \(x) 5") }
        func belowTheBar() throws -> [UInt8] { try session.screen(top: 40, height: 260) }
        try cursor(5)
        let before = try belowTheBar()
        var changedPixels = 0, tries = 0
        let popped = try eventually(timeout: 20, interval: 0.25) {
            // GTK may bind its pointer after the first move, so move again now and then (not on
            // every poll: each motion could restart the tooltip's delay).
            if tries % 12 == 0 { try cursor(module.x + module.width / 2 + tries / 12 % 2) }
            tries += 1
            let after = try belowTheBar()
            changedPixels = stride(from: 0, to: after.count, by: 3).filter { after[$0..<$0 + 3] != before[$0..<$0 + 3] }.count
            return changedPixels > 2000
        }
        #expect(popped, "hovering the module should open its tooltip below the bar; \(changedPixels) pixels changed; \(logs())")
        // And it was the hover: off the module, the popup goes and the screen is as before.
        try cursor(5)
        #expect(try eventually(timeout: 10, interval: 0.25) { try belowTheBar() == before },
                "leaving the module should close its tooltip; \(logs())")
        // 4. The level classes as waybar applies them: the shipped style.css gives each its own
        // background, so the bar's pixels say which class the module has. Each state is made
        // by replacing the room; a screenshot of the bar is kept for each (ZAOAN_LEVEL_SHOTS=DIR
        // copies them there, as the README's pictures).
        let backgrounds: [(state: String, room: String, rgb: Int, not: [Int])] = [
            ("warning", "+10m", 0xebbcba, [0xf6c177]),  // beside soon (#f6c177), which it overrides
            ("critical", "+3m", 0xd7263d, [0xf6c177, 0xebbcba]),
            ("live", "-1m", 0xeb6f92, [0xd7263d, 0xebbcba]),
        ]
        for expected in backgrounds {
            for request in ["live rm tea", "live add tea \(expected.room) Morning tea end=+2h"] {
                let answer = try session.service.zaoan(["ask", "--socket", session.service.socketPath] + request.split(separator: " ").map(String.init))
                try #require(answer.status == 0, "\(request): \(answer)")
            }
            var counts: [Int: Int] = [:]
            let shown = try eventually(timeout: 20, interval: 0.25) {
                let bar = try session.screen(top: 0, height: 30)
                counts = [:]
                for at in stride(from: 0, to: bar.count, by: 3) {
                    let rgb = Int(bar[at]) << 16 | Int(bar[at + 1]) << 8 | Int(bar[at + 2])
                    if rgb == expected.rgb || expected.not.contains(rgb) { counts[rgb, default: 0] += 1 }
                }
                return counts[expected.rgb, default: 0] > 200 && expected.not.allSatisfy { counts[$0, default: 0] == 0 }
            }
            #expect(shown, "the module should have the class \(expected.state) (background #\(String(expected.rgb, radix: 16))): pixels \(counts); \(logs())")
            let shot = session.world.file("logs/waybar-\(expected.state).png")
            // The right part of the bar, where the module is (the pointer rests at the left end).
            let png = try session.desktop.run([session.tools["grim"]!, "-g", "300,0 500x30", "-"], session.display)
            if png.status == 0 {
                FileManager.default.createFile(atPath: shot, contents: png.stdout)
                if let keep = ProcessInfo.processInfo.environment["ZAOAN_LEVEL_SHOTS"] {
                    try? FileManager.default.removeItem(atPath: keep + "/waybar-\(expected.state).png")  // absent: nothing to replace
                    try FileManager.default.copyItem(atPath: shot, toPath: keep + "/waybar-\(expected.state).png")
                }
            }
        }

        print("hovered: \(changedPixels) pixels below the bar changed. Desktop and bar ready in "
              + "\(session.elapsed(since: nil).description) s (labels read after \(String(format: "%.1f", ready.timeIntervalSince(session.started))) s)")
    }

    @Test("a real click on the ticker module (virtual pointer) steps it: zaoan click tells zaoan watch, the next update shows the next room")
    func clickStepsTheTicker() throws {
        // Three rooms and a ticker that stays on one for an hour: a change of title is a step.
        let session = try WaybarSession(serviceConfig: #"{"ticker_period": 3600}"#,
                                        rooms: [["tea", "+10m", "Tea", "time"], ["jasmine", "+20m", "Jasmine", "hour"],
                                                ["oolong", "+30m", "Oolong", "night"]])
        defer { session.stop() }
        let logs = session.logs
        try session.waitForText()

        /// The title a ticker text starts with: what comes before " · ".
        func title(_ text: String) -> String? {
            text.range(of: " · ").map { String(text[..<$0.lowerBound]) }
        }
        /// The ticker's label and its skip, once it shows what `ticker SKIP` shows for one of `skips`.
        func tickerLabel(skips: ClosedRange<Int>, within timeout: Double) -> (label: BarLabel, skip: Int)? {
            var shown: (label: BarLabel, skip: Int)?
            _ = eventually(timeout: timeout, interval: 0.3) {
                guard case .success(let labels) = session.labels() else { return false }
                for skip in skips {
                    guard let expected = session.answer(skip == 0 ? "ticker" : "ticker \(skip)").flatMap({ title($0.text) }),
                          let label = labels.first(where: { title(Hostile.pango($0.name)) == expected }) else { continue }
                    shown = (label, skip)
                    return true
                }
                return false
            }
            return shown
        }
        let before = try #require(tickerLabel(skips: 0...0, within: 30), "waybar should show the ticker's room; \(session.labels()); \(logs())").label
        print("ticker label before: \(before.name.debugDescription) at x \(before.x), width \(before.width)")

        try session.addPointer()
        let middle = before.x + before.width / 2
        func click(_ button: String, nudge: Int = 0) throws {
            try session.cursor("set \(middle + nudge) 5")
            try session.cursor("press \(button)")
            try session.cursor("release \(button)")
        }
        // GTK may bind its pointer only after the first motion, so a first click can be lost:
        // click (moving a pixel each time) until the ticker steps, and take the step it shows
        // as the number of clicks waybar saw. Three rooms: skips 1 and 2 show other rooms.
        try session.cursor("set 5 5")
        let clicked = Date()
        var stepped: (label: BarLabel, skip: Int)?
        var presses = 0
        while stepped == nil, presses < 2, Date().timeIntervalSince(clicked) < 40 {
            try click("button1", nudge: presses % 2)
            presses += 1
            stepped = tickerLabel(skips: 1...presses, within: 8)
        }
        let shown = try #require(stepped, "a left click should show the next room (ticker 1); \(presses) clicks; \(session.labels()); \(logs())")
        print("left click: \(before.name.debugDescription) → \(shown.label.name.debugDescription) (ticker \(shown.skip)) in "
              + "\(session.elapsed(since: clicked)) s, \(presses) click(s)")
        #expect(title(shown.label.name) != title(before.name), "the step shows another room")

        // The right button goes back one room.
        let right = Date()
        try click("button3")
        let back = tickerLabel(skips: (shown.skip - 1)...(shown.skip - 1), within: 15)
        #expect(back != nil, "a right click shows the previous room (ticker \(shown.skip - 1)); \(session.labels()); \(logs())")
        print("right click: \(back?.label.name.debugDescription ?? "nothing") in \(session.elapsed(since: right)) s")

        // Scrolling down is the next room again. sway turns `cursor press button5` into one
        // step of the wheel (and a release into another), so press only.
        let scrolled = Date()
        try session.cursor("press button5")
        let next = tickerLabel(skips: shown.skip...shown.skip, within: 15)
        #expect(next != nil, "scrolling down shows the next room (ticker \(shown.skip)); \(session.labels()); \(logs())")
        print("scroll down: \(next?.label.name.debugDescription ?? "nothing") in \(session.elapsed(since: scrolled)) s; whole test \(session.elapsed()) s")
    }

    @Test("the month module in a real waybar: its title in the bar, the grid as its tooltip (AT-SPI), the wheel steps the month; a picture of the tooltip")
    func monthModule() throws {
        // ZAOAN_MONTH_LANGUAGE=zh takes the picture in Chinese (with fonts-wqy-zenhei or
        // fonts-noto-cjk installed; the grid names their monospace faces).
        let language = ProcessInfo.processInfo.environment["ZAOAN_MONTH_LANGUAGE"] ?? "en"
        let session = try WaybarSession(serviceConfig: #"{"lunar": true, "workdays": "cn", "timezone": "Asia/Shanghai"}"#, rooms: [],
                                        language: language, screenHeight: 420)
        defer { session.stop() }
        let logs = session.logs
        try session.waitForText()
        // The month's label: its name is the service's title for `month`, its description
        // (the tooltip GTK keeps) holds the grid's weekday line.
        func monthLabel(_ request: String, within timeout: Double) -> BarLabel? {
            var found: BarLabel?
            _ = eventually(timeout: timeout, interval: 0.3) {
                guard case .success(let labels) = session.labels(), let title = session.answer(request)?.text else { return false }
                found = labels.first { Hostile.pango($0.name) == title }
                return found != nil
            }
            return found
        }
        let label = try #require(monthLabel("month", within: 30), "waybar should show the month's title; \(session.labels()); \(logs())")
        // GTK gives the tooltip's text, the markup rendered: line for line the plain grid
        // `month` answers (which trims the spaces at the ends of its lines).
        let plain = try session.service.zaoan(["ask", "--socket", session.service.socketPath, "month"]).output
        let grid = plain.split(separator: "\n").map(String.init)
        let shown = label.description.split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(shown == grid, "the tooltip is the grid: \(label.description.debugDescription)\nmonth: \(plain.debugDescription)")
        print("month label: \(label.name.debugDescription) at x \(label.x), width \(label.width)")

        // Hover: the tooltip opens below the bar; its picture is kept (ZAOAN_MONTH_SHOT=FILE copies it).
        try session.addPointer()
        try session.cursor("set 5 5")
        let before = try session.screen(top: 40, height: 260)
        var tries = 0
        let popped = try eventually(timeout: 20, interval: 0.25) {
            if tries % 12 == 0 { try session.cursor("set \(label.x + label.width / 2 + tries / 12 % 2) 5") }
            tries += 1
            return try session.screen(top: 40, height: 260) != before
        }
        #expect(popped, "hovering the month opens its tooltip; \(logs())")
        if popped {
            let png = try session.desktop.run([session.tools["grim"]!, "-g", "0,0 800x420", "-"], session.display)
            if png.status == 0 {
                let shot = session.world.file("logs/waybar-month.png")
                FileManager.default.createFile(atPath: shot, contents: png.stdout)
                if let keep = ProcessInfo.processInfo.environment["ZAOAN_MONTH_SHOT"] {
                    try? FileManager.default.removeItem(atPath: keep)  // absent: nothing to replace
                    try FileManager.default.copyItem(atPath: shot, toPath: keep)
                }
            }
        }

        // The wheel: up is the next month (as waybar's clock), down the one before. sway turns
        // `cursor press button4` into one step of the wheel, so press only.
        try session.cursor("set \(label.x + label.width / 2) 5")
        try session.cursor("press button4")
        #expect(monthLabel("month +1", within: 15) != nil, "scrolling up shows the next month; \(session.labels()); \(logs())")
        try session.cursor("press button5")
        try session.cursor("press button5")
        #expect(monthLabel("month -1", within: 15) != nil, "scrolling down twice shows last month; \(session.labels()); \(logs())")
    }
}
