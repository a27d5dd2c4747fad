import ZaoanRecurrence
import ZaoanTime

/// The rooms in force: the changes `live add` / `live rm` propose and `commit` applies,
/// recurring rooms' expansions, calendar events beside them, and the rotation every answer
/// reads (masked while privacy is on).
extension Responder {
    /// `base` (by default the schedule in force) as it would be after `live add` or `live rm`.
    /// Nothing changes here until the server has saved it and calls `commit`; a group commit
    /// applies several changes in turn, each to the result of the one before.
    public func proposedChange(_ request: Request, to base: LiveSchedule? = nil, now: Instant) throws(ProtocolError) -> LiveSchedule {
        var next = base ?? schedule
        switch request {
        case .room(.liveAdd, let draft):
            let room = try resolvedRoom(draft, now: now)
            if next.rooms[room.id] == nil && next.count >= settings.maxRooms {
                // Full: rooms that have ended make way before a new one is refused.
                next.removeEnded(now: now, defaultDuration: settings.liveDefaultDuration)
            }
            try next.upsert(room, limit: settings.maxRooms)
        case .pair(.liveSkip, let id, let date):
            guard var room = next.rooms[id] else { throw ProtocolError(.notFound, "no live room '\(id)'; see live list") }
            guard room.repeatRule != nil else {
                throw ProtocolError(.badArgument, "room '\(id)' does not repeat; live rm it instead")
            }
            guard RoomRecurrence.day(date) != nil else {
                throw ProtocolError(.badArgument, "\(date) is not a day of the calendar")
            }
            var days = Set(room.skippedDays ?? [])
            days.insert(date)
            guard days.count <= RoomLimits.maxSkippedDays else {
                throw ProtocolError(.full, "room '\(id)' already skips \(RoomLimits.maxSkippedDays) days; live add it again to start afresh")
            }
            room.skippedDays = days.sorted()
            try next.upsert(room, limit: settings.maxRooms)
        case .pair(.remindSnooze, _, _), .text(.remindDismiss, _):
            try changeReminder(request, in: &next, now: now)
        case .text(.privacy, let word?):
            next.privacy = word == "on"
        case .text(.liveRemove, let id?):
            guard next.remove(id: id) else {
                throw ProtocolError(.notFound, "no live room '\(id)'; see live list")
            }
        default:
            throw ProtocolError(.badArgument, "not a change to the live rooms")
        }
        return next
    }

    /// `live add`'s (and `event add`'s) words made a room: START and END resolved against
    /// `now` in the configured zone, the rule and the alarms read and checked.
    func resolvedRoom(_ draft: LiveRoomDraft, now: Instant) throws(ProtocolError) -> LiveRoom {
        let zone = settings.zone
        let resolved = try TimeExpression.resolve(draft.start, now: now, zone: zone, lean: .future, within: AcceptedTimes.room)
        let start = resolved.date
        var end: Instant?
        if let text = draft.end {
            // A relative or time-of-day END counts from START: end=+90m lasts 90 minutes.
            let resolved = try TimeExpression.parse(text, now: start, zone: zone, lean: .future, within: AcceptedTimes.room)
            guard resolved > start else {
                throw ProtocolError(.badArgument, "end=\(RequestParser.shorten(text)) is not after the start \(isoTime(start))")
            }
            end = resolved
        }
        let rule = try draft.repeatRule.map { (text) throws(ProtocolError) in try RoomRecurrence.canonical(text) }
        var room = LiveRoom(id: draft.id, title: draft.title, start: start, end: end,
                            description: draft.description, viewers: draft.viewers, startWallClock: resolved.ambiguousWallClock,
                            repeatRule: rule)
        room.location = draft.location
        room.alarms = try (draft.alarms ?? []).map { (text) throws(ProtocolError) in
            do throws(Alarm.Problem) { return try Alarm(offset: text) } catch {
                throw ProtocolError(.badArgument, "alarm=\(RequestParser.shorten(text)): \(error.description)")
            }
        }
        if rule != nil { try RoomRecurrence.check(room, zone: zone, defaultDuration: settings.liveDefaultDuration) }
        return room
    }

    /// Puts a saved schedule in force, with the expansions of its recurring rooms that
    /// were made for it.
    public func commit(_ schedule: LiveSchedule, expansions: [String: RoomExpansion] = [:]) {
        self.schedule = schedule  // and with it the rotation
        take(expansions)
        forgetRendered()
    }

    /// New expansions of recurring rooms (the hour moved on, or the zone changed).
    public func replaceRoomExpansions(_ expansions: [String: RoomExpansion]) {
        take(expansions)
        rotationBuiltAt = nil
        forgetRendered()
    }

