/// One template of `countdown_formats`: text with fields in braces, `{title} {in}`,
/// `{start:%H:%M}`, `{end:HH:mm}`. Parsed once, when the config is read; rendered by the
/// Responder (`Responder.renderCountdown`), whose output is escaped for its target like any
/// answer (Pango, tmux `#`, polybar `%{`, JSON), fields and text alike.
public struct CountdownTemplate: Equatable, Sendable {
    /// What a field says.
    public enum Field: String, CaseIterable, Sendable {
        /// The room's or event's title; empty for a room without one.
        case title
        /// A calendar event's location and calendar name; empty for a room.
        case location, calendar
        /// The start and end, in `time_format` or the field's pattern.
        case start, end
        /// The countdown as zaoan says it today: `距开播 01:02:03` / `starts in 01:02:03`,
        /// `直播中 00:12:03` / `live 00:12:03`, `已结束` / `ended`.
        case `in` = "in"
        /// How long a live room has been live (`00:12:03`, `2d 03:04:05`); empty otherwise.
        case since
        /// How long until an upcoming room starts (`01:02:03`); empty otherwise.
        case until
        /// How long a live room or event has left (`00:47:57`, as MeetingBar's "ends in");
        /// empty otherwise.
        case endsIn = "ends_in"
        /// The room or event that starts next after this one, as `{title} {in}` says it
        /// (`Review · starts in 00:25:00`); empty when nothing follows.
        case next
        /// The glyph `icons` gives the meeting's service, else the room's state; empty
        /// without one.
        case icon

        /// Only a time takes a pattern.
        var takesPattern: Bool { self == .start || self == .end }
    }

    public enum Piece: Equatable, Sendable {
        case text(String)
        /// A field and its pattern (`{start:%H:%M}`): strftime with a `%`, LDML without.
        case field(Field, pattern: String?)
    }

    public let pieces: [Piece]

    /// The longest template, in bytes, and the most fields one holds.
    public static let maxBytes = 256
    public static let maxFields = 16
    /// The most a `{start:...}` or `{end:...}` pattern may format to (checked at load on a
    /// sample instant), so no width makes a field long.
    public static let maxPatternOutputBytes = 64

    /// Parses a template; an unknown field, an unclosed `{`, a pattern on a field that takes
    /// none, or one too many fields is a problem said in the user's terms. Whether a pattern
    /// formats anything is `Settings`' to check (it needs a formatter).
    /// - Parameter fields: the fields this template may hold (`none` may hold none).
    public static func parse(_ text: String, fields allowed: [Field] = Field.allCases) throws(TemplateProblem) -> CountdownTemplate {
        guard text.utf8.count <= maxBytes else { throw TemplateProblem("is \(text.utf8.count) bytes long; at most \(maxBytes)") }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            throw TemplateProblem("holds a control character or line break; a template is one line")
        }
        var pieces: [Piece] = []
        var fieldCount = 0
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw TemplateProblem("has a { without its }; fields are written {title}, {in}, {start:%H:%M}")
            }
            let body = rest[rest.index(after: open)..<close]
            let name = body.prefix { $0 != ":" }
            let pattern = name.endIndex < body.endIndex ? String(body[body.index(after: name.endIndex)...]) : nil
            guard let field = Field(rawValue: String(name)) else {
                throw TemplateProblem("{\(RequestParser.shorten(String(body)))} is not a field; use \(allowed.isEmpty ? "none here (it shows when nothing is next)" : allowed.map { "{\($0.rawValue)}" }.joined(separator: " "))")
            }
            guard allowed.contains(field) else {
                throw TemplateProblem("{\(field.rawValue)} has nothing to show here; use \(allowed.isEmpty ? "text alone (nothing is next)" : allowed.map { "{\($0.rawValue)}" }.joined(separator: " "))")
            }
            if let pattern {
                guard field.takesPattern else { throw TemplateProblem("{\(field.rawValue)} takes no pattern; only {start:...} and {end:...} do") }
                guard !pattern.isEmpty else { throw TemplateProblem("{\(field.rawValue):} has an empty pattern; leave out the : for time_format") }
            }
            fieldCount += 1
            guard fieldCount <= maxFields else { throw TemplateProblem("has more than \(maxFields) fields") }
            pieces.append(.field(field, pattern: pattern))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return CountdownTemplate(pieces: pieces)
    }

    /// The patterns of its `{start:...}` and `{end:...}` fields.
    public var patterns: [String] {
        pieces.compactMap { if case .field(_, let pattern?) = $0 { return pattern } else { return nil } }
    }
}

/// What is wrong with a template, said of it (`countdown_formats.compact.live ` + this).
public struct TemplateProblem: Error, Equatable, Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }
}

/// A named set of `countdown_formats`: a template for each phase, or nil for today's text.
public struct CountdownFormatSet: Equatable, Sendable {
    /// The room starts later: `{title} {in}`.
    public var upcoming: CountdownTemplate?
    /// The room is live: `● {title} {since}`.
    public var live: CountdownTemplate?
    /// A room asked for by ID has ended.
    public var ended: CountdownTemplate?
    /// Nothing is live or next: text alone (empty by default, so a bar hides the module).
    public var none: CountdownTemplate?

    public init(upcoming: CountdownTemplate? = nil, live: CountdownTemplate? = nil, ended: CountdownTemplate? = nil, none: CountdownTemplate? = nil) {
        self.upcoming = upcoming
        self.live = live
        self.ended = ended
        self.none = none
    }

    /// The keys a set may have, in the order the docs give them.
    public static let keys = ["upcoming", "live", "ended", "none"]
    /// The most sets `countdown_formats` holds.
    public static let maxSets = 16
    /// The set `countdown`, `status` and `ticker` use without `format=NAME`.
    public static let defaultName = "default"

    func template(for phase: RoomPhase) -> CountdownTemplate? {
        switch phase {
        case .upcoming: return upcoming
        case .live: return live
        case .ended: return ended
        }
    }
}
