import ZaoanRecurrence
import ZaoanTime

/// Live rooms as answers: countdowns, the ticker, listings. The rooms in force and their
/// changes are Responder+Rooms.swift.
extension Responder {
    /// `countdown ID`, or without ID the room live now or starting next, with its title.
    /// No rooms: an empty line, so a bar hides the module.
    func countdown(id: String?, now: Instant) throws(ProtocolError) -> String {
        try countdownAnswer(id: id, now: now).text
    }

    func countdownAnswer(id: String?, now: Instant, formats: CountdownFormatSet? = nil) throws(ProtocolError) -> Answer {
        let duration = settings.liveDefaultDuration
        if let id {
            let room = try roomOrEvent(id, now: now)
            return roomAnswer(room, RoomPhase(room: room, now: now, defaultDuration: duration), titled: false, formats: formats, now: now)
        }
        guard let (room, phase) = LiveSchedule.featured(in: rotation(at: now), now: now, defaultDuration: duration) else {
            return Answer(formats?.none.map { fill($0, room: nil, phase: nil, now: now) } ?? "")
        }
        return roomAnswer(room, phase, titled: true, formats: formats, now: now)
    }

    /// One live or upcoming room per `ticker_period` seconds, chosen by the wall clock.
    func ticker(now: Instant) -> String {
        tickerAnswer(now: now).text
    }

    /// - Parameter others: `ticker others`: leave out the room `countdown` and `status`
    ///   feature, so a bar showing both never shows one room twice.
    func tickerAnswer(now: Instant, skip: Int = 0, formats: CountdownFormatSet? = nil, others: Bool = false) -> Answer {
        guard let shown = tickerRoom(now: now, skip: skip, others: others) else {
            return Answer(formats?.none.map { fill($0, room: nil, phase: nil, now: now) } ?? "")
        }
        var answer = roomAnswer(shown.room, shown.phase, titled: true, formats: formats, now: now)
        answer.shortText = Self.shortText(shown.room, suffix: "\(shown.index + 1)/\(shown.count)")
        return answer
    }

    /// The room or event the ticker shows now, `skip` places further on, and its place;
    /// with `others`, never the featured one (all of its series).
    private func tickerRoom(now: Instant, skip: Int, others: Bool = false) -> (room: LiveRoom, phase: RoomPhase, index: Int, count: Int)? {
        // A recurring room (or calendar series) shows once, at its next occurrence: the first
        // of its ID not over, in the rotation's order. One pass keeping places, not rooms
        // (with 10,000 calendar events copying them into lists took half the loop's time in
        // the soak's unread phase, every `ticker` about 5 ms).
        let rooms = rotation(at: now)
        let duration = settings.liveDefaultDuration
        var seen = Set<String>()
        if others, let featured = LiveSchedule.featured(in: rooms, now: now, defaultDuration: duration) { seen.insert(featured.room.id) }
        var shown: [Int] = []
        for place in rooms.indices {
            guard !RoomPhase(room: rooms[place], now: now, defaultDuration: duration).isOver,
                  seen.insert(rooms[place].id).inserted else { continue }
            shown.append(place)
        }
        guard !shown.isEmpty else { return nil }
        let index = (LiveSchedule.tickerIndex(now: now, period: settings.tickerPeriod, count: shown.count) + skip) % shown.count
        let room = rooms[shown[index]]
        return (room, RoomPhase(room: room, now: now, defaultDuration: duration), index, shown.count)
    }