    /// Keeps the expansions that fit their room as it is now (one that started before a
    /// change to its room arrives after it, and must not replace the newer one), and drops
    /// those of rooms gone or no longer recurring.
    private func take(_ expansions: [String: RoomExpansion]) {
        for (id, expansion) in expansions {
            guard let room = schedule.rooms[id], expansion.series == .init(room, zone: settings.zone.identifier) else { continue }
            roomExpansions[id] = expansion
        }
        roomExpansions = roomExpansions.filter { schedule.rooms[$0.key]?.repeatRule != nil }
    }

    /// Recurring rooms the reader could not expand: shown at their first start only, and
    /// not asked for again until they change.
    public func keepFirstStarts(of ids: Set<String>) {
        for id in ids {
            guard let room = schedule.rooms[id], room.repeatRule != nil else { continue }
            let start = Int64(room.start.unixSeconds)
            let end = room.end.map { Int64($0.unixSeconds) } ?? start
            roomExpansions[id] = RoomExpansion(series: .init(room, zone: settings.zone.identifier), spans: [OccurrenceSpan(start: start, end: end)])
        }
        rotationBuiltAt = nil
        forgetRendered()
    }

    /// The recurring rooms of `schedule` (by default the one in force) that have no
    /// expansion fitting their series in the configured zone.
    public func roomsToExpand(in schedule: LiveSchedule? = nil) -> [LiveRoom] {
        (schedule ?? self.schedule).sorted.filter { $0.repeatRule != nil && expansion(of: $0) == nil }
    }

    /// Every recurring room of the schedule in force.
    public var recurringRooms: [LiveRoom] { schedule.sorted.filter { $0.repeatRule != nil } }

    private func expansion(of room: LiveRoom) -> RoomExpansion? {
        guard let expansion = roomExpansions[room.id], expansion.series == .init(room, zone: settings.zone.identifier) else { return nil }
        return expansion
    }

    /// A recurring room's occurrences ahead (up to `until`); its first start alone while
    /// none is known.
    func occurrences(of room: LiveRoom, until horizon: Instant = .distantFuture) -> [LiveRoom] {
        expansion(of: room).map { $0.rooms(of: room).filter { $0.start <= horizon } } ?? [room]
    }

    /// New calendar events (the files changed, or the window moved on).
    /// - Parameter names: every configured calendar's name, when the reading says them.
    public func replaceCalendarEvents(_ events: [LiveRoom], calendars names: [String]? = nil) {
        if let names { calendarNames = names }
        calendarEvents = events.sorted(by: LiveSchedule.inOrder)
        rotationBuiltAt = nil
        forgetRendered()
    }

    /// The rotation for `now`, built again when the rooms or events changed, when an hour
    /// has passed (recurring rooms move on), or when the clock went back.
    func rotation(at now: Instant) -> [LiveRoom] {
        let instant = Int64(now.unixSeconds)
        if let built = rotationBuiltAt, instant >= built, instant - built < RoomRecurrence.refreshSeconds { return rotation }
        rebuildRotation(now: instant)
        return rotation
    }

    /// Merges the rooms (recurring ones expanded) and the events, both in order.
    private func rebuildRotation(now: Int64) {
        rotationBuiltAt = now
        var expanded = schedule.sorted
        if expanded.contains(where: { $0.repeatRule != nil }) {
            let horizon = Instant(secondsSince1970: Double(now + RoomRecurrence.windowSeconds))
            expanded = expanded.flatMap { room in
                room.repeatRule == nil ? [room] : occurrences(of: room, until: horizon)
            }.sorted(by: LiveSchedule.inOrder)
        }
        var events = calendarEvents
        if settings.festivals {
            events = Self.merging(events, festivalEvents(now: Instant(secondsSince1970: Double(now))))
        }
        rotation = shown(Self.merging(expanded, events))
    }

    /// Rooms as answers show them: masked while `privacy on` (`PrivacyMask`).
    func shown(_ rooms: [LiveRoom]) -> [LiveRoom] {
        guard schedule.privacy else { return rooms }
        return rooms.map { PrivacyMask.masked($0, language: settings.language) }
    }

    /// Two lists in order (`LiveSchedule.inOrder`) as one.
    static func merging(_ first: [LiveRoom], _ second: [LiveRoom]) -> [LiveRoom] {
        guard !second.isEmpty else { return first }
        guard !first.isEmpty else { return second }
        var merged: [LiveRoom] = []
        merged.reserveCapacity(first.count + second.count)
        var rooms = first[...], events = second[...]
        while let room = rooms.first, let event = events.first {
            if LiveSchedule.inOrder(event, room) {
                merged.append(event)
                events = events.dropFirst()
            } else {
                merged.append(room)
                rooms = rooms.dropFirst()
            }
        }
        return merged + rooms + events
    }

    func room(_ id: String) throws(ProtocolError) -> LiveRoom {
        guard let room = schedule.rooms[id] else {
            throw ProtocolError(.notFound, "no live room '\(RequestParser.shorten(id))'; see live list")
        }
        return schedule.privacy ? PrivacyMask.masked(room, language: settings.language) : room
    }
}
