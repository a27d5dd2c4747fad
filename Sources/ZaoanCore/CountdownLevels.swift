/// `countdown_levels`: thresholds beside `soon_threshold` (which keeps its `soon` class),
/// and colours and urgency for them and for live and ended rooms.
///
/// `{"warning": {"minutes": 15, "color": "#ffb000"}, "critical": {"minutes": 2, "color":
/// "#ff3030"}, "live": {"color": "#30c030"}, "ended": {"color": "#808080"}}`: a room
/// starting within 15 minutes has the class `warning` beside its own (`upcoming` or `soon`),
/// within 2 minutes `critical` instead; each level's colour is the block's in i3bar,
/// polybar and tmux. Without the key nothing changes.
///
/// Urgency (i3bar's `urgent`, which i3bar paints in its own colour over the block's): a
/// level's `"urgent"` decides where it is given; where it is not, a level with a colour is
/// not urgent — the user's colour wins — and one without keeps zaoan's default: urgent
/// while `soon` or `critical` and in the first minute live.
public struct CountdownLevels: Equatable, Sendable {
    /// A level that starts some minutes before the start.
    public struct Threshold: Equatable, Sendable {
        public var minutes: Int
        public var color: BarColor?
        /// nil: the default rule above.
        public var urgent: Bool?
        public init(minutes: Int, color: BarColor? = nil, urgent: Bool? = nil) {
            self.minutes = minutes
            self.color = color
            self.urgent = urgent
        }
    }

    /// How a phase (live, ended) is shown.
    public struct Phase: Equatable, Sendable {
        public var color: BarColor?
        public var urgent: Bool?
        public init(color: BarColor? = nil, urgent: Bool? = nil) {
            self.color = color
            self.urgent = urgent
        }
    }

    public var warning: Threshold?
    public var critical: Threshold?
    public var live: Phase
    public var ended: Phase

    public init(warning: Threshold? = nil, critical: Threshold? = nil, live: Phase = Phase(), ended: Phase = Phase()) {
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
    /// Live this long or less is urgent by default.
    public static let urgentLiveSeconds = 60

    /// What a level adds to a room's answer in `phase`.
    public struct Shown: Equatable, Sendable {
        /// Classes beside the state (`warning`, `critical`).
        public var classes: [String] = []
        public var color: BarColor?
        /// Asks the bar for attention.
        public var urgent = false
    }

    /// - Parameters:
    ///   - soon: the room is within `soon_threshold` of its start.
    ///   - otherwise: the colour where the level gives none (an event's calendar's): the
    ///     user's colour too, so it is not painted over by default urgency either.
    public func shown(_ phase: RoomPhase, soon: Bool, otherwise: BarColor? = nil) -> Shown {
        var shown = Shown()
        // zaoan's own urgency, where the user set neither a colour nor "urgent".
        var byDefault = false
        var level: (color: BarColor?, urgent: Bool?) = (nil, nil)
        switch phase {
        case .upcoming(let seconds):
            byDefault = soon
            if let critical, seconds <= critical.minutes * 60 {
                shown.classes = ["critical"]
                level = (critical.color, critical.urgent)
                byDefault = true
            } else if let warning, seconds <= warning.minutes * 60 {
                shown.classes = ["warning"]
                level = (warning.color, warning.urgent)
            }
        case .live(let seconds):
            level = (live.color, live.urgent)
            byDefault = seconds < Self.urgentLiveSeconds
        case .ended:
            level = (ended.color, ended.urgent)
        }
        shown.color = level.color ?? otherwise
        shown.urgent = level.urgent ?? (shown.color == nil && byDefault)
        return shown
    }
}
