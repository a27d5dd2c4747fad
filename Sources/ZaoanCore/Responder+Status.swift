
/// `status`: greeting, time and the next room's countdown in one line, from
/// `status_template` — the app's recommend page merged three feeds into one view.
extension Responder {
    func statusAnswer(now: Instant, place: Place? = nil, formats: CountdownFormatSet? = nil) throws(ProtocolError) -> Answer {
        let place = place ?? Place(name: settings.city, zone: settings.zone)
        let greeting = try greetingAnswer(at: place, now: now)
        let countdown = try countdownAnswer(id: nil, now: now, formats: formats)
        var parts: [String: String] = [
            "greeting": greeting.text,
            "city": place.name,
            "time": try time(pattern: nil, now: now, zone: place.zone),
            "countdown": countdown.text,
        ]
        // The tooltip's template asks for parts too (`tooltip_template`).
        let templates = settings.statusTemplate + (settings.tooltipTemplate ?? "")
        if templates.contains("{ticker}") {
            parts["ticker"] = tickerAnswer(now: now).text
        }
        if ["{location}", "{calendar}", "{join}", "{provider}"].contains(where: { templates.contains($0) }) {
            // The featured event's (the one {countdown} shows); nothing for a room.
            let featured = LiveSchedule.featured(in: rotation(at: now), now: now, defaultDuration: settings.liveDefaultDuration)?.room
            parts["location"] = featured?.location ?? ""
            parts["calendar"] = featured?.calendar ?? ""
            parts["join"] = featured?.join?.url ?? ""
            parts["provider"] = featured?.join?.provider?.name ?? ""
        }
        if templates.contains("{icon}") {
            // The shown room's or event's state (its meeting's service first), else the greeting's.
            let provider = countdown.state == nil ? nil
                : LiveSchedule.featured(in: rotation(at: now), now: now, defaultDuration: settings.liveDefaultDuration)?.room.join?.provider
            parts["icon"] = settings.icons.icon(state: countdown.state ?? greeting.state, provider: provider)
        }
        parts.merge(almanacParts(now: now, template: templates)) { $1 }
        let text = Self.fill(settings.statusTemplate, with: parts)
        // A room's answer has a state; nothing next has none (whatever a `none` template says).
        let hasRoom = countdown.state != nil
        var answer = Answer(text, shortText: Self.fill(settings.statusTemplate, with: parts.merging(["countdown": countdown.shortText ?? ""]) { $1 }),
                            tooltip: hasRoom ? countdown.tooltip : greeting.tooltip,
                            state: hasRoom ? countdown.state : greeting.state, urgent: countdown.urgent)
        if hasRoom {
            answer.levels = countdown.levels
            answer.color = countdown.color
        }
        if let template = settings.tooltipTemplate {
            parts["tooltip"] = answer.tooltip ?? ""
            answer.tooltipMarkup = Self.fillMarkup(template, with: parts, agenda: template.contains("{agenda}") ? agendaMarkup(now: now) : "")
        }
        return answer
    }

    /// Replaces `{name}` placeholders; an empty part leaves no doubled or dangling spaces.
    static func fill(_ template: String, with parts: [String: String]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                rest = rest[open...]  // an unclosed { is text, written once
                break
            }
            let name = String(rest[rest.index(after: open)..<close])
            out += parts[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
