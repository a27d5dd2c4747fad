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

extension OutputFormat {
    /// Encodes an answer. Every format first makes user text visible-safe (no control
    /// characters); json escapes it for Pango markup (waybar renders markup and does not
    /// escape by default) and JSON; i3bar blocks say `markup: none` unless `pangoMarkup`;
    /// tmux doubles `#` and polybar defuses `%{`, which each reads as formatting.
    public func encode(_ answer: Answer, name: String, pangoMarkup: Bool) -> Reply {
        switch self {
        case .plain, .tmux, .polybar:
            // `Reply` makes every line visible-safe; tmux and polybar escape after that, so
            // their escapes apply to the stand-ins too.
            let lines = self == .plain ? answer.lines : answer.lines.map { escaped(SafeText.visible($0)) }
            return answer.isMultiLine ? .lines(lines) : .line(lines.first ?? "")
        case .json:
            let object = WaybarObject(text: SafeText.pango(SafeText.visibleLines(answer.text)),
                                      tooltip: answer.tooltip.map { SafeText.pango(SafeText.visibleLines($0)) },
                                      state: answer.state)
            return .line(object.encoded)
        case .i3bar:
            func escape(_ text: String) -> String {
                pangoMarkup ? SafeText.pango(SafeText.visible(text)) : SafeText.visible(text)
            }
            let block = I3barBlock(instance: name, fullText: escape(answer.text), shortText: answer.shortText.map(escape),
                                   urgent: answer.urgent, pango: pangoMarkup)
            return .line(block.encoded)
        }
    }
}
