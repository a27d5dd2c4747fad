
/// A room or calendar event changing phase: what `watch events` streams, one JSON line each.
public struct PhaseTransition: Equatable, Sendable {
    public enum Phase: String, Sendable {
        /// `soon_threshold` seconds before the start (the json class `soon`).
        case soon
        case live
        /// `before_end` seconds before the end, while live.
        case ending
        case ended
        /// One of its alarms fires (`alarm` is which: `ReminderID`).
        case alarm
    }

    public let room: LiveRoom
    public let phase: Phase
    /// When it happens, Unix seconds.
    public let at: Int
    /// The alarm's ID, for `.alarm`.
    public var alarm: String? = nil
}

extension Responder {
    /// Every phase change with `after < at <= through`, in time order (then soon, live,
    /// ended; then by start and ID). The rotation for `through` holds every room occurrence
    /// and event that is live or comes within two days, so nothing live is missed.
    public func transitions(after: Int, through: Int) -> [PhaseTransition] {
        guard through > after else { return [] }
        var found: [PhaseTransition] = []
        for room in rotation(at: Instant(secondsSince1970: Double(through))) {
            for (phase, at) in moments(of: room) where at > after && at <= through {
                found.append(PhaseTransition(room: room, phase: phase, at: at))
            }
            found += alarmTransitions(of: room, after: after, through: through)
        }
        return found.sorted { ($0.at, Self.order($0.phase), $0.alarm ?? "") < ($1.at, Self.order($1.phase), $1.alarm ?? "") }
    }

    /// Each occurrence in the rotation at `now` by ID and start: what `newlySoon` compares
    /// with to tell a room or event that has just appeared.
    public func occurrenceKeys(at now: Int) -> Set<String> {
        Set(rotation(at: Instant(secondsSince1970: Double(now))).map(Self.occurrenceKey))
    }

    /// The rooms and events not among `known` that are already soon at `now` (inside
    /// `soon_threshold` before their start): added inside the window (`live add tea +60s`),
    /// or moved into it, they never pass their soon moment, so they are said soon at once.
    public func newlySoon(known: Set<String>, now: Int) -> [PhaseTransition] {
        guard settings.soonThreshold > 0 else { return [] }
        return rotation(at: Instant(secondsSince1970: Double(now))).compactMap { room in
            let start = room.start.unixSeconds
            guard start - settings.soonThreshold < now, now < start, !known.contains(Self.occurrenceKey(room)) else { return nil }
            return PhaseTransition(room: room, phase: .soon, at: now)
        }
    }

    private static func occurrenceKey(_ room: LiveRoom) -> String {
        room.id + "@" + String(room.start.unixSeconds)
    }

    /// The first phase change after `now`, for the stream's timer; nil if none is known.
    public func nextTransition(after now: Int) -> Int? {
        var next: Int?
        for room in rotation(at: Instant(secondsSince1970: Double(now))) {
            for (_, at) in moments(of: room) where at > now {
                next = min(next ?? at, at)
            }
            for alarm in alarmMoments(of: room, reference: now) where alarm.at > now {
                next = min(next ?? alarm.at, alarm.at)
            }
        }
        return next
    }

    /// `{"id","title","phase","at","start","end","source","text"}` and `"calendar"`,
    /// `"location"`, `"description"`, `"join"` and `"provider"` (its meeting's link and
    /// service) when the room or event has one; an alarm's `"alarm"` (its ID) and the words
    /// of its notice's buttons (`"action_join"`, `"action_snooze"`, `"action_dismiss"`,
    /// `AlarmAction`): `at` (the moment), `start` and `end` (the room's or event's, the
    /// end being start + `live_default_duration` when it has none) in ISO 8601 with the zone's
    /// offset; `source` `live` for a room or the calendar file; `text` the moment said in the
    /// configured language (`PhaseNoticeText`). Text made safe, as every answer (the
    /// description keeps its line breaks).
    public func eventLine(_ transition: PhaseTransition) -> String {
        let room = transition.room
        let start = room.start
        let end = Instant(secondsSince1970: Double(endSecond(of: room)))
        let moment = Instant(secondsSince1970: Double(transition.at))
        let text = PhaseNoticeText.render(transition.phase, start: noticeTime(start, saidAt: moment), end: noticeTime(end, saidAt: moment),
                                          calendarEvent: room.source != nil, language: settings.language,
                                          stage: transition.at < start.unixSeconds ? .beforeStart
                                              : transition.at < endSecond(of: room) ? .during : .afterEnd)
        var fields = [("id", room.id), ("title", room.title), ("phase", transition.phase.rawValue),
                      ("at", isoTime(moment)), ("start", isoTime(start)), ("end", isoTime(end)),
                      ("source", room.source ?? SourceName.rooms), ("text", text)].map { ($0.0, SafeText.visible($0.1)) }
        if let calendar = room.calendar, !calendar.isEmpty { fields.append(("calendar", SafeText.visible(calendar))) }
        if let location = room.location, !location.isEmpty { fields.append(("location", SafeText.visible(location))) }
        if let description = room.description, !description.isEmpty { fields.append(("description", SafeText.visibleLines(description))) }
        if let join = room.join {
            fields.append(("join", SafeText.visible(join.url)))
            if let provider = join.provider { fields.append(("provider", provider.name)) }
        }
        if let alarm = transition.alarm {
            fields.insert(("alarm", alarm), at: 3)
            for action in AlarmAction.offered(hasJoinLink: room.join != nil) { fields.append(("action_" + action.rawValue, action.label(settings.language))) }
        }
        return "{" + fields.map { SafeText.jsonString($0.0) + ":" + SafeText.jsonString($0.1) }.joined(separator: ",") + "}"
    }

