import Foundation

/// A room or calendar event changing phase: what `watch events` streams, one JSON line each.
public struct PhaseTransition: Equatable, Sendable {
    public enum Phase: String, Sendable {
        /// `soon_threshold` seconds before the start (the json class `soon`).
        case soon
        case live
        case ended
    }

    public let room: LiveRoom
    public let phase: Phase
    /// When it happens, Unix seconds.
    public let at: Int
}

extension Responder {
    /// Every phase change with `after < at <= through`, in time order (then soon, live,
    /// ended; then by start and ID). The rotation for `through` holds every room occurrence
    /// and event that is live or comes within two days, so nothing live is missed.
    public func transitions(after: Int, through: Int) -> [PhaseTransition] {
        guard through > after else { return [] }
        var found: [PhaseTransition] = []
        for room in rotation(at: Date(timeIntervalSince1970: Double(through))) {
            for (phase, at) in moments(of: room) where at > after && at <= through {
                found.append(PhaseTransition(room: room, phase: phase, at: at))
            }
        }
        return found.sorted { ($0.at, Self.order($0.phase)) < ($1.at, Self.order($1.phase)) }
    }

    /// The first phase change after `now`, for the stream's timer; nil if none is known.
    public func nextTransition(after now: Int) -> Int? {
        var next: Int?
        for room in rotation(at: Date(timeIntervalSince1970: Double(now))) {
            for (_, at) in moments(of: room) where at > now {
                next = min(next ?? at, at)
            }
        }
        return next
    }

    /// `{"id","title","phase","at","source"}`: `at` in ISO 8601 with the zone's offset,
    /// `source` `live` for a room or the calendar file. Text made safe, as every answer.
    public func eventLine(_ transition: PhaseTransition) -> String {
        let room = transition.room
        let fields = [("id", room.id), ("title", room.title), ("phase", transition.phase.rawValue),
                      ("at", isoTime(Date(timeIntervalSince1970: Double(transition.at)))), ("source", room.source ?? "live")]
        return "{" + fields.map { SafeText.jsonString($0.0) + ":" + SafeText.jsonString(SafeText.visible($0.1)) }
            .joined(separator: ",") + "}"
    }

    /// The moments a room changes phase: soon (if `soon_threshold` leaves room before the
    /// start), live at the start, ended at the end (or start + `live_default_duration`).
    private func moments(of room: LiveRoom) -> [(PhaseTransition.Phase, Int)] {
        let start = Int(clampingSeconds: room.start.timeIntervalSince1970)
        let end = room.end.map { Int(clampingSeconds: $0.timeIntervalSince1970) }
            ?? start.addingReportingOverflow(settings.liveDefaultDuration).partialValue
        var moments: [(PhaseTransition.Phase, Int)] = [(.live, start), (.ended, end)]
        if settings.soonThreshold > 0 { moments.insert((.soon, start - settings.soonThreshold), at: 0) }
        return moments
    }

    private static func order(_ phase: PhaseTransition.Phase) -> Int {
        switch phase {
        case .soon: return 0
        case .live: return 1
        case .ended: return 2
        }
    }
}
