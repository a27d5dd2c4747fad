import Testing
@testable import ZaoanRecurrence

/// The join link of an event (issue 31, point 5): where calendars put it, which wins, the
/// providers, the redirects unwrapped, and what is never a join link.
@Suite("meeting links: the finder")
struct MeetingLinkTests {
    typealias Candidate = MeetingLink.Candidate

    static func find(_ candidates: [Candidate]) -> MeetingLink? { MeetingLink.find(in: candidates).link }

    @Test("each provider is known by its host", arguments: [
        ("https://zoom.us/j/123456789?pwd=abc", MeetingProvider.zoom),
        ("https://us02web.zoom.us/j/87654321", .zoom),
        ("https://company.zoomgov.com/j/1", .zoom),
        ("https://meet.google.com/abc-defg-hij", .googleMeet),
        ("https://teams.microsoft.com/l/meetup-join/19%3ameeting_N2Q%40thread.v2/0?context=%7b%7d", .teams),
        ("https://teams.live.com/meet/9876", .teams),
        ("https://meet.jit.si/ZaoanStandup", .jitsi),
        ("https://8x8.vc/company/room", .jitsi),
        ("https://jitsi.example.org/room", .jitsi),
        ("https://company.webex.com/meet/someone", .webex),
        ("https://whereby.com/zaoan", .whereby),
        ("https://global.gotomeeting.com/join/123456789", .goToMeeting),
        ("https://meet.goto.com/123456789", .goToMeeting),
        ("HTTPS://ZOOM.US/j/1", .zoom),
        ("https://zoom.us:443/j/1", .zoom),
        ("https://zoom.us./j/1", .zoom),
    ])
    func providers(_ link: String, _ provider: MeetingProvider) {
        #expect(Self.find([Candidate(.description, "Join: \(link)")]) == MeetingLink(url: link, provider: provider))
    }

    @Test("a host that only looks like a provider's is none", arguments: [
        "https://zoom.us@evil.example/j/1", "https://notzoom.us/j/1", "https://zoom.us.evil.example/j/1",
        "https://meet.google.com.evil.example/x", "https://evil.example/meet.google.com/abc", "https://z\u{43E}\u{43E}m.us/j/1",
        "https://mywebex.com/x", "https://evil.example/?q=https://zoom.us/j/1",
    ])
    func lookAlikes(_ link: String) {
        #expect(WebLink.host(of: link).flatMap(MeetingProvider.init(host:)) == nil)
        #expect(Self.find([Candidate(.description, link)]) == nil, "free text gives only a provider's link")
    }

    @Test("every property kind gives its link, and the property order decides between texts")
    func propertyOrder() {
        let zoom = "https://zoom.us/j/1"
        let all: [Candidate] = [
            Candidate(.description, "Notes https://meet.google.com/ddd-dddd-ddd"),
            Candidate(.url, "https://whereby.com/url"),
            Candidate(.location, "Room 4 / https://meet.jit.si/location"),
            Candidate(.onlineMeeting, "https://example.org/online"),
            Candidate(.teamsMeeting, "https://teams.microsoft.com/l/meetup-join/x"),
            Candidate(.googleConference, "https://meet.google.com/ggg-gggg-ggg"),
            Candidate(.conference, "https://example.org/conference"),
            Candidate(.videoConference, zoom),
        ]
        let expected = [
            MeetingLink(url: zoom, provider: .zoom),
            MeetingLink(url: "https://example.org/conference", provider: nil),
            MeetingLink(url: "https://meet.google.com/ggg-gggg-ggg", provider: .googleMeet),
            MeetingLink(url: "https://teams.microsoft.com/l/meetup-join/x", provider: .teams),
            MeetingLink(url: "https://example.org/online", provider: nil),
            MeetingLink(url: "https://meet.jit.si/location", provider: .jitsi),
            MeetingLink(url: "https://whereby.com/url", provider: .whereby),
            MeetingLink(url: "https://meet.google.com/ddd-dddd-ddd", provider: .googleMeet),
        ]
        for dropped in 0..<all.count {
            // Without the best `dropped` candidates, the next one wins.
            #expect(Self.find(Array(all.dropLast(dropped))) == expected[dropped], "without the last \(dropped)")
        }
    }