    /// A room's countdown with its state for bars: `soon` within `soon_threshold` of the
    /// start; `countdown_levels`' class, colour and urgency (CountdownLevels.shown) beside
    /// that; its text from `formats`' template for the phase, if any.
    func roomAnswer(_ room: LiveRoom, _ phase: RoomPhase, titled: Bool, formats: CountdownFormatSet? = nil, now: Instant) -> Answer {
        let bare = CountdownText.render(phase, of: room, language: settings.language)
        let state = state(of: phase)
        // A calendar event's: its calendar after the time, its location, its description's
        // first line (a description may be an invitation's page of text).
        var when = localTime(room.start) + (room.end.map { "–" + localTime($0) } ?? "")
        if let calendar = room.calendar { when += " · " + calendar }
        var tooltip = [room.title.isEmpty ? room.id : room.title, when]
        if let location = room.location { tooltip.append(location) }
        if let provider = room.join?.provider { tooltip.append(provider.name) }
        if let description = room.source == nil ? room.description : room.description.flatMap(Self.firstLine) { tooltip.append(description) }
        if let viewers = room.viewers { tooltip.append(settings.language.viewersText(viewers)) }
        // A level's colour says how near; without one, the event's calendar's colour.
        let level = settings.countdownLevels.shown(phase, soon: state == "soon", otherwise: room.color)
        let text = formats?.template(for: phase).map { fill($0, room: room, phase: phase, now: now) }
            ?? (titled ? CountdownText.titled(room, phase, language: settings.language) : bare)
        var answer = Answer(text, shortText: titled ? Self.shortText(room, suffix: CountdownText.short(phase, kind: CountdownText.Kind(room), language: settings.language)) : bare,
                            tooltip: tooltip.joined(separator: "\n"), state: state, urgent: level.urgent)
        answer.levels = level.classes
        answer.color = level.color
        return answer
    }

    /// A room's state as bars' classes name it: `soon` within `soon_threshold` of the start.
    func state(of phase: RoomPhase) -> String {
        switch phase {
        case .upcoming(let seconds): return seconds <= settings.soonThreshold ? "soon" : "upcoming"
        case .live: return "live"
        case .ended: return "ended"
        }
    }

    /// The widest `short_text` of a room, in columns: what a narrow i3bar shows instead.
    public static let shortTextColumns = 20

    /// `short_text` for a narrow bar: the title first, shortened, then `suffix` — the
    /// countdown's clock (`早茶 -00:05:00`) or the ticker's place (`早茶 1/3`), so the two
    /// blocks stay apart — at most `shortTextColumns` columns.
    static func shortText(_ room: LiveRoom, suffix: String) -> String {
        let name = room.title.isEmpty ? room.id : room.title
        let budget = Self.shortTextColumns - DisplayWidth.columns(suffix) - 1
        return DisplayWidth.prefix(SafeText.visible(name), columns: budget) + " " + suffix
    }

    /// One line per room, by start: ID, start, end, countdown, title — separated by tabs.
    /// Only the countdown changes with the clock: the rest of each room's line is formatted
    /// once per room and kept while the room stays as it is (formatting two dates per room
    /// is most of the cost: about 10 ms for 1,000 rooms, which would otherwise be paid every
    /// second, and again after every change to any room).
    func liveList(now: Instant) -> [String] {
        if listRows == nil {
            var kept: [String: ListRow] = [:]
            listRows = shown(schedule.sorted).map { room in
                let row = rowCache[room.id].flatMap { $0.room == room ? $0 : nil }
                    ?? ListRow(room: room, head: room.id + "\t" + localTime(room.start) + "\t" + (room.end.map(localTime) ?? "-") + "\t",
                               tail: "\t" + room.title.replacing("\t", with: " "))
                kept[room.id] = row
                return row
            }
            rowCache = kept
        }
        return (listRows ?? []).map { row in
            let phase = RoomPhase(room: row.room, now: now, defaultDuration: settings.liveDefaultDuration)
            return row.head + CountdownText.render(phase, of: row.room, language: settings.language) + row.tail
        }
    }

    /// A room by its ID at its live or next occurrence, or a calendar event by its
    /// `calendar:UID` (`countdown ID`, `url`/`join countdown ID`, the notifier's Join).
    func roomOrEvent(_ id: String, now: Instant) throws(ProtocolError) -> LiveRoom {
        if schedule.rooms[id] == nil, id.hasPrefix(Request.calendarEventPrefix) { return try calendarEvent(id, now: now) }
        return nextOccurrence(of: try room(id), now: now)
    }

