
/// `countdown_formats` at work: which set a request names, and a template filled in for a
/// room (or for nothing next). The text is escaped later, with the rest of the answer.
extension Responder {
    /// The set `format=NAME` names; an unknown name is `not-found`, saying which there are.
    func countdownFormatSet(named name: String) throws(ProtocolError) -> CountdownFormatSet {
        if let set = settings.countdownFormats[name] { return set }
        let known = settings.countdownFormats.keys.sorted()
        throw ProtocolError(.notFound, "no countdown format '\(name)'; countdown_formats has "
                            + (known.isEmpty ? "none" : known.joined(separator: ", ")))
    }

    /// The set used without `format=NAME`: `countdown_formats`' `default`, if it has one.
    var defaultCountdownFormats: CountdownFormatSet? { settings.countdownFormats[CountdownFormatSet.defaultName] }

    /// A template filled in for `room` in `phase`; spaces left doubled or dangling by an
    /// empty field are removed, as `status_template`'s are.
    func fill(_ template: CountdownTemplate, room: LiveRoom?, phase: RoomPhase?, now: Instant) -> String {
        var out = ""
        for piece in template.pieces {
            switch piece {
            case .text(let text): out += text
            case .field(let field, let pattern):
                guard let room, let phase else { continue }
                out += value(of: field, pattern: pattern, room: room, phase: phase, now: now)
            }
        }
        return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    private func value(of field: CountdownTemplate.Field, pattern: String?, room: LiveRoom, phase: RoomPhase, now: Instant) -> String {
        let language = settings.language
        switch field {
        case .title: return room.title
        case .location: return room.location ?? ""
        case .calendar: return room.calendar ?? ""
        case .start: return formatted(room.start, pattern: pattern)
        case .end: return formatted(end(of: room), pattern: pattern)
        case .in: return CountdownText.render(phase, of: room, language: language)
        case .since:
            if case .live(let seconds) = phase { return CountdownText.clock(seconds, language: language) }
            return ""
        case .until:
            if case .upcoming(let seconds) = phase { return CountdownText.clock(seconds, language: language) }
            return ""
        case .endsIn:
            guard case .live = phase else { return "" }
            // Rounded up as `{until}` is: 0.4 s before the end still says 00:00:01.
            return CountdownText.clock(max(1, Int(clampingSeconds: end(of: room).seconds(since: now).rounded(.up))), language: language)
        case .next:
            guard let (next, nextPhase) = following(room, now: now) else { return "" }
            return CountdownText.titled(next, nextPhase, language: language)
        case .icon:
            return settings.icons.icon(state: state(of: phase), provider: room.join?.provider)
        }
    }

    private func end(of room: LiveRoom) -> Instant {
        room.end ?? room.start.adding(seconds: Double(settings.liveDefaultDuration))
    }

    /// What starts next after `room`: the first of the rotation (by start) still to start
    /// that is not `room` itself nor another occurrence of it.
    private func following(_ room: LiveRoom, now: Instant) -> (LiveRoom, RoomPhase)? {
        for other in rotation(at: now) where other.id != room.id && other.start >= room.start {
            let phase = RoomPhase(room: other, now: now, defaultDuration: settings.liveDefaultDuration)
            if case .upcoming = phase { return (other, phase) }
        }
        return nil
    }

    /// A start or end as `time PATTERN` would say that instant (the same rules and caches).
    private func formatted(_ date: Instant, pattern: String?) -> String {
        // Patterns were checked when the config was read; one that still fails for this
        // instant (a year strftime cannot show) shows nothing rather than the whole countdown failing.
        (try? time(pattern: pattern, now: date)) ?? ""  // see above: checked at load; nothing shown at worst
    }
}
