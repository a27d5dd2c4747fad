import Foundation
import Glibc

/// A desktop for the notification tests: Xvfb, a D-Bus session bus of its own (at
/// `busPath`), and dunst on it, which logs every notification it receives through a dunstrc
/// `script` rule — arrival time and what dunst got: summary, body, urgency and expiry.
///
/// `markup` is dunst's `markup` setting: `full` advertises the `body-markup` capability,
/// `no` does not (and shows the body as it comes).
final class NotificationDesktop {
    /// One notification as dunst received it.
    struct Received: CustomStringConvertible {
        /// Unix seconds.
        let arrived: Double
        let summary: String
        let body: String
        /// `LOW`, `NORMAL` or `CRITICAL`.
        let urgency: String
        /// The expiry in milliseconds; 0 never expires.
        let timeout: Int

        var description: String { "(\(arrived) \(summary.debugDescription) \(body.debugDescription) \(urgency) \(timeout) ms)" }
    }

    static let tools = ["Xvfb", "dbus-daemon", "dbus-send", "dunst", "dunstctl", "notify-send", "jq"]

    /// The first tool missing, with what to install; nil when all are there.
    static var missingTool: String? {
        guard let missing = tools.first(where: { Locations.tool($0) == nil }) else { return nil }
        return "\(missing) not found; install xvfb dbus-daemon dbus-bin dunst libnotify-bin jq (scripts/test does)"
    }

    let busPath: String
    let busAddress: String
    let display: Int
    /// `base` with DISPLAY and DBUS_SESSION_BUS_ADDRESS for this desktop.
    let environment: [String: String]
    private let log: String
    private let scratch: TemporaryDirectory
    private var processes: [StreamingProcess] = []

    init(in scratch: TemporaryDirectory, busPath: String? = nil, environment base: [String: String], markup: String) throws {
        if let missing = Self.missingTool { throw TestFailure(missing) }
        self.scratch = scratch
        self.busPath = busPath ?? scratch.file("bus")
        busAddress = "unix:path=" + self.busPath
        log = scratch.file("notifications.log")

        let xvfb = try StreamingProcess(["/bin/sh", "-c", #"exec "$0" -displayfd 1 -screen 0 640x480x24 -nolisten tcp"#, Locations.tool("Xvfb")!],
                                        environment: base, stderrPath: scratch.file("xvfb.log"))
        processes.append(xvfb)
        guard let display = try xvfb.readLine(timeout: 20).flatMap({ Int($0) }) else {
            throw TestFailure("Xvfb did not report a display; its log: \(xvfb.errorText)")
        }
        self.display = display
        let bus = try StreamingProcess([Locations.tool("dbus-daemon")!, "--session", "--nofork", "--address=" + busAddress, "--print-address=1"],
                                       environment: base, stderrPath: scratch.file("dbus.log"))
        processes.append(bus)
        guard let printed = try bus.readLine(timeout: 20), printed.hasPrefix(busAddress) else {
            throw TestFailure("dbus-daemon did not start on \(busAddress); its log: \(bus.errorText)")
        }
        var environment = base
        environment["DISPLAY"] = ":\(display)"
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        self.environment = environment

        // dunst runs `log.sh` for every notification; jq writes it as one JSON line.
        try scratch.write("log.sh", """
            #!/bin/sh
            exec jq -nc --arg at "$(date +%s.%N)" --arg summary "$DUNST_SUMMARY" --arg body "$DUNST_BODY" \\
                --arg urgency "$DUNST_URGENCY" --arg timeout "$DUNST_TIMEOUT" \\
                '{at: $at, summary: $summary, body: $body, urgency: $urgency, timeout: $timeout}' >> '\(log)'

            """)
        chmod(scratch.file("log.sh"), 0o755)
        // dunst's context menu (`dunstctl context`) runs `dmenu` with one line per action;
        // this one logs them and picks the line holding what `choose` wrote.
        try scratch.write("dmenu.sh", """
            #!/bin/sh
            tee -a '\(scratch.file("menu.log"))' | grep -F -- "$(cat '\(scratch.file("choice"))')" | head -n 1

            """)
        chmod(scratch.file("dmenu.sh"), 0o755)
        try scratch.write("dunstrc", """
            [global]
                font = DejaVu Sans 8
                markup = \(markup)
                dmenu = \(scratch.file("dmenu.sh"))
            [log-everything]
                appname = zaoan
                script = \(scratch.file("log.sh"))
            """)
        let dunst = try StreamingProcess([Locations.tool("dunst")!, "-config", scratch.file("dunstrc")],
                                         environment: environment, stderrPath: scratch.file("dunst.log"))
        processes.append(dunst)
        let owned = try eventually(timeout: 20, interval: 0.1) {
            let answer = try Tool.run(Locations.tool("dbus-send")!, ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                    "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications"],
                                      environment: environment, timeout: 10, scratch: scratch)
            return answer.output.contains("boolean true")
        }
        guard owned else {
            throw TestFailure("dunst did not take the notification name; its log: \(dunst.errorText)")
        }
    }

