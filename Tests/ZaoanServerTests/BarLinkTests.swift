import Foundation
import Testing
import ZaoanProtocol

/// A click on a countdown opens the shown calendar event's URL, as i3status-rust's calendar
/// block does — through `bar_url_opener`, never a shell, and only for `bar_url_schemes`.
@Suite("bar: a click opens an event's link")
struct BarLinkTests {
    @Test("what may be opened", arguments: [
        ("https://meet.example.org/r/42?x=1&y=2", true), ("HTTP://example.org", true), ("http:x", true),
        ("file:///etc/passwd", false), ("javascript:alert(1)", false), ("-x", false), ("--help", false),
        ("https://a b", false), ("https://a\u{1B}[2J", false), ("https://a\u{2028}b", false), ("", false),
        ("https://" + String(repeating: "a", count: 3000), false), ("mailto:me@example.org", false),
    ])
    func allowed(url: String, opens: Bool) {
        let result = BarURL.check(url, schemes: BarConfig.defaultURLSchemes)
        if case .success = result { #expect(opens, "\(url.debugDescription) should be refused") } else { #expect(!opens, "\(url.debugDescription): \(result)") }
    }

    @Test("bar_url_schemes can add a scheme; check-config refuses a bad one")
    func configuredSchemes() throws {
        #expect((try? BarURL.check("mailto:me@example.org", schemes: ["mailto"]).get()) == "mailto:me@example.org")
        #expect(throws: ConfigError.self) { _ = try BarConfig.check(blocks: nil, clockFormats: nil, clockZones: nil, markup: nil, urlSchemes: ["Java Script:"]) }
        #expect(throws: ConfigError.self) { _ = try BarConfig.check(blocks: nil, clockFormats: nil, clockZones: nil, markup: nil, urlOpener: ["bin/open"]) }
    }

    /// An event with URL `url` starting in 10 minutes, as one vdir file.
    private func event(url: String) -> String {
        CalendarFeedTests.event(uid: "meet", title: "Meeting", start: Date().addingTimeInterval(600), length: 1800, url: url)
    }

    @Test("a click on the countdown runs the opener with the URL as its one argument; file: and javascript: are refused")
    func clickOpens() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let opened = folder.file("opened.log")
        // The opener records each argument on a line of its own, then a separator.
        try folder.write("opener.sh", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '\(opened)'\necho --- >> '\(opened)'\n")
        chmod(folder.file("opener.sh"), 0o755)
        try event(url: "https://meet.example.org/r/42?x=1&y=2").write(toFile: calendar + "/meet.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"calendars": ["\#(calendar)"], "bar_blocks": ["countdown"], "bar_url_opener": ["\#(folder.file("opener.sh"))"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("url countdown") == "https://meet.example.org/r/42?x=1&y=2\n")
        #expect(try service.ask("url countdown nosuch").hasPrefix("ERR not-found"), "an unknown room, as for countdown ID")
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 5) { $0.contains("Meeting") } != nil, "\(bar.lines.suffix(3)) \(bar.errorText)")

        func click() { bar.write(#"{"name":"zaoan","instance":"0-countdown","button":1}"# + "\n") }
        func log() -> String { (try? String(contentsOfFile: opened, encoding: .utf8)) ?? "" }
        bar.write("[\n")
        click()
        let deadline = Date().addingTimeInterval(10)
        while !log().contains("---"), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(log() == "https://meet.example.org/r/42?x=1&y=2\n---\n", "one argument, the URL as given: \(log().debugDescription); stderr: \(bar.errorText)")

        for hostile in ["file:///etc/passwd", "javascript:alert(1)"] {
            try CalendarFeedTests.replace(calendar + "/meet.ics", with: event(url: hostile))
            let seen = Date().addingTimeInterval(5)
            while try service.ask("url countdown") != hostile + "\n", Date() < seen { Thread.sleep(forTimeInterval: 0.1) }
            click()
            let said = Date().addingTimeInterval(10)
            while !bar.errorText.contains("not opening the event's link: its scheme '\(hostile.prefix { $0 != ":" })'"), Date() < said {
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(bar.errorText.contains("not opening the event's link: its scheme '\(hostile.prefix { $0 != ":" })' is not in bar_url_schemes"),
                    "\(hostile): \(bar.errorText)")
        }
        #expect(log() == "https://meet.example.org/r/42?x=1&y=2\n---\n", "nothing else was opened: \(log().debugDescription)")
    }
}
