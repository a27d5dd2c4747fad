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
    /// A countdown level's classes beside `state` (`warning`, `critical`; `countdown_levels`).
    public var levels: [String] = []
    /// A countdown level's colour: i3bar's `color`, polybar's `%{F#rrggbb}`, tmux's `#[fg=...]`.
    public var color: BarColor?
    /// A tooltip already in Pango markup, every text in it escaped by its maker (`month`'s
    /// grid): waybar's JSON carries it as it is, in place of `tooltip`.
    public var tooltipMarkup: String?
    /// What a bar shows of a multi-line answer, in place of its lines (`month`: the title and
    /// the week with today).
    public var barText: String?
    /// What waybar shows in the bar of an answer whose tooltip holds the rest (`month`: the
    /// month's title), in place of `barText`.
    public var barTitle: String?

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
            if !answer.isMultiLine, let color = answer.color, let line = answer.lines.first, self != .plain {
                let visible = SafeText.visible(line)
                return .line(self == .tmux ? ColoredLine.tmux(visible, color: color) : ColoredLine.polybar(visible, color: color))
            }
            // A bar's status line is one line: a multi-line answer made for bars (`month`)
            // shows its bar text there.
            if self != .plain, let barText = answer.barText { return .line(escaped(SafeText.visible(barText))) }
            let lines = self == .plain ? answer.lines : answer.lines.map { escaped(SafeText.visible($0)) }
            return answer.isMultiLine ? .lines(lines) : .line(lines.first ?? "")
        case .json:
            let object = WaybarObject(text: SafeText.pango(SafeText.visibleLines(answer.barTitle ?? answer.barText ?? answer.text)),
                                      tooltip: answer.tooltipMarkup ?? answer.tooltip.map { SafeText.pango(SafeText.visibleLines($0)) },
                                      state: answer.state, levels: answer.state == nil ? [] : answer.levels)
            return .line(object.encoded)
        case .i3bar:
            return .line(Self.i3barBlock(answer, instance: name, pangoMarkup: pangoMarkup).encoded)
        }
    }

    /// An answer as an i3bar block; `label`, if any, goes before its text (a clock in
    /// another zone says which).
    static func i3barBlock(_ answer: Answer, instance: String, label: String? = nil, pangoMarkup: Bool) -> I3barBlock {
        func escape(_ text: String) -> String {
            let shown = label.map { $0 + " " + text } ?? text
            return pangoMarkup ? SafeText.pango(SafeText.visible(shown)) : SafeText.visible(shown)
        }
        return I3barBlock(instance: instance, fullText: escape(answer.barText ?? answer.text), shortText: answer.shortText.map(escape),
                          urgent: answer.urgent, pango: pangoMarkup, color: answer.color)
    }
}
