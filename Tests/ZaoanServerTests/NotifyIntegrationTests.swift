import Foundation
import Testing

/// packaging/integrations/notify/zaoan-notify as shipped, against a real notification
/// daemon: dunst on Xvfb on a D-Bus session bus of its own (`NotificationDesktop`), logging
/// every notification it receives. Each moment of `watch events` must reach dunst within a
/// second, saying the room's own start and end in the service's language, with a title
/// that stays text, a body escaped only for a daemon that reads markup in it, and an
/// urgency that lets it expire.
@Suite("desktop notifications: zaoan-notify into dunst")
struct NotifyIntegrationTests {
    static let notifier = Locations.packageRoot + "/packaging/integrations/notify/zaoan-notify"

    /// A room starting a few seconds from now, on a whole second, and lasting two.
    struct Room {
        let start: Int
        let end: Int

        init() {
            start = Int(Date().timeIntervalSince1970.rounded(.up)) + 5
            end = start + 2
        }

        /// `HH:mm:ss` (UTC, the zone the tests' services use) and ISO 8601 of Unix seconds.
        static func clock(_ seconds: Int) -> String {
            String(iso(seconds).dropFirst(11).prefix(8))
        }

        static func iso(_ seconds: Int) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
        }
    }

    /// A desktop whose dunst has `markup`, and the shipped notifier on it against `service`,
    /// once it has subscribed (the service counts a second connection).
    static func notifierRunning(for service: TestService, markup: String) throws -> (NotificationDesktop, StreamingProcess) {
        let desktop = try NotificationDesktop(in: service.directory, environment: service.environment, markup: markup)
        var environment = desktop.environment
        environment["ZAOAN"] = Locations.zaoan
        environment["ZAOAN_SOCKET"] = service.socketPath
        let notifier = try StreamingProcess([Self.notifier], environment: environment, stderrPath: service.directory.file("notifier.log"))
        guard eventually(timeout: 20, { (try? service.ask("stats"))?.contains("connections_open: 2") == true }) else {
            notifier.stop()
            desktop.stop()
            throw TestFailure("the notifier did not subscribe within 20 s; its log: \(notifier.errorText)")
        }
        return (desktop, notifier)
    }

    /// Runs the notifier against `service` on a desktop whose dunst has `markup`, adds a room
    /// with `title` and `description` (soon_threshold 2 s), and returns what dunst received.
    static func notifications(service: TestService, markup: String, title: String, description: String) throws -> (Room, [NotificationDesktop.Received]) {
        let (desktop, notifier) = try Self.notifierRunning(for: service, markup: markup)
        defer {
            notifier.stop()
            desktop.stop()
        }

        let room = Room()
        let added = try service.ask("live add quick \(Room.iso(room.start)) \(Hostile.quoted(title)) end=\(Room.iso(room.end)) \(Hostile.quoted("desc=" + description))")
        #expect(added == "ok\n")
        let received = desktop.waitFor(3, timeout: 20)
        #expect(received.count == 3, "three notifications; dunst got \(received); notifier log: \(notifier.errorText); dunst: \(desktop.dunstLog)")
        // Each arrived within a second of its moment: soon 2 s before the start, live at it, ended at the end.
        for (notification, moment) in zip(received, [room.start - 2, room.start, room.end]) {
            #expect(notification.arrived - Double(moment) >= -0.5 && notification.arrived - Double(moment) < 1.5,
                    "\(notification) arrived \(notification.arrived - Double(moment)) s after its moment")
        }
        return (room, received)
    }

    @Test("soon, live and ended reach dunst on time: the room's own start, the title as plain text, the body escaped for a daemon that reads markup, normal urgency that expires")
    func notifications() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"soon_threshold": 2}"#)
        defer { try? service.stop() }
        let (room, received) = try Self.notifications(service: service, markup: "full", title: "-x <b>& Tea", description: "Milk & <i>sugar</i>")
        // The summary is plain text in the notification spec: as given, not escaped, and not
        // taken as an option.
        #expect(received.map(\.summary) == Array(repeating: "-x <b>& Tea", count: 3), "\(received)")
        // dunst with markup says body-markup: the body's description is escaped. The soon
        // notice names the start (05:42:30 for a room at 05:42:30), not the moment it became soon.
        let description = "Milk &amp; &lt;i&gt;sugar&lt;/i&gt;"
        #expect(received.map(\.body) == ["soon — starts at \(Room.clock(room.start))\n\(description)",
                                         "live now — since \(Room.clock(room.start))\n\(description)",
                                         "ended at \(Room.clock(room.end))\n\(description)"], "\(received)")
        // Nothing routine is critical (dunst never expires critical ones, and they pile up);
        // each comes with an expiry.
        #expect(received.map(\.urgency) == ["NORMAL", "NORMAL", "LOW"], "\(received)")
        #expect(received.allSatisfy { $0.timeout > 0 }, "each notification expires: \(received)")
    }

    @Test("in the service's language (zh), and the body as it is for a daemon that does not read markup")
    func chineseWithoutMarkup() throws {
        let service = try TestService.start(arguments: ["--timezone", "UTC"],
                                            config: #"{"soon_threshold": 2, "language": "zh"}"#)
        defer { try? service.stop() }
        let (room, received) = try Self.notifications(service: service, markup: "no", title: "早间新闻 <b>&", description: "Milk & <i>sugar</i>")
        #expect(received.map(\.summary) == Array(repeating: "早间新闻 <b>&", count: 3), "\(received)")
        let description = "Milk & <i>sugar</i>"
        #expect(received.map(\.body) == ["将于 \(Room.clock(room.start)) 开播\n\(description)",
                                         "正在直播 · \(Room.clock(room.start)) 开播\n\(description)",
                                         "已于 \(Room.clock(room.end)) 结束\n\(description)"], "\(received)")
    }

    @Test("a calendar of 3,000 events starting at once: the room's own notice and the first moments, then one notice counting the rest, for each moment")
    func floodCoalesced() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let start = Int(Date().timeIntervalSince1970.rounded(.up)) + 14
        try EventFloodTests.flood(3_000, start: Date(timeIntervalSince1970: Double(start)))
            .write(toFile: calendar + "/flood.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"],
                                            config: #"{"soon_threshold": 3, "calendars": ["\#(calendar)"]}"#)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let (desktop, notifier) = try Self.notifierRunning(for: service, markup: "no")
        defer {
            notifier.stop()
            desktop.stop()
        }
        #expect(try service.ask("live add mine @\(start) Mine end=+1h") == "ok\n")
        try #require(Double(start - 3) > Date().timeIntervalSince1970 + 0.5, "set up too slowly to see the soon moment")
        // soon and live: 8 in full and one counting the rest, each.
        let received = desktop.waitFor(18, timeout: 30)
        #expect(received.count == 18, "dunst got \(received.count): \(received.map(\.summary)); notifier log: \(notifier.errorText)")
        let soon = received.filter { $0.body.hasPrefix("soon") || $0.body.contains("start soon") }
        #expect(soon.filter { $0.summary == "Mine" }.count == 1, "the user's own room is never pushed out: \(soon.map(\.summary))")
        let counted = received.filter { $0.summary == "zaoan" }.map(\.body)
        #expect(counted == ["and 2993 more start soon — zaoan ask schedule", "and 2993 more are live now — zaoan ask schedule"], "\(counted)")
        // Nothing more arrives for those two moments (the ended ones are an hour away).
        #expect(desktop.waitFor(19, timeout: 2).count == 18, "\(desktop.received().map(\.summary))")
    }
}