    @Test("a CONFERENCE with FEATURE=VIDEO wins over an earlier one without")
    func videoFeature() {
        let phone = Candidate(MeetingLink.Place.conference(features: ["AUDIO"]), "https://example.org/audio-bridge")
        let video = Candidate(MeetingLink.Place.conference(features: ["\"AUDIO,VIDEO\""]), "https://example.org/video")
        #expect(Self.find([phone, video])?.url == "https://example.org/video")
        #expect(MeetingLink.Place.conference(features: ["audio", "video"]) == .videoConference)
        #expect(MeetingLink.Place.conference(features: []) == .conference)
    }

    @Test("in one text a provider's link comes before other links")
    func providerFirstInText() {
        let text = "Agenda https://docs.example.org/agenda, then join https://us02web.zoom.us/j/555 (or dial in)."
        #expect(Self.find([Candidate(.description, text)]) == MeetingLink(url: "https://us02web.zoom.us/j/555", provider: .zoom))
        #expect(Self.find([Candidate(.conference, "https://example.org/x https://meet.google.com/aaa-bbbb-ccc")])?.provider == .googleMeet)
    }

    @Test("links end where sentences and markup do", arguments: [
        ("<https://meet.google.com/abc-defg-hij>", "https://meet.google.com/abc-defg-hij"),
        ("(https://zoom.us/j/1).", "https://zoom.us/j/1"),
        ("see https://zoom.us/j/1?pwd=x, ok", "https://zoom.us/j/1?pwd=x"),
        ("会议链接：https://zoom.us/j/1。请准时", "https://zoom.us/j/1"),
        ("<a href=\"https://whereby.com/a\">join</a>", "https://whereby.com/a"),
        ("https://zoom.us/j/(1)", "https://zoom.us/j/(1)"),
        ("**https://zoom.us/j/1**", "https://zoom.us/j/1"),
        ("line\nhttps://zoom.us/j/1\nnext", "https://zoom.us/j/1"),
    ])
    func boundaries(_ text: String, _ link: String) {
        #expect(Self.find([Candidate(.description, text)])?.url == link)
    }

    @Test("SafeLinks and Google's redirect are unwrapped, the inner link checked too")
    func redirects() {
        let safe = "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fteams.microsoft.com%2Fl%2Fmeetup-join%2F19%253ameeting&data=05%7C01&sdata=x&reserved=0"
        #expect(Self.find([Candidate(.description, "Join <\(safe)>")]) == MeetingLink(url: "https://teams.microsoft.com/l/meetup-join/19%3ameeting", provider: .teams))
        let google = "https://www.google.com/url?q=https://zoom.us/j/42?pwd%3Dabc&sa=D&source=calendar&usg=AOv"
        #expect(Self.find([Candidate(.location, google)]) == MeetingLink(url: "https://zoom.us/j/42?pwd=abc", provider: .zoom))
        let both = "https://eur01.safelinks.protection.outlook.com/?url=" + "https://www.google.com/url?q=https%3A%2F%2Fmeet.jit.si%2Fx".replacing("%", with: "%25") + "&data=1"
        #expect(Self.find([Candidate(.description, both)])?.url == "https://meet.jit.si/x")
        for bad in ["javascript:alert(1)", "javascript%3Aalert(1)", "file%3A%2F%2F%2Fetc%2Fpasswd", "https%3A%2F%2Fzoom.us%2Fj%2F1%E2%80%AEgpj.exe", "%ZZ", "https%3A%2F%2F%FF", ""] {
            #expect(Self.find([Candidate(.videoConference, "https://nam12.safelinks.protection.outlook.com/?url=\(bad)&data=1")]) == nil, "\(bad)")
        }
        #expect(Self.find([Candidate(.videoConference, "https://nam12.safelinks.protection.outlook.com/?data=1")]) == nil, "a SafeLinks link without its url=")
        // Only google.com's /url redirects; another path of it is a plain (non-provider) link.
        #expect(WebLink.checked("https://www.google.com/search?q=https://zoom.us/j/1") == "https://www.google.com/search?q=https://zoom.us/j/1")
    }