    /// How far back `watch events since=TIME` replays: TIME read as `ago` reads it, no
    /// later than now and no earlier than `replaySeconds` ago (an older TIME replays that).
    public func replayStart(since text: String, now: Instant) throws(ProtocolError) -> Int {
        let date = try TimeExpression.parse(text, now: now, zone: settings.zone, lean: .past)
        let nowSeconds = now.unixSeconds
        let since = Int(clampingSeconds: date.secondsSince1970.rounded(.down))
        return min(nowSeconds, max(nowSeconds - Self.replaySeconds, since))
    }

    /// The longest replay of `watch events since=`: a day, as far back as the rotation keeps
    /// what has ended.
    public static let replaySeconds = 86_400

    /// The lines of one firing (`EventFiring`): the moments shown in full, then one
    /// `{"phase":"more","of":PHASE,"count":N,"at","text"}` line per phase left over, as one
    /// reply that every subscriber shares.
    public func eventReply(_ firing: EventFiring) -> Reply {
        var lines = firing.shown.map(eventLine)
        let at = isoTime(Instant(secondsSince1970: Double(firing.at)))
        for (phase, count) in firing.more {
            let text = PhaseNoticeText.more(count, phase, language: settings.language)
            lines.append(#"{"phase":"more","of":"# + SafeText.jsonString(phase.rawValue) + #","count":\#(count),"at":"#
                         + SafeText.jsonString(at) + #","text":"# + SafeText.jsonString(text) + "}")
        }
        var bytes: [UInt8] = []
        for line in lines {
            bytes += SafeText.visible(line).utf8  // as every answer line (`Reply.line`)
            bytes.append(0x0A)
        }
        return Reply(bytes: bytes, isError: false)
    }

    /// A start or end as `PhaseNoticeText` says it: `05:42:30` on the day of the moment it
    /// is said at, with the date in front on another day (`12月2日 05:42:30` /
    /// `Dec 2, 05:42:30`, `Language.noticeDayPattern`; `soon_threshold` may be up to a week), in the configured zone.
    func noticeTime(_ date: Instant, saidAt moment: Instant) -> String {
        let zone = settings.zone
        let clock = formatters.string(from: date, ownPattern: "HH:mm:ss", language: .en, zone: zone)
        let day = { (instant: Instant) in self.formatters.string(from: instant, ownPattern: "yyyy-MM-dd", language: .en, zone: zone) }
        guard day(date) != day(moment) else { return clock }
        let pattern = settings.language.noticeDayPattern
        return formatters.string(from: date, ownPattern: pattern, language: settings.language, zone: zone) + " " + clock
    }

    /// The moments a room changes phase: soon (if `soon_threshold` leaves room before the
    /// start), live at the start, ending `before_end` before the end (if set, and after the
    /// start), ended at the end (or start + `live_default_duration`).
    private func moments(of room: LiveRoom) -> [(PhaseTransition.Phase, Int)] {
        let start = room.start.unixSeconds
        let end = endSecond(of: room)
        var moments: [(PhaseTransition.Phase, Int)] = [(.live, start), (.ended, end)]
        if settings.soonThreshold > 0 { moments.insert((.soon, start - settings.soonThreshold), at: 0) }
        if settings.beforeEnd > 0, end - settings.beforeEnd > start { moments.insert((.ending, end - settings.beforeEnd), at: moments.count - 1) }
        return moments
    }

    /// The room's end, or start + `live_default_duration` without one, in Unix seconds.
    func endSecond(of room: LiveRoom) -> Int {
        let start = room.start.unixSeconds
        return room.end.map { $0.unixSeconds }
            ?? start.addingReportingOverflow(settings.liveDefaultDuration).partialValue
    }

    private static func order(_ phase: PhaseTransition.Phase) -> Int {
        switch phase {
        case .alarm: return 0
        case .soon: return 1
        case .live: return 2
        case .ending: return 3
        case .ended: return 4
        }
    }
}