    func liveShow(id: String, now: Instant) throws(ProtocolError) -> [String] {
        if schedule.rooms[id] == nil, id.hasPrefix(Request.calendarEventPrefix) { return try calendarEventShow(id: id, now: now) }
        let saved = try self.room(id)
        let room = nextOccurrence(of: saved, now: now)
        let phase = RoomPhase(room: room, now: now, defaultDuration: settings.liveDefaultDuration)
        var lines = [
            "id: \(room.id)",
            "title: \(room.title)",
            "start: \(isoTime(room.start))",
            "end: \(room.end.map(isoTime) ?? "-")",
            "state: \(CountdownText.render(phase, of: room, language: settings.language))",
        ]
        if let local = room.startWallClock,
           let note = WallClock.note(local: local, chosen: room.start.unixSeconds, zone: settings.zone) {
            lines.append("note: " + note)
        }
        if let description = room.description { lines.append("description: \(description)") }
        if let viewers = room.viewers { lines.append("viewers: \(viewers)") }
        if let rule = saved.repeatRule {
            // The first start, the rule, and the next few occurrences.
            lines.append("repeat: \(rule) from \(isoTime(saved.start))")
            if rule.hasPrefix("RSCALE=CHINESE") {
                // The day of the Chinese calendar it repeats on, as the first start has it.
                lines.append("lunar: " + ChineseCalendar.text(of: almanac.lunarDate(on: localDay(saved.start)), language: settings.language))
            }
            if let skipped = saved.skippedDays, !skipped.isEmpty { lines.append("skip: " + skipped.joined(separator: ", ")) }
            let upcoming = occurrences(of: saved).filter { $0.start > now }.prefix(RoomRecurrence.shownOccurrences)
            lines.append("next: " + (upcoming.isEmpty ? "-" : upcoming.map { isoTime($0.start) }.joined(separator: ", ")))
        }
        return lines
    }

    /// The room or event `countdown [ID]`, `ticker [SKIP]` or `status` shows now; an
    /// unknown ID is `not-found`, as for `countdown ID`.
    func shownRoom(_ request: Request, now: Instant) throws(ProtocolError) -> LiveRoom? {
        switch request {
        case .text(.countdown, let id?): return try roomOrEvent(id, now: now)
        case .text(.countdown, nil), .plain(.status):
            return LiveSchedule.featured(in: rotation(at: now), now: now, defaultDuration: settings.liveDefaultDuration)?.room
        case .number(.ticker, let skip): return tickerRoom(now: now, skip: skip)?.room
        case .number(.tickerOthers, let skip): return tickerRoom(now: now, skip: skip, others: true)?.room
        case .countdownFormat(_, let inner): return try shownRoom(inner, now: now)
        default: return nil
        }
    }

    /// A recurring room's occurrence that is live now or comes next (the room itself when
    /// it does not recur, or has no occurrence left in the window).
    func nextOccurrence(of room: LiveRoom, now: Instant) -> LiveRoom {
        guard room.repeatRule != nil else { return room }
        return rotation(at: now).first {
            $0.id == room.id && !RoomPhase(room: $0, now: now, defaultDuration: settings.liveDefaultDuration).isOver
        } ?? room
    }

    func localTime(_ date: Instant) -> String {
        formatters.string(from: date, ownPattern: "yyyy-MM-dd HH:mm", language: .en, zone: settings.zone)
    }

    /// `2026-12-01T20:00:00+08:00` in the configured zone, from the system's tz database
    /// (`ISOTime`), as the LDML pattern `yyyy-MM-dd'T'HH:mm:ssxxx` writes it; through that
    /// pattern outside years 1000–9999 and for offsets of odd seconds. IsoTimeTests compares
    /// the two over instants, zones and their changes.
    func isoTime(_ date: Instant) -> String {
        isoTime(date, in: settings.zone.info())
    }

    /// The same with the zone's rules looked up once for many times (`schedule`).
    func isoTime(_ date: Instant, in zone: ZoneInfo) -> String {
        let seconds = date.secondsSince1970
        if seconds.isFinite {
            let whole = Int(clampingSeconds: seconds.rounded(.down))
            if let text = ISOTime.text(unixSeconds: whole, utcOffset: zone.localTimeType(at: whole).utcOffset) { return text }
        }
        return formatters.string(from: date, ownPattern: "yyyy-MM-dd'T'HH:mm:ssxxx", language: .en, zone: settings.zone)
    }
}
