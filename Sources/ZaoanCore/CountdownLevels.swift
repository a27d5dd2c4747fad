/// `countdown_levels`: thresholds beside `soon_threshold` (which keeps its `soon` class and
/// urgency as before), and colours for them and for live and ended rooms.
///
/// `{"warning": {"minutes": 15, "color": "#ffb000"}, "critical": {"minutes": 2, "color":
/// "#ff3030"}, "live": {"color": "#30c030"}, "ended": {"color": "#808080"}}`: a room
/// starting within 15 minutes has the class `warning` beside its own (`upcoming` or `soon`),
/// within 2 minutes `critical` instead (and i3bar's `urgent`); each level's colour is the
/// block's in i3bar, polybar and tmux. Without the key nothing changes.
public struct CountdownLevels: Equatable, Sendable {
    /// A level that starts some minutes before the start.
    public struct Threshold: Equatable, Sendable {
        public var minutes: Int
        public var color: BarColor?
        public init(minutes: Int, color: BarColor? = nil) {
            self.minutes = minutes
            self.color = color
        }
    }

    public var warning: Threshold?
    public var critical: Threshold?
    public var live: BarColor?
    public var ended: BarColor?

    public init(warning: Threshold? = nil, critical: Threshold? = nil, live: BarColor? = nil, ended: BarColor? = nil) {
        self.warning = warning
        self.critical = critical
        self.live = live
        self.ended = ended
    }

    /// The levels and what each may hold.
    public static let thresholdNames = ["warning", "critical"]
    public static let phaseNames = ["live", "ended"]
    /// A threshold's bounds: a minute to a week (as `soon_threshold`'s).
    public static let minutes = 1...10_080

    /// What a level adds to a room's answer in `phase`.
    public struct Shown: Equatable, Sendable {
        /// Classes beside the state (`warning`, `critical`).
        public var classes: [String] = []
        public var color: BarColor?
        /// `critical`: asks the bar for attention.
        public var urgent = false
    }

    public func shown(_ phase: RoomPhase) -> Shown {
        var shown = Shown()
        switch phase {
        case .upcoming(let seconds):
            if let critical, seconds <= critical.minutes * 60 {
                shown.classes = ["critical"]
                shown.color = critical.color
                shown.urgent = true
            } else if let warning, seconds <= warning.minutes * 60 {
                shown.classes = ["warning"]
                shown.color = warning.color
            }
        case .live:
            shown.color = live
        case .ended:
            shown.color = ended
        }
        return shown
    }
}
