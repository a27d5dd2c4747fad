import Foundation
import Testing
import ZaoanCalendar
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

    /// Scalars at the edges of the refused classes (Unicode general categories Zs, Zl, Zp,
    /// Cc, Cf, Co, Cn; default ignorable; blank-looking) and their neighbours that are plain text.
    @Test("every space, control, format, invisible, blank-looking, private-use and unassigned scalar is refused; the scalars beside them pass", arguments: [
        (0x1F, false), (0x20, false), (0x21, true), (0x7E, true), (0x7F, false), (0x85, false), (0x9F, false),
        (0xA0, false), (0xA1, true), (0xAC, true), (0xAD, false), (0xAE, true), (0x600, false), (0x61C, false),
        (0x1680, false), (0x180E, false), (0x1681, true), (0x2000, false), (0x200A, false), (0x200B, false),
        (0x200D, false), (0x200E, false), (0x200F, false), (0x2010, true), (0x2027, true), (0x2028, false),
        (0x2029, false), (0x202A, false), (0x202E, false), (0x202F, false), (0x2030, true), (0x205F, false),
        (0x2060, false), (0x2066, false), (0x2069, false), (0x2070, true), (0x3000, false), (0x3001, true),
        (0xFEFF, false), (0xFFF9, false), (0xFFFB, false), (0xFFFC, true), (0x110BD, false), (0x1D173, false),
        (0xE0001, false), (0xE007F, false), (0x4F8B, true), (0x1F600, true),
        (0x27FF, true), (0x2800, false), (0x2801, true), (0x3164, false), (0x115F, false), (0x1160, false), (0x034F, false),
        (0xFE0F, false), (0xE0100, false), (0x1D159, false), (0xE000, false), (0xF0000, false), (0x0378, false), (0xFFFF, false),
    ] as [(UInt32, Bool)])
    func invisibleScalars(value: UInt32, opens: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let url = "https://example.org/a" + String(scalar) + "b"
        let said = String(format: "U+%04X", value)
        switch BarURL.check(url, schemes: BarConfig.defaultURLSchemes) {
        case .success: #expect(opens, "\(said) should be refused")
        case .failure(let refusal): #expect(!opens && refusal.description.contains(said), "\(said): \(refusal)")
        }
        // The service keeps a calendar's URL by the same rule.
        #expect((CalendarText.url(url) != nil) == opens, "\(said) in a calendar's URL")
    }

    @Test("bar_url_schemes can add a scheme; check-config refuses a bad one")
    func configuredSchemes() throws {
        #expect((try? BarURL.check("mailto:me@example.org", schemes: ["mailto"]).get()) == "mailto:me@example.org")
        #expect(throws: ConfigError.self) { _ = try BarConfig.check(blocks: nil, clockFormats: nil, clockZones: nil, markup: nil, urlSchemes: ["Java Script:"]) }
        #expect(throws: ConfigError.self) { _ = try BarConfig.check(blocks: nil, clockFormats: nil, clockZones: nil, markup: nil, urlOpener: ["bin/open"]) }
    }

    /// An opener script in `folder` that records each argument on a line of its own, then a
    /// separator; and what it has recorded so far.
    private func recordingOpener(in folder: TemporaryDirectory) throws -> (path: String, log: () -> String) {
        let opened = folder.file("opened.log")
        try folder.write("opener.sh", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '\(opened)'\necho --- >> '\(opened)'\n")
        chmod(folder.file("opener.sh"), 0o755)
        return (folder.file("opener.sh"), { (try? String(contentsOfFile: opened, encoding: .utf8)) ?? "" })
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
        let (opener, log) = try recordingOpener(in: folder)
        try event(url: "https://meet.example.org/r/42?x=1&y=2").write(toFile: calendar + "/meet.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(
            arguments: ["--language", "en", "--timezone", "UTC"],
            config: #"{"calendars": ["\#(calendar)"], "bar_blocks": ["countdown"], "bar_url_opener": ["\#(opener)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("url countdown") == "https://meet.example.org/r/42?x=1&y=2\n")
        #expect(try service.ask("url countdown nosuch").hasPrefix("ERR not-found"), "an unknown room, as for countdown ID")
        let bar = try RunningZaoan(["bar", "--socket", service.socketPath], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 5) { $0.contains("Meeting") } != nil, "\(bar.lines.suffix(3)) \(bar.errorText)")

        func click() { bar.write(#"{"name":"zaoan","instance":"0-countdown","button":1}"# + "\n") }
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

    @Test("a link with a no-break space in a calendar is not served; a server's link with a bidi override is not opened")
    func invisibleLinks() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let (opener, log) = try recordingOpener(in: folder)
        let config = #"{"calendars": ["\#(calendar)"], "bar_blocks": ["countdown"], "bar_url_opener": ["\#(opener)"]}"#

        // Through the service: an event's URL with U+00A0 is dropped when the calendar is read.
        try event(url: "https://meet.example.org/r/42\u{00A0}x").write(toFile: calendar + "/meet.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: config)
        defer { try? service.stop() }
        #expect(eventually(timeout: 10, interval: 0.1) { (try? service.ask("countdown"))?.contains("Meeting") == true }, "the event is shown")
        #expect(try service.ask("url countdown") == "\n", "no link is served for it")

        // From a hostile server: `url countdown` answers https://example.org/<U+202E>gpj.exe.
        let server = try ClientHardeningTests.FakeServer("link", in: folder)
        let bar = try RunningZaoan(["bar", "--socket", server.path], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 10) { $0.contains("Meeting") } != nil, "\(bar.lines.suffix(3)) \(bar.errorText)")
        bar.write("[\n" + #"{"name":"zaoan","instance":"0-countdown","button":1}"# + "\n")
        let refusal = "not opening the event's link: it holds U+202E"
        #expect(eventually(timeout: 10, interval: 0.1) { bar.errorText.contains(refusal) || log().contains("---") },
                "stderr: \(bar.errorText); opened: \(log().debugDescription)")
        #expect(bar.errorText.contains(refusal) && log().isEmpty, "stderr: \(bar.errorText); opened: \(log().debugDescription)")
    }

    /// Links that look blank or hold nothing visible where a scalar is: the Hangul fillers,
    /// the combining grapheme joiner and variation selectors (default ignorable), the blank
    /// braille cell and the null notehead (blank, flagged by no property), a private-use and
    /// an unassigned code point.
    static let blankLinks: [(uid: String, url: String)] = [
        ("braille", "https://example.org/\u{2800}/login"), ("filler", "https://ex\u{3164}ample.org/"),
        ("choseong", "https://example.org/\u{115F}"), ("jungseong", "https://example.org/\u{1160}"),
        ("cgj", "https://example.org/a\u{034F}b"), ("vs16", "https://example.org/x\u{FE0F}"), ("vs17", "https://example.org/x\u{E0100}"),
        ("notehead", "https://example.org/\u{1D159}"), ("private", "https://example.org/\u{E000}"), ("unassigned", "https://example.org/\u{0378}"),
    ]

    @Test("a link holding a blank-looking, invisible, private-use or unassigned scalar is not served; a server's is not opened")
    func blankLookingLinks() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let calendar = try folder.makeDirectory("cal")
        let (opener, log) = try recordingOpener(in: folder)
        for (index, link) in ([("plain", "https://example.org/plain")] + Self.blankLinks).enumerated() {
            try CalendarFeedTests.event(uid: link.0, title: "Event \(link.0)", start: Date().addingTimeInterval(Double(600 + 60 * index)), url: link.1)
                .write(toFile: calendar + "/\(link.0).ics", atomically: true, encoding: .utf8)
        }
        let config = #"{"calendars": ["\#(calendar)"], "bar_blocks": ["countdown"], "bar_url_opener": ["\#(opener)"]}"#

        // Through the service: each event is shown, none of the blank links is served.
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: config)
        defer { try? service.stop() }
        var plain = ""
        #expect(eventually(timeout: 10, interval: 0.1) {
            plain = (try? service.ask("live show calendar:plain")) ?? ""  // not answered: asked again
            return plain.contains("url: https://example.org/plain")
        }, "the plain event and its link are shown: \(plain.debugDescription)")
        for link in Self.blankLinks {
            let shown = try service.ask("live show calendar:\(link.uid)")
            #expect(shown.contains("title: Event \(link.uid)") && !shown.contains("url:"), "\(link.uid): \(shown.debugDescription)")
        }

        // From a hostile server: `url countdown` answers https://example.org/<U+3164>/login.
        let server = try ClientHardeningTests.FakeServer("blanklink", in: folder)
        let bar = try RunningZaoan(["bar", "--socket", server.path], environment: service.environment, scratch: service.directory)
        defer { _ = bar.terminate() }
        #expect(bar.line(within: 10) { $0.contains("Meeting") } != nil, "\(bar.lines.suffix(3)) \(bar.errorText)")
        bar.write("[\n" + #"{"name":"zaoan","instance":"0-countdown","button":1}"# + "\n")
        let refusal = "not opening the event's link: it holds U+3164, an invisible character (Unicode: default ignorable), which no link needs"
        #expect(eventually(timeout: 10, interval: 0.1) { bar.errorText.contains(refusal) || log().contains("---") },
                "stderr: \(bar.errorText); opened: \(log().debugDescription)")
        #expect(bar.errorText.contains(refusal) && log().isEmpty, "stderr: \(bar.errorText); opened: \(log().debugDescription)")
    }
}
