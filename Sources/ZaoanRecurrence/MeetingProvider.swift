/// A video-meeting service a join link leads to, known by the link's host alone: the host is
/// the part of a URL a sender cannot dress up (`https://zoom.us@evil.example/` goes to
/// evil.example, and is no Zoom link), and a look-alike host in other letters (`zооm.us`,
/// Cyrillic о) is simply no provider.
public enum MeetingProvider: String, CaseIterable, Sendable {
    case zoom, googleMeet, teams, jitsi, webex, whereby, goToMeeting

    /// How `live show`, `watch events`, `{provider}` and a tooltip name it.
    public var name: String {
        switch self {
        case .zoom: return "Zoom"
        case .googleMeet: return "Google Meet"
        case .teams: return "Microsoft Teams"
        case .jitsi: return "Jitsi Meet"
        case .webex: return "Webex"
        case .whereby: return "Whereby"
        case .goToMeeting: return "GoToMeeting"
        }
    }

    /// Hosts that are the service itself, and domains whose every subdomain is
    /// (`company.zoom.us`, `company.webex.com`).
    private var hosts: (exact: [String], domains: [String]) {
        switch self {
        case .zoom: return ([], ["zoom.us", "zoomgov.com"])
        case .googleMeet: return (["meet.google.com"], [])
        case .teams: return (["teams.microsoft.com", "teams.live.com", "teams.cloud.microsoft"], [])
        case .jitsi: return ([], ["meet.jit.si", "8x8.vc"])
        case .webex: return ([], ["webex.com"])
        case .whereby: return ([], ["whereby.com"])
        case .goToMeeting: return (["meet.goto.com"], ["gotomeeting.com", "gotomeet.me"])
        }
    }

    /// The provider of a host (lowercase ASCII, no port, no trailing dot); nil for any other.
    /// Self-hosted Jitsi is known by a label of its host holding `jitsi` (`jitsi.example.org`).
    public init?(host: String) {
        guard !host.isEmpty else { return nil }
        for provider in Self.allCases {
            let (exact, domains) = provider.hosts
            if exact.contains(host) || domains.contains(where: { host == $0 || host.hasSuffix("." + $0) }) {
                self = provider
                return
            }
        }
        if host.split(separator: ".").contains(where: { $0.contains("jitsi") }) {
            self = .jitsi
            return
        }
        return nil
    }

    /// The provider named `name` (as `name` writes it), for a link read back from the wire.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}
