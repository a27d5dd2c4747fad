import ZaoanRecurrence

/// `icons`: a glyph per state and per meeting service, as i3status-rust's icon sets give
/// each block state one, for `{icon}` in `status_template` and `countdown_formats`. A glyph
/// is text the user writes (a Nerd Font or Font Awesome codepoint as the character itself,
/// or as JSON's `\uf03d`): zaoan ships no font and fetches nothing. None by default, so
/// `{icon}` says nothing.
public struct Icons: Sendable, Equatable {
    /// By state: a countdown's `upcoming`, `soon`, `live`, `ended`; the greeting's part of day.
    public var byState: [String: String] = [:]
    public var byProvider: [MeetingProvider: String] = [:]

    public init() {}

    /// The states a glyph may be given for, as the answers' classes name them.
    public static let states = ["upcoming", "soon", "live", "ended", "morning", "noon", "afternoon", "evening", "night"]

    /// Each meeting service's key in `icons`.
    public static let providerKeys: [(key: String, provider: MeetingProvider)] = [
        ("zoom", .zoom), ("meet", .googleMeet), ("teams", .teams), ("jitsi", .jitsi), ("webex", .webex),
        ("whereby", .whereby), ("gotomeeting", .goToMeeting),
    ]

    /// Every key `icons` takes.
    public static var keys: [String] { states + providerKeys.map(\.key) }

    /// The longest glyph, in bytes: a character or two (an emoji with its joiners fits).
    public static let maxBytes = 16

    /// `{icon}`: the glyph of the meeting's service, if it has one, else of the state; empty
    /// when neither has one.
    public func icon(state: String?, provider: MeetingProvider?) -> String {
        provider.flatMap { byProvider[$0] } ?? state.flatMap { byState[$0] } ?? ""
    }

    /// Why `text` cannot be a glyph, or nil if it can: one line of at most `maxBytes`, no
    /// control or format character (but the joiner and variation selector emoji are built of).
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "is empty; leave the key out for no icon" }
        if text.utf8.count > maxBytes { return "is \(text.utf8.count) bytes; an icon is at most \(maxBytes) (a glyph or two)" }
        let allowedFormat: Set<UInt32> = [0x200D, 0xFE0E, 0xFE0F]
        if text.unicodeScalars.contains(where: { scalar in
            let category = scalar.properties.generalCategory
            return category == .control || (category == .format && !allowedFormat.contains(scalar.value))
                || category == .lineSeparator || category == .paragraphSeparator
        }) {
            return "holds a control or format character; an icon is the glyph itself, such as \"\\uf03d\""
        }
        return nil
    }
}