    @Test("only http(s) links are join links; a refused CONFERENCE is said, a dial-in is not", arguments: [
        ("javascript:alert(document.cookie)", true), ("JavaScript:alert(1)", true), ("data:text/html,<script>x</script>", true),
        ("file:///etc/passwd", true), ("ftp://example.org/x", true), ("https://zoom.us/j/1\u{202E}gpj.exe", true),
        ("https://zoom.us/j/1\u{200B}", true), ("https://", true), ("tel:+1-555-0100", false), ("sip:room@example.org", false),
    ])
    func refused(_ value: String, _ said: Bool) {
        let search = MeetingLink.find(in: [Candidate(.videoConference, value), Candidate(.location, "Room 4")])
        #expect(search.link == nil)
        #expect(search.refusals.count == (said ? 1 : 0), "\(search.refusals)")
        if said { #expect(search.refusals.first?.hasPrefix("its CONFERENCE ") == true) }
        #expect(search.refusals.allSatisfy { !$0.unicodeScalars.contains("\u{202E}") }, "the refusal shows no override")
    }

    @Test("a refused CONFERENCE leaves the next place to give the link")
    func refusedThenNext() {
        let search = MeetingLink.find(in: [Candidate(.videoConference, "javascript:alert(1)"), Candidate(.description, "https://zoom.us/j/7")])
        #expect(search.link == MeetingLink(url: "https://zoom.us/j/7", provider: .zoom))
        #expect(search.refusals.count == 1)
    }

    @Test("a link with an override in free text is refused whole, never cut short")
    func overrideInText() {
        #expect(Self.find([Candidate(.description, "Join https://zoom.us/j/1\u{202E}gpj.exe now")]) == nil)
        #expect(Self.find([Candidate(.description, "Join https://zoom.us/j/1\u{202E}x or https://meet.jit.si/ok")])?.url == "https://meet.jit.si/ok")
    }

    @Test("huge inputs and junk cost a bounded scan and never trap")
    func hugeAndJunk() {
        let far = String(repeating: "a ", count: WebLink.scanBytes) + "https://zoom.us/j/1"
        #expect(Self.find([Candidate(.description, far)]) == nil, "past the bytes scanned")
        let many = String(repeating: "https://x.example/ ", count: 5_000) + "https://zoom.us/j/1"
        #expect(Self.find([Candidate(.description, many)]) == nil, "past the links looked at")
        let long = "https://zoom.us/j/" + String(repeating: "1", count: CalendarLimits.urlBytes)
        #expect(Self.find([Candidate(.description, long)]) == nil, "a link longer than a URL may be")
        let junk = ["", "http", "http:", "http://", "https://:@/", "https://[::1]/x", "%", "http://%ZZ", "\u{0}https://zoom.us/j/1",
                    String(repeating: "\u{301}", count: 10_000) + "https://zoom.us/j/2", "xhttps://zoom.us/j/3", "https://@",
                    String(repeating: "https://", count: 20_000), String(repeating: "(", count: 10_000) + "https://zoom.us/j/4" + String(repeating: ")", count: 10_000)]
        for text in junk {
            _ = MeetingLink.find(in: [Candidate(.conference, text), Candidate(.description, text)])
        }
        #expect(Self.find([Candidate(.description, "\u{0}https://zoom.us/j/1")])?.url == "https://zoom.us/j/1")
        #expect(Self.find([Candidate(.description, "xhttps://zoom.us/j/3")]) == nil)
        let crowd = (0..<10_000).map { _ in Candidate(.conference, "javascript:x") } + [Candidate(.conference, "https://zoom.us/j/9")]
        #expect(MeetingLink.find(in: crowd).link == nil, "only the first \(MeetingLink.candidatesLooked) candidates")
        #expect(MeetingLink.find(in: crowd).refusals.count == MeetingLink.candidatesLooked)
    }

    @Test("a provider's name reads back as the provider")
    func names() {
        for provider in MeetingProvider.allCases { #expect(MeetingProvider(name: provider.name) == provider) }
        #expect(MeetingProvider(name: "zoom") == nil)
    }
}
