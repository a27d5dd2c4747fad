/// The link to join an event's meeting, and the service it leads to, found where calendars
/// put it. Properties made for it come first, in this order: RFC 7986's CONFERENCE (one with
/// `FEATURE=VIDEO` before the others), Google's `X-GOOGLE-CONFERENCE`, Microsoft's
/// `X-MICROSOFT-SKYPETEAMSMEETINGURL` and `X-MICROSOFT-ONLINEMEETINGCONFLINK`; any http(s)
/// link there is the join link. Then the texts people write links in — LOCATION, URL,
/// DESCRIPTION — where only a known provider's link is one (`MeetingProvider`), since a
/// map's or an agenda's link is no meeting. In one text a provider's link comes before
/// other links; between texts the order above decides. Every link is unwrapped and checked
/// by `WebLink`: only http(s), never `javascript:`, `data:` or `file:`.
public struct MeetingLink: Equatable, Sendable {
    public let url: String
    public let provider: MeetingProvider?

    public init(url: String, provider: MeetingProvider?) {
        self.url = url
        self.provider = provider
    }

    /// Where a text was found, in the order of preference.
    public enum Place: Int, Comparable, Sendable {
        case videoConference, conference, googleConference, teamsMeeting, onlineMeeting, location, url, description

        /// The X- property names read, by place.
        public static let xProperties: [(name: String, place: Place)] = [
            ("X-GOOGLE-CONFERENCE", .googleConference),
            ("X-MICROSOFT-SKYPETEAMSMEETINGURL", .teamsMeeting),
            ("X-MICROSOFT-ONLINEMEETINGCONFLINK", .onlineMeeting),
        ]

        /// Whether the property is made for a meeting's link (any http(s) link in it is one).
        public var isForMeetings: Bool { self < .location }

        /// The property's name, for a problem about it.
        public var propertyName: String {
            switch self {
            case .videoConference, .conference: return "CONFERENCE"
            case .googleConference, .teamsMeeting, .onlineMeeting:
                return Self.xProperties.first { $0.place == self }?.name ?? "X-"
            case .location: return "LOCATION"
            case .url: return "URL"
            case .description: return "DESCRIPTION"
            }
        }

        public static func < (a: Place, b: Place) -> Bool { a.rawValue < b.rawValue }

        /// A CONFERENCE's place by its FEATURE values (`AUDIO,VIDEO`, in any case, quoted or not).
        public static func conference(features: [String]) -> Place {
            let values = features.flatMap { $0.split(separator: ",") }.map {
                String($0.filter { $0 != "\"" && $0 != " " }).uppercased()
            }
            return values.contains("VIDEO") ? .videoConference : .conference
        }
    }

    /// A text to look in, and where it was found.
    public struct Candidate: Sendable {
        public let place: Place
        public let text: String

        public init(_ place: Place, _ text: String) {
            self.place = place
            self.text = text
        }
    }

    /// What a search found: the join link, if any, and why values of the properties made
    /// for meetings were not taken (`javascript:`, a link holding U+202E, ...).
    public struct Search: Sendable {
        public var link: MeetingLink?
        public var refusals: [String] = []
    }

    /// Schemes a CONFERENCE may well have that are no web link (a dial-in, a chat): not
    /// taken, and not worth a problem.
    static let otherConferenceSchemes: Set<String> = ["tel", "sip", "sips", "xmpp", "callto", "conf", "im"]

    /// The join link of `candidates` (in any order: their places decide), at most
    /// `candidatesLooked` of them.
    public static func find(in candidates: [Candidate]) -> Search {
        var search = Search()
        let ordered = candidates.prefix(candidatesLooked).enumerated().sorted { ($0.element.place, $0.offset) < ($1.element.place, $1.offset) }
        for (_, candidate) in ordered {
            let links = WebLink.links(in: candidate.text)
            let known = links.lazy.compactMap { link in WebLink.host(of: link).flatMap(MeetingProvider.init(host:)).map { (link, $0) } }.first
            if let (link, provider) = known {
                search.link = MeetingLink(url: link, provider: provider)
                return search
            }
            if candidate.place.isForMeetings {
                if let link = links.first {
                    search.link = MeetingLink(url: link, provider: nil)
                    return search
                }
                if let refusal = refusal(of: candidate) { search.refusals.append(refusal) }
            }
        }
        return search
    }

    /// Candidates looked at per event (an event with 10,000 CONFERENCE lines costs 16).
    public static let candidatesLooked = 16

    /// Why a meeting property's value gave no link; nil for a dial-in or chat address.
    static func refusal(of candidate: Candidate) -> String? {
        let value = CalendarText.prefix(SafeText.trimmed(candidate.text), maxBytes: 4096)
        guard !value.isEmpty else { return nil }
        let scheme = value.prefix { $0 != ":" }.lowercased()
        if scheme.count < value.count, otherConferenceSchemes.contains(scheme) { return nil }
        let shown = CalendarText.oneLine(value, maxBytes: 80, maxCharacters: 60) ?? ""
        let why: String
        if WebLink.isWeb(value) {
            if let (scalar, refusal) = LinkText.firstRefused(in: value) {
                why = "it holds \(scalar.codePoint), \(refusal), which no link needs"
            } else {
                why = "it is no link that can be opened (longer than \(CalendarLimits.urlBytes) bytes, no host, or a redirect to one)"
            }
        } else {
            why = "only http and https links are join links"
        }
        return "its \(candidate.place.propertyName) '\(shown)' is not taken: \(why)"
    }
}

import ZaoanText
