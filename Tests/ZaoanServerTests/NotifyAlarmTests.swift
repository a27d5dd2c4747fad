import Foundation
import Testing

/// Alarms people act on (issue 31, point 4): the shipped zaoan-notify shows each alarm of
/// `watch events` as a notice with buttons in the service's language — Join when there is a
/// meeting link, Snooze 5 min, Dismiss — and sends the choice back to the service, which owns
/// it (`remind list` shows it). The real dunst on Xvfb; buttons chosen through its context
/// menu (a scripted `dmenu`), a click through `dunstctl action` (the default action).
@Suite("alarm notices with buttons: zaoan-notify into dunst")
struct NotifyAlarmTests {
    /// A whole second `seconds` from now, in ISO 8601 (UTC, the tests' zone).
    static func second(in seconds: Int) -> (unix: Int, iso: String) {
        let unix = Int(Date().timeIntervalSince1970.rounded(.up)) + seconds
        return (unix, NotifyIntegrationTests.Room.iso(unix))
    }

    /// The `remind list` lines of `service`, split at the tabs: ID, WHEN, EVENT, TITLE.
    static func reminders(_ service: TestService) throws -> [[String]] {
        try service.ask("remind list").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    static func unix(_ iso: String) -> Double? {
        ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970
    }

    /// The alarm notices dunst has received (the ones that never expire), once `count` came.
    static func alarmNotices(_ desktop: NotificationDesktop, count: Int, timeout: Double) -> [NotificationDesktop.Received] {
        var got: [NotificationDesktop.Received] = []
        _ = eventually(timeout: timeout, interval: 0.1) {
            got = desktop.received().filter { $0.timeout == 0 }
            return got.count >= count
        }
        return got
    }

    @Test("English: Snooze 5 min and Dismiss (no Join without a link) go back to the service; with nag, a notice left alone comes again a minute later")
    func snoozeDismissNag() throws {
        // soon_threshold 1: the room added a minute ahead is no soon notice here (issue 33), only alarms.
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"nag": true, "soon_threshold": 1}"#)
        defer { try? service.stop() }
        let (desktop, notifier) = try NotifyIntegrationTests.notifierRunning(for: service, markup: "no")
        defer {
            notifier.stop()
            desktop.stop()
        }
        // Tea's alarm fires 3 s from now (a minute before its start).
        let tea = Self.second(in: 63)
        #expect(try service.ask("live add tea \(tea.iso) Tea alarm=-1m") == "ok\n")
        let first = Self.alarmNotices(desktop, count: 1, timeout: 20)
        #expect(first.map(\.summary) == ["Tea"] && first.first?.body.hasPrefix("reminder — starts at ") == true,
                "\(first) notifier: \(notifier.errorText) dunst: \(desktop.dunstLog)")
        let listed = try Self.reminders(service)
        let alarm = try #require(listed.first { $0.count == 4 && $0[2] == "tea" }, "nag keeps it pending: \(listed)")
        #expect(eventually(timeout: 10) { desktop.displayed() == 1 }, "the notice stays until acted on")