    deinit { stop() }

    func stop() {
        for process in processes.reversed() { process.stop() }
        processes.removeAll()
    }

    /// dunst's own log, for failure messages.
    var dunstLog: String { (try? String(contentsOfFile: scratch.file("dunst.log"), encoding: .utf8)) ?? "" }

    /// Every notification dunst has received so far, in order.
    func received() -> [Received] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String] else { return nil }
            return Received(arrived: Double(object["at"] ?? "") ?? 0, summary: object["summary"] ?? "", body: object["body"] ?? "",
                            urgency: object["urgency"] ?? "", timeout: Int(object["timeout"] ?? "") ?? -1)
        }
    }

    /// Chooses the action whose words hold `label` through dunst's context menu (the
    /// scripted dmenu), as a person picks a button.
    /// Returns once dunst has run the menu (`dunstctl context` only asks for it).
    func choose(_ label: String) throws {
        try scratch.write("choice", label)
        let before = menuLines.count
        let run = try Tool.run(Locations.tool("dunstctl")!, ["context"], environment: environment, timeout: 20, scratch: scratch)
        if run.status != 0 { throw TestFailure("dunstctl context: \(run)") }
        guard eventually(timeout: 20, interval: 0.05, { self.menuLines.count > before }) else {
            throw TestFailure("dunst did not open its context menu within 20 s; its log: \(dunstLog)")
        }
    }

    /// A click on the newest notification: its default action (`dunstctl action`).
    func click() throws {
        let run = try Tool.run(Locations.tool("dunstctl")!, ["action", "0"], environment: environment, timeout: 20, scratch: scratch)
        if run.status != 0 { throw TestFailure("dunstctl action: \(run)") }
    }

    /// Closes every notification shown, as its close button does: no action chosen.
    func closeAll() throws {
        let run = try Tool.run(Locations.tool("dunstctl")!, ["close-all"], environment: environment, timeout: 20, scratch: scratch)
        if run.status != 0 { throw TestFailure("dunstctl close-all: \(run)") }
    }

    /// The lines dunst's context menus listed so far (each action as dunst words it).
    var menuLines: [String] {
        ((try? String(contentsOfFile: scratch.file("menu.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// How many notifications dunst shows now.
    func displayed() -> Int {
        let run = try? Tool.run(Locations.tool("dunstctl")!, ["count", "displayed"], environment: environment, timeout: 20, scratch: scratch)
        return Int(run?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    }

    /// Waits until `count` notifications have arrived (or `timeout` passes); returns what came.
    func waitFor(_ count: Int, timeout: Double) -> [Received] {
        var got: [Received] = []
        _ = eventually(timeout: timeout, interval: 0.1) {
            got = received()
            return got.count >= count
        }
        return got
    }
}
