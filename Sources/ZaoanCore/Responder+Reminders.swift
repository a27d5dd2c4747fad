import ZaoanRecurrence

/// Alarms: when each fires (`watch events` `"phase":"alarm"`), `remind list`, and the
/// changes `remind snooze` and `remind dismiss` make to the saved `Reminders`.
///
/// An alarm fires for every occurrence of its room or event, at its trigger and each
/// repeat; a dismissed alarm no more; a snoozed one at the snooze's end and at its repeats
/// after that. An alarm is never sent late for an event that has ended (after a suspend, in
/// a replay), and a firing that several seconds cover at once (waking) is sent once.
extension Responder {
    /// The firings of `room`'s alarms, each with its alarm's ID, in no particular order.
    /// With `nag` on, an alarm that fired is fired again every `nagSeconds` until it is
    /// snoozed or dismissed or its event ends; of those, only the two around `reference`
    /// (the last at or before it, the first after it) are given, so an alarm costs the same
    /// however long it nags.
    func alarmMoments(of room: LiveRoom, reference: Int) -> [(id: String, at: Int)] {
        guard !room.alarms.isEmpty else { return [] }
        let start = room.start.unixSeconds
        let end = endSecond(of: room)
        var found: [(id: String, at: Int)] = []
        for (index, alarm) in room.alarms.enumerated() {
            let id = ReminderID.of(room, start: start, index: index)
            var times = alarm.firings(start: Int64(start), end: Int64(end)).map { Int($0) }
            if let choice = schedule.reminders.entries[id]?.choice {
                switch choice {
                case .dismissed: continue
                case .snoozed(let until): times = times.filter { $0 > until } + [until]
                }
            }
            if let missed = missedAlarms, end > missed.start, times.contains(where: { $0 > missed.after && $0 <= missed.start }) {
                times.append(missed.start + 1)
            }
            if settings.nag { times += Self.nagMoments(after: times, end: end, reference: reference) }
            for at in Set(times) { found.append((id, at)) }
        }
        return found
    }

    /// `nag`'s repeat, a minute as calendar apps' "remind me again" offers it.
    static let nagSeconds = 60

    /// The nag firings around `reference` after the last of `firings` at or before it: the
    /// last at or before `reference` and the first after it, before `end`.
    static func nagMoments(after firings: [Int], end: Int, reference: Int) -> [Int] {
        guard let base = firings.filter({ $0 <= reference }).max() else { return [] }
        let steps = (reference - base) / nagSeconds  // whole steps since the last firing
        return [base + steps * nagSeconds, base + (steps + 1) * nagSeconds].filter { $0 > base && $0 < end }
    }

    /// The alarms of `room` due after `after` and up to `through`, one per alarm (its
    /// latest firing in that span); none for an event that ended before `through` unless
    /// due that very second.
    func alarmTransitions(of room: LiveRoom, after: Int, through: Int) -> [PhaseTransition] {
        let end = endSecond(of: room)
        var latest: [String: Int] = [:]
        for (id, at) in alarmMoments(of: room, reference: through) where at > after && at <= through {
            if at < through && end <= through { continue }
            latest[id] = max(latest[id] ?? at, at)
        }
        return latest.sorted { $0.key < $1.key }.map { PhaseTransition(room: room, phase: .alarm, at: $0.value, alarm: $0.key) }
    }

    /// At start, with the state file read: alarms due since the last one sent are fired once,
    /// a second from now (`missedAlarms`).
    public func noteStart(now: Int) {
        guard let sent = schedule.reminders.sentThrough, sent < now else { return }
        missedAlarms = (sent, now)
    }

    /// `remind list`: each alarm still to fire (a pending repeat, a snooze) of a room or
    /// event that has not ended, by when: `ID<TAB>WHEN<TAB>EVENT<TAB>TITLE`, WHEN in ISO 8601
    /// with the zone's offset, EVENT the ID `live show` takes.
    func remindList(now: Instant) -> [String] {
        let second = now.unixSeconds
        let zone = settings.zone.info()
        var pending: [(at: Int, id: String, room: LiveRoom)] = []
        for room in rotation(at: now) where !room.alarms.isEmpty && endSecond(of: room) > second {
            var next: [String: Int] = [:]
            for (id, at) in alarmMoments(of: room, reference: second) where at > second { next[id] = min(next[id] ?? at, at) }
            pending += next.map { (at: $0.value, id: $0.key, room: room) }
        }
        pending.sort { ($0.at, $0.id) < ($1.at, $1.id) }
        var lines = pending.prefix(Self.scheduleLines).map { alarm in
            [alarm.id, isoTime(Instant(secondsSince1970: Double(alarm.at)), in: zone), alarm.room.id,
             Self.withoutTabs(alarm.room.title.isEmpty ? alarm.room.id : alarm.room.title)].joined(separator: "\t")
        }
        if pending.count > Self.scheduleLines { lines.append("… and \(pending.count - Self.scheduleLines) more") }
        return lines
    }

    /// `remind snooze ID DURATION|start` and `remind dismiss ID`, applied to `next`.
    func changeReminder(_ request: Request, in next: inout LiveSchedule, now: Instant) throws(ProtocolError) {
        let second = now.unixSeconds
        switch request {
        case .pair(.remindSnooze, let id, let text):
            let alarm = try alarmOfOpenEvent(id, now: now)
            let until: Int
            if text.lowercased() == "start" {
                guard alarm.start > second else {
                    throw ProtocolError(.badArgument, "the event started at \(isoTime(Instant(secondsSince1970: Double(alarm.start)))); snooze for a time instead (5m)")
                }
                until = alarm.start
            } else {
                guard let seconds = Alarm.seconds(ofDuration: text), seconds <= Self.longestSnooze else {
                    throw ProtocolError(.badArgument, "snooze '\(RequestParser.shorten(text))': write 30s, 5m, 1h (at most 1d) or start")
                }
                until = second + Int(seconds)
            }
            guard until < alarm.end else {
                throw ProtocolError(.badArgument, "the event ends at \(isoTime(Instant(secondsSince1970: Double(alarm.end)))), before the snooze would; snooze for less, or remind dismiss \(id)")
            }
            try next.reminders.choose(.snoozed(until: until), for: id, eventEnd: alarm.end, now: second)
        case .text(.remindDismiss, let id?):
            let alarm = try alarmOfOpenEvent(id, now: now)
            try next.reminders.choose(.dismissed, for: id, eventEnd: alarm.end, now: second)
        default:
            throw ProtocolError(.badArgument, "not a change to the reminders")
        }
    }

    /// The longest `remind snooze`: a day.
    static let longestSnooze: Int64 = 86_400

    /// The occurrence alarm `id` belongs to, if its event has not ended.
    private func alarmOfOpenEvent(_ id: String, now: Instant) throws(ProtocolError) -> (start: Int, end: Int) {
        let second = now.unixSeconds
        for room in rotation(at: now) where !room.alarms.isEmpty {
            let start = room.start.unixSeconds
            let end = endSecond(of: room)
            guard end > second else { continue }
            if room.alarms.indices.contains(where: { ReminderID.of(room, start: start, index: $0) == id }) { return (start, end) }
        }
        throw ProtocolError(.notFound, "no alarm '\(id)' of a room or event that has not ended; see remind list")
    }
}