        // Closed without a choice, it comes again on the next minute (nag).
        try desktop.closeAll()
        let again = Self.alarmNotices(desktop, count: 2, timeout: 75)
        #expect(again.count == 2 && again[1].summary == "Tea", "\(again)")
        if again.count == 2 { #expect(abs(again[1].arrived - again[0].arrived - 60) < 2, "a minute apart: \(again)") }

        // Snooze 5 min from the notice: the service has it, five minutes on.
        try desktop.choose("Snooze 5 min")
        #expect(desktop.menuLines.contains { $0.contains("Snooze 5 min") } && desktop.menuLines.contains { $0.contains("Dismiss") },
                "\(desktop.menuLines)")
        #expect(!desktop.menuLines.contains { $0.contains("Join") }, "no link, no Join: \(desktop.menuLines)")
        var snoozed: [String]?
        #expect(eventually(timeout: 10) {
            snoozed = try? Self.reminders(service).first { $0.first == alarm[0] }
            return snoozed.flatMap { Self.unix($0[1]) }.map { abs($0 - Date().timeIntervalSince1970 - 300) < 10 } == true
        }, "snoozed to five minutes from now: \(String(describing: snoozed)) notifier: \(notifier.errorText)")

        // Dismiss from the next notice (the snooze's own, sent now with `remind snooze ... 1s`
        // so the test need not wait five minutes): the alarm is gone, nag and all.
        #expect(try service.ask("remind snooze \(alarm[0]) 1s") == "ok\n")
        #expect(Self.alarmNotices(desktop, count: 3, timeout: 20).count == 3)
        try desktop.choose("Dismiss")
        #expect(eventually(timeout: 10) { (try? Self.reminders(service))?.contains { $0.first == alarm[0] } == false },
                "dismissed: \(String(describing: try? Self.reminders(service))) notifier: \(notifier.errorText)")
    }

    @Test("Chinese: the buttons' words in zh; a click on the notice (the default action) joins the meeting through the opener and dismisses the alarm")
    func chineseJoinByClick() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let zoom = "https://us02web.zoom.us/j/8123456789"
        // It starts two minutes from now; its alarm fires 100 s before, time enough to read
        // the calendar and subscribe the notifier first.
        try CalendarFieldsTests.calendar(uid: "standup", title: "站会", minutes: 2, fields: [
            "CONFERENCE;VALUE=URI;FEATURE=VIDEO:\(zoom)",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT100S", "END:VALARM",
        ]).write(toFile: calendar + "/standup.ics", atomically: true, encoding: .utf8)
        let (opener, log) = try ClickActionTests.recorder(in: folder)
        let service = try TestService.start(arguments: ["--timezone", "UTC"],
                                            config: #"{"language": "zh", "nag": true, "calendars": ["\#(calendar)"], "bar_url_opener": ["\#(opener)"]}"#)
        defer { try? service.stop() }
        try service.waitUntilCalendarsRead()
        let (desktop, notifier) = try NotifyIntegrationTests.notifierRunning(for: service, markup: "no")
        defer {
            notifier.stop()
            desktop.stop()
        }
        let got = Self.alarmNotices(desktop, count: 1, timeout: 40)
        #expect(got.map(\.summary) == ["站会"] && got.first?.body.hasPrefix("提醒 · ") == true, "\(got) notifier: \(notifier.errorText)")
        #expect(try Self.reminders(service).count == 1, "pending while it nags")

        // The words, as dunst's menu lists them (chosen: nothing, so the notice stays).
        try desktop.choose("no such action")
        #expect(["加入", "5 分钟后提醒", "关闭"].allSatisfy { word in desktop.menuLines.contains { $0.contains(word) } }, "\(desktop.menuLines)")
        #expect(desktop.displayed() >= 1, "choosing nothing leaves the notice up")

        try desktop.click()
        #expect(eventually(timeout: 10, interval: 0.1) { ClickActionTests.runs(log()) == [[zoom]] }, "opened: \(log()) notifier: \(notifier.errorText)")
        #expect(eventually(timeout: 10) { desktop.displayed() == 0 })
        #expect(eventually(timeout: 10) { (try? Self.reminders(service))?.isEmpty == true }, "joining acknowledges: the alarm is dismissed, no more nagging")
    }

    @Test("ten alarms at once: eight notices wait with buttons, the ninth and tenth come without them and expire; none is lost")
    func boundedWaiting() throws {
        // soon_threshold 1: rooms added a minute ahead are not soon notices here, only alarms.
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"soon_threshold": 1}"#)
        defer { try? service.stop() }
        let (desktop, notifier) = try NotifyIntegrationTests.notifierRunning(for: service, markup: "no")
        defer {
            notifier.stop()
            desktop.stop()
        }
        // Five alarms on one second, five on the next (a firing sends at most 8 lines in full).
        let start = Self.second(in: 65)
        for index in 0..<10 {
            let iso = NotifyIntegrationTests.Room.iso(start.unix + index / 5)
            #expect(try service.ask("live add r\(index) \(iso) Room\(index) alarm=-1m") == "ok\n")
        }
        var got: [NotificationDesktop.Received] = []
        #expect(eventually(timeout: 30, interval: 0.1) {
            got = desktop.received().filter { $0.summary.hasPrefix("Room") }
            return got.count >= 10
        }, "\(got) notifier: \(notifier.errorText)")
        #expect(got.filter { $0.timeout == 0 }.count == 8, "eight wait for a choice: \(got)")
        #expect(got.filter { $0.timeout == 15_000 }.count == 2, "the rest expire: \(got)")
        #expect(Set(got.map(\.summary)).count == 10, "every alarm shown once: \(got)")
    }
}
