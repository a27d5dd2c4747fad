import Foundation
import Testing

/// packaging/integrations/notify/zaoan-notify as shipped, against a real notification
/// daemon: dunst on Xvfb in its own D-Bus session, logging every notification it receives
/// through a dunstrc `script` rule. Each moment of `watch events` must reach dunst within a
/// second, and a hostile title must arrive as text.
@Suite("desktop notifications: zaoan-notify into dunst")
struct NotifyIntegrationTests {
    static let notifier = Locations.packageRoot + "/packaging/integrations/notify/zaoan-notify"

    @Test("soon, live and ended each reach dunst within a second; a title with markup and a leading dash stays text")
    func notifications() throws {
        var tools: [String: String] = [:]
        for tool in ["Xvfb", "dunst", "notify-send", "jq", "dbus-run-session"] {
            guard let path = Locations.tool(tool) else {
                throw TestFailure("\(tool) not found; install xvfb dunst libnotify-bin jq dbus (scripts/test does)")
            }
            tools[tool] = path
        }
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"soon_threshold": 2}"#)
        defer { try? service.stop() }
        let scratch = service.directory
        let xvfb = try StreamingProcess(["/bin/sh", "-c", #"exec "$0" -displayfd 1 -screen 0 640x480x24 -nolisten tcp"#, tools["Xvfb"]!],
                                        environment: service.environment, stderrPath: scratch.file("xvfb.log"))
        defer { xvfb.stop() }
        guard let display = try xvfb.readLine(timeout: 20).flatMap({ Int($0) }) else {
            throw TestFailure("Xvfb did not report a display; its log: \(xvfb.errorText)")
        }

        // dunst runs `log` for every notification: arrival time, summary, body.
        let log = scratch.file("notifications.log")
        try scratch.write("log.sh", "#!/bin/sh\nprintf '%s\\t%s\\t%s\\n' \"$(date +%s.%N)\" \"$2\" \"$3\" >> '\(log)'\n")
        chmod(scratch.file("log.sh"), 0o755)
        try scratch.write("dunstrc", """
            [global]
                font = DejaVu Sans 8
            [log-everything]
                appname = zaoan
                script = \(scratch.file("log.sh"))
            """)
        // One session bus for dunst and the notifier; the notifier starts once dunst owns
        // the notification name, and finds the service's socket the way a user's does.
        try scratch.write("session.sh", """
            dunst -config '\(scratch.file("dunstrc"))' &
            until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q 'boolean true'; do
                sleep 0.1
            done
            echo ready
            exec '\(Self.notifier)'
            """)
        var environment = service.environment
        environment["DISPLAY"] = ":\(display)"
        environment["ZAOAN"] = Locations.zaoan
        environment["ZAOAN_SOCKET"] = service.socketPath
        let session = try StreamingProcess([tools["dbus-run-session"]!, "--", "/bin/sh", scratch.file("session.sh")],
                                           environment: environment, stderrPath: scratch.file("session.log"))
        defer { session.stop() }
        guard try session.readLine(timeout: 30) == "ready" else {
            throw TestFailure("dunst did not take the notification name; log: \(session.errorText)")
        }
        // The notifier has subscribed once the service counts a stream reader.
        let subscribed = Date().addingTimeInterval(20)
        while !(try service.ask("stats")).contains("connections_open: 2"), Date() < subscribed { Thread.sleep(forTimeInterval: 0.1) }

        #expect(try service.ask(#"live add quick +4s "-x <b>& Tea" end=+2s"#) == "ok\n")
        var lines: [[String]] = []
        let deadline = Date().addingTimeInterval(20)
        while lines.count < 3, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }
        #expect(lines.count == 3, "three notifications; dunst got \(lines); notifier log: \(session.errorText)")
        #expect(lines.map { $0.count > 1 ? $0[1] : "" } == Array(repeating: "-x &lt;b&gt;&amp; Tea", count: 3),
                "the title as text, escaped for markup, not taken as an option: \(lines)")
        let bodies = lines.map { $0.count > 2 ? $0[2] : "" }
        #expect(bodies.count == 3 && bodies[0].hasPrefix("soon — starts at ") && bodies[1].hasPrefix("live now — since ")
                && bodies[2].hasPrefix("ended at "), "\(bodies)")
        // Each arrived within a second of its moment (the HH:MM:SS in its body, UTC).
        for line in lines where line.count > 2 {
            guard let arrived = Double(line[0]), let moment = line[2].firstMatch(of: /(\d\d):(\d\d):(\d\d)/) else { continue }
            let secondOfDay = Int(moment.1)! * 3600 + Int(moment.2)! * 60 + Int(moment.3)!
            let arrivedSecond = arrived.truncatingRemainder(dividingBy: 86_400)
            #expect(arrivedSecond - Double(secondOfDay) >= -0.5 && arrivedSecond - Double(secondOfDay) < 1.5,
                    "'\(line[2])' arrived at \(arrivedSecond) s of the day")
        }
    }
}
