
/// What `watch events` sends for one firing (the second its moments happen, or on waking,
/// every second missed): at most `EventFiring.linesInFull` moments in full, the ones that
/// matter most, then for each phase left over one line saying how many more.
///
/// A calendar can hold thousands of events that start in the same second; rendering a line
/// for each, and queueing each for every subscriber, cost the loop 0.4 s and a subscriber
/// that did not read 2 GB (issue 29). The count of lines, and so the work and the memory, is
/// now fixed whatever the calendar holds: the lines are rendered once and shared by every
/// subscriber, who gets them with one write.
///
/// Which moments are shown in full: an alarm (the reminder the user asked for) first; then
/// a room (the user's own, from `live add`) before a
/// calendar event; then `soon` before `live` before
/// `ended`; then the earlier moment, start, title and ID. A flood of calendar events can so
/// never push out the user's own reminder. Shown lines keep time order among themselves.
public struct EventFiring: Equatable, Sendable {
    /// Moments sent in full in one firing; the rest are counted. A count of one is never
    /// said: that moment is sent in full instead, so a "more" line always stands for two or
    /// more (and every language's plural is the one for "2 and more").
    public static let linesInFull = 8

    /// The moments sent in full, in time order.
    public let shown: [PhaseTransition]
    /// How many of each phase were left out (alarm, soon, live, ending, ended order), only phases with some.
    public let more: [(phase: PhaseTransition.Phase, count: Int)]
    /// The last moment of the firing, for the "more" lines' `at`.
    public let at: Int

    public init(_ transitions: [PhaseTransition]) {
        at = transitions.map(\.at).max() ?? 0
        guard transitions.count > Self.linesInFull + 1 else {
            shown = transitions
            more = []
            return
        }
        let ranked = transitions.indices.sorted { Self.rank(transitions[$0]) < Self.rank(transitions[$1]) }
        let kept = Set(ranked.prefix(Self.linesInFull))
        shown = transitions.indices.filter(kept.contains).map { transitions[$0] }
        var left: [PhaseTransition.Phase: Int] = [:]
        for index in ranked.dropFirst(Self.linesInFull) { left[transitions[index].phase, default: 0] += 1 }
        more = [PhaseTransition.Phase.alarm, .soon, .live, .ending, .ended].compactMap { phase in left[phase].map { (phase, $0) } }
    }

    /// Whether it fires an alarm (shown or counted).
    public var hasAlarm: Bool { shown.contains { $0.phase == .alarm } || more.contains { $0.phase == .alarm } }

    public static func == (lhs: EventFiring, rhs: EventFiring) -> Bool {
        lhs.shown == rhs.shown && lhs.at == rhs.at
            && lhs.more.map(\.phase) == rhs.more.map(\.phase) && lhs.more.map(\.count) == rhs.more.map(\.count)
    }

    /// Smaller is shown first: an alarm (what the user asked to be told) before anything
    /// else, a room before an event, soon before live before ended, then
    /// the earlier moment, start, title and ID (a total order, so the choice is stable).
    private static func rank(_ moment: PhaseTransition) -> (Int, Int, Int, Double, String, String) {
        let room = moment.room
        let phase: Int
        switch moment.phase {
        case .alarm: phase = 0
        case .soon: phase = 1
        case .live: phase = 2
        case .ending: phase = 3
        case .ended: phase = 4
        }
        let kind = (phase == 0 ? 0 : 2) + (room.source == nil ? 0 : 1)  // alarms first, then rooms before events
        return (kind, phase, moment.at, room.start.secondsSince1970, room.title, room.id + (moment.alarm ?? ""))
    }
}
