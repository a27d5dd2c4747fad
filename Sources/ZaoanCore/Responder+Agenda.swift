import ZaoanTime

/// Today's agenda, as gcalcli's `agenda` lists a day: what is still live or to come before
/// midnight in the configured zone, rooms and calendar events together, a line each with
/// its times, title and calendar. It is `{agenda}` in `tooltip_template`, for waybar's
/// tooltip (i3bar has none).
extension Responder {
    /// The most lines an agenda shows; past them one more line says how many were left out.
    public static let agendaLines = 10
    /// The widest title in an agenda line, in columns (a longer one ends in `…`).
    public static let agendaTitleColumns = 48

    /// One line of the agenda.
    struct AgendaItem: Equatable {
        /// `09:00–10:00` in `time_format` (`09:00` for a room without an end); nil for what
        /// lasts the whole day (an all-day event, a festival).
        var time: String?
        var title: String
        /// A calendar event's calendar's name; nil for a room or a festival.
        var calendar: String?
        /// Its calendar's `color`, if the config gives one.
        var color: BarColor?

        /// `09:00–10:00 Standup · Work`.
        var text: String {
            [time, title].compactMap { $0 }.joined(separator: " ") + (calendar.map { " · " + $0 } ?? "")
        }
    }

    /// What is live now or starts before the next midnight (the configured zone), by start:
    /// at most `agendaLines` items, and how many more there are.
    func agenda(now: Instant) -> (items: [AgendaItem], more: Int) {
        let today = localDay(now)
        let dayStart = Double(WallClock.resolve(today.daysSince1970 &* 86_400, in: settings.zone).first)
        let dayEnd = Double(WallClock.resolve(today.adding(days: 1).daysSince1970 &* 86_400, in: settings.zone).first)
        let duration = settings.liveDefaultDuration
        var items: [AgendaItem] = []
        var more = 0
        // The rotation is in start order: the first that starts after midnight ends the day.
        for room in rotation(at: now) {
            let begins = room.start.secondsSince1970
            guard begins < dayEnd else { break }
            if RoomPhase(room: room, now: now, defaultDuration: duration).isOver { continue }
            guard items.count < Self.agendaLines else {
                more += 1
                continue
            }
            let ends = room.end?.secondsSince1970
            let time: String?
            if begins <= dayStart, let ends, ends >= dayEnd {
                time = nil  // the whole day
            } else {
                time = localClock(room.start) + (room.end.map { "–" + localClock($0) } ?? "")
            }
            let title = room.title.isEmpty ? room.id : room.title
            items.append(AgendaItem(time: time, title: DisplayWidth.prefix(SafeText.visible(title), columns: Self.agendaTitleColumns),
                                    calendar: room.calendar, color: room.color))
        }
        return (items, more)
    }

    /// The agenda as Pango markup: a line an item, every text escaped, in its calendar's
    /// colour if it has one, and `… +N` past
    /// `agendaLines`; empty when nothing is left today.
    func agendaMarkup(now: Instant) -> String {
        let (items, more) = agenda(now: now)
        var lines = items.map { item in
            let text = SafeText.pango(SafeText.visible(item.text))
            return item.color.map { "<span foreground=\"\($0.hex)\">" + text + "</span>" } ?? text
        }
        if more > 0 { lines.append("… +\(more)") }
        return lines.joined(separator: "\n")
    }

    /// An instant in `time_format`, as `{time}` says it (a pattern that cannot say this
    /// instant says nothing rather than failing the tooltip).
    private func localClock(_ date: Instant) -> String {
        (try? time(pattern: nil, now: date)) ?? ""  // checked at load; nothing shown at worst
    }

    /// Fills `tooltip_template` into Pango markup: its own text and every part escaped,
    /// `agenda` (already markup) as it is. On each line runs of spaces are squeezed, as in
    /// `status_template`; empty lines at either end are dropped, so an empty `{agenda}`
    /// leaves no blank tail.
    static func fillMarkup(_ template: String, with parts: [String: String], agenda: String) -> String {
        func escaped(_ text: some StringProtocol) -> String { SafeText.pango(SafeText.visibleLines(String(text))) }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += escaped(rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else {
                rest = rest[open...]  // an unclosed { is text, written once
                break
            }
            let name = String(rest[rest.index(after: open)..<close])
            if name == "agenda" {
                out += agenda
            } else {
                out += escaped(parts[name] ?? String(rest[open...close]))
            }
            rest = rest[rest.index(after: close)...]
        }
        out += escaped(rest)
        var lines = out.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
