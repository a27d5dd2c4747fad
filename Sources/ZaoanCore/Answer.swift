/// An answer before encoding: its text and what bars want to know about it.
public struct Answer: Equatable, Sendable {
    /// One line for most answers; several for help, stats, live list and live show.
    public var lines: [String]
    public var isMultiLine: Bool
    /// A shorter form for narrow bars (i3bar's short_text).
    public var shortText: String?
    public var tooltip: String?
    /// The state, as a waybar class: morning/noon/afternoon/evening/night for the greeting,
    /// upcoming/soon/live/ended for countdowns.
    public var state: String?
    /// Asks the bar for attention (i3bar's urgent): a room starts soon or just went live.
    public var urgent: Bool

    public init(_ text: String, shortText: String? = nil, tooltip: String? = nil, state: String? = nil, urgent: Bool = false) {
        self.lines = [text]
        self.isMultiLine = false
        self.shortText = shortText
        self.tooltip = tooltip
        self.state = state
        self.urgent = urgent
    }

    public init(lines: [String]) {
        self.lines = lines
        self.isMultiLine = true
        self.urgent = false
    }

    public var text: String { lines.joined(separator: "\n") }
}

/// How an answer is written: `plain` text, a waybar `json` object, or an `i3bar` block.
public enum OutputFormat: String, Hashable, Sendable, CaseIterable {
    case plain
    case json
    case i3bar

    /// Encodes an answer. Every format first makes user text visible-safe (no control
    /// characters); json escapes it for Pango markup (waybar renders markup and does not
    /// escape by default) and JSON; i3bar blocks say `markup: none` unless `pangoMarkup`.
    public func encode(_ answer: Answer, name: String, pangoMarkup: Bool) -> Reply {
        switch self {
        case .plain:
            return answer.isMultiLine ? .lines(answer.lines) : .line(answer.lines.first ?? "")
        case .json:
            var fields: [(String, String)] = [("text", SafeText.pango(SafeText.visibleLines(answer.text)))]
            if let tooltip = answer.tooltip { fields.append(("tooltip", SafeText.pango(SafeText.visibleLines(tooltip)))) }
            if let state = answer.state {
                fields.append(("class", state))
                fields.append(("alt", state))
            }
            return .line(Self.object(fields.map { ($0.0, SafeText.jsonString($0.1)) }))
        case .i3bar:
            func escape(_ text: String) -> String {
                pangoMarkup ? SafeText.pango(SafeText.visible(text)) : SafeText.visible(text)
            }
            var fields: [(String, String)] = [
                ("name", SafeText.jsonString("zaoan")), ("instance", SafeText.jsonString(name)),
                ("full_text", SafeText.jsonString(escape(answer.text))),
            ]
            if let short = answer.shortText { fields.append(("short_text", SafeText.jsonString(escape(short)))) }
            fields.append(("urgent", answer.urgent ? "true" : "false"))
            fields.append(("markup", SafeText.jsonString(pangoMarkup ? "pango" : "none")))
            return .line(Self.object(fields))
        }
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
