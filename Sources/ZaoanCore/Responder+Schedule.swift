import ZaoanRecurrence
import ZaoanTime

/// What is ahead, rooms and calendar events together (`schedule`), and a calendar event on
/// its own (`live show calendar:UID`), with the event's calendar, location and description.
extension Responder {
    /// The calendar event with ID `id` (`calendar:UID`) live now or next in the window, else
    /// its last there.
    func calendarEvent(_ id: String, now: Instant) throws(ProtocolError) -> LiveRoom {
        let duration = settings.liveDefaultDuration
        let matching = rotation(at: now).filter { $0.id == id && $0.source != nil }
        guard let event = matching.first(where: { !RoomPhase(room: $0, now: now, defaultDuration: duration).isOver }) ?? matching.last else {
            throw ProtocolError(.notFound, "no calendar event '\(RequestParser.shorten(id))' in the window; watch events gives the events' IDs")
        }
        return event
    }

    /// `live show calendar:UID`: the calendar event with that ID (as `watch events` gives
    /// it) that is live now or comes next in the window, with its calendar, file, location,
    /// description's first line, URL, and the link to join its meeting with the service's name.
    func calendarEventShow(id: String, now: Instant) throws(ProtocolError) -> [String] {
        let duration = settings.liveDefaultDuration
        let event = try calendarEvent(id, now: now)
        let phase = RoomPhase(room: event, now: now, defaultDuration: duration)
        var lines = [
            "id: \(event.id)",
            "title: \(event.title)",
            "start: \(isoTime(event.start))",
            "end: \(event.end.map(isoTime) ?? "-")",
            "state: \(CountdownText.render(phase, of: event, language: settings.language))",
        ]
        if let calendar = event.calendar { lines.append("calendar: \(calendar)") }
        if let source = event.source { lines.append("source: \(source)") }
        if let location = event.location { lines.append("location: \(location)") }
        if let description = event.description.flatMap(Self.firstLine) { lines.append("description: \(description)") }
        if let url = event.url { lines.append("url: \(url)") }
        if let join = event.join {
            lines.append("join: \(join.url)")
            if let provider = join.provider { lines.append("provider: \(provider.name)") }
        }
        return lines
    }

    /// The first line of a calendar event's description that holds anything, bounded as a
    /// title is: what a tooltip or `live show` has room for.
    static func firstLine(_ description: String) -> String? {
        var rest = Substring(description)
        while !rest.isEmpty {
            let end = rest.unicodeScalars.firstIndex { $0 == "\n" || $0 == "\r" } ?? rest.endIndex
            if let line = CalendarText.oneLine(String(rest[..<end])) { return line }
            rest = end < rest.endIndex ? rest[rest.unicodeScalars.index(after: end)...] : ""
        }
        return nil
    }

    /// `schedule HOURS [calendar=NAME] [search=WORDS]`: every room occurrence and calendar
    /// event live now or starting within HOURS, by start: `START<TAB>END<TAB>SOURCE<TAB>TITLE`,
    /// times in the configured zone (END `-` when a room has none), SOURCE `live` for a room, else the
    /// event's calendar's name (never `live` or `festival`: `CalendarName.unreserved`).
    /// Rooms are expanded 48 hours ahead and events `calendar_window_hours`: HOURS beyond
    /// that lists what is known. With NAME, the events of the calendars of that name (in any
    /// case) alone; a name no configured calendar has is `not-found`, once the calendars have
    /// been read (before, nothing is listed). A source name of zaoan's own (`live`,
    /// `festival`, `holiday-cn`, in any case) lists that source alone: the rooms, the
    /// festivals, China's holidays.
    /// With WORDS, those whose title, location or description hold every word
    /// (`ScheduleSearch`), looked for after the cheaper checks.
    /// At most `scheduleLines` lines; past them one last line, without tabs, says how many
    /// more and how to ask for fewer.
    func schedule(hours: Int, calendar wanted: String? = nil, search: [String] = [], now: Instant) throws(ProtocolError) -> [String] {
        // `calendar=live`, `festival` or `holiday-cn`: zaoan's own source of that name.
        let ownSource = wanted.flatMap(CalendarNameRule.reserved)
        if let wanted, ownSource == nil { try checkCalendar(wanted) }
        let searched = ScheduleSearch(search)
        let horizon = now.adding(seconds: Double(hours) * 3600)
        let zone = settings.zone.info()
        // One pass over the rotation (in start order), without copying its rooms into
        // intermediate lists: only the lines shown are written, the rest counted
        // (10,000 events: 10 ms of CPU a request with the copies, most of it moving rooms).
        let duration = settings.liveDefaultDuration
        var lines: [String] = []
        var more = 0
        let holidays = holidayEvents(from: now, to: horizon)
        for room in holidays.isEmpty ? rotation(at: now) : Self.merging(rotation(at: now), holidays) where room.start < horizon {
            if let ownSource {
                if room.calendar != nil || (room.source ?? SourceName.rooms) != ownSource { continue }
            } else if let wanted, !(room.calendar.map { CalendarNameRule.matches($0, wanted) } ?? false) { continue }
            if RoomPhase(room: room, now: now, defaultDuration: duration).isOver { continue }
            if let searched, !searched.matches(room) { continue }
            guard lines.count < Self.scheduleLines else {
                more += 1
                continue
            }
            let title = room.title.isEmpty ? room.id : room.title
            let source = room.calendar ?? room.source ?? SourceName.rooms
            lines.append([isoTime(room.start, in: zone), room.end.map { isoTime($0, in: zone) } ?? "-", Self.withoutTabs(source),
                          Self.withoutTabs(title)].joined(separator: "\t"))
        }
        if more > 0 {
            lines.append("… and \(more) more within \(hours) hours; ask for fewer hours or one calendar (schedule HOURS calendar=NAME)")
        }
        return lines
    }

    /// The most lines a `schedule` answer lists: what any person or bar reads, and what keeps
    /// one answer's rendering to a few milliseconds of the loop (10,000 lines took 23 ms).
    static let scheduleLines = 2_000

    /// A field of a tab-separated line: a tab in it becomes a space (most have none, and are
    /// returned as they are).
    static func withoutTabs(_ text: String) -> String {
        guard text.utf8.contains(9) else { return text }
        return String(decoding: text.utf8.map { $0 == 9 ? 32 : $0 }, as: UTF8.self)
    }

    /// Refuses a calendar name none of the configured calendars has, naming those there are.
    func checkCalendar(_ wanted: String) throws(ProtocolError) {
        let shown = RequestParser.shorten(wanted)
        guard !settings.calendars.isEmpty else {
            throw ProtocolError(.notFound, "no calendar '\(shown)': the config names no calendars (see \"calendars\" in zaoan.conf(5))")
        }
        guard let names = calendarNames, !names.contains(where: { CalendarNameRule.matches($0, wanted) }) else { return }
        var listed: [String] = []
        for name in names where !listed.contains(name) { listed.append(name) }
        let shownNames = listed.prefix(8).map(RequestParser.shorten).joined(separator: ", ") + (listed.count > 8 ? ", …" : "")
        throw ProtocolError(.notFound, "no calendar '\(shown)'; the calendars are: \(shownNames)")
    }
}
