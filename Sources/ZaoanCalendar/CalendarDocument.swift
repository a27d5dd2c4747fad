import ZaoanRecurrence
import CICal

/// The events of one iCalendar text (a `.ics` file: one or more VCALENDARs, any number of
/// VEVENTs), read through libical into Swift values.
///
/// ```swift
/// let document = try CalendarDocument(parsing: bytes, source: "/home/me/.calendars/work.ics")
/// let today = document.occurrences(in: try .following(now), defaultZone: try CalendarZone(named: "Europe/Berlin"))
/// ```
public struct CalendarDocument {
    public let source: String
    /// VEVENTs, overrides (RECURRENCE-ID) included, in file order.
    public let events: [CalendarEvent]
    /// What reading could not take as written: components left out for a broken structure
    /// and events left out, each with why (a bad DTSTART, a rule libical refused, more than
    /// `CalendarLimits.eventsPerSource`), and, once for the file, events kept but read in a
    /// way of their own (TZIDs that name no zone, read as floating; empty values).
    public let skipped: [CalendarProblem]

    /// Reads `bytes` (at most `CalendarLimits.bytesPerFile`).
    /// - Throws: `CalendarReadError` naming `source`, the line and what is wrong, for a
    ///   file that is not iCalendar at all: no VCALENDAR, a NUL byte, a content line or
    ///   nesting over the limits, a broken BEGIN/END structure out of which no VEVENT could
    ///   be read (`CalendarParser`). A single unreadable event, or a broken component among
    ///   others, does not make the file fail: it lands in `skipped`, with its line.
    public init(parsing bytes: [UInt8], source: String) throws(CalendarReadError) {
        LibICal.prepare()
        self.source = source
        guard bytes.count <= CalendarLimits.bytesPerFile else {
            throw CalendarReadError(source: source, .init(line: nil, reason: "\(bytes.count) bytes; at most \(CalendarLimits.bytesPerFile)"))
        }
        let lines = ContentLines.count(in: bytes)
        guard lines <= CalendarLimits.contentLinesPerFile else {
            throw CalendarReadError(source: source, .init(line: nil, reason: "\(lines) content lines, more than \(CalendarLimits.contentLinesPerFile); the file is not read (split the calendar, or leave it out)"))
        }
        let parsed: ParsedCalendar
        do {
            parsed = try CalendarParser.parse(bytes)
        } catch {
            throw CalendarReadError(source: source, error)
        }
        let roots = parsed.roots
        defer { for root in roots { icalcomponent_free(root) } }
        defer { ZoneNames.forgetFile() }
        var events: [CalendarEvent] = []
        var skipped = parsed.structure.map { CalendarProblem(source: source, uid: nil, message: $0.message) }
        var unknownZones = UnknownZoneNote()
        var emptyValues = EmptyValueNote()
        var ordinal = -1
        for root in roots {
            var zones: [String: CalendarZone] = [:]
            var child = icalcomponent_get_first_component(root, ICAL_VTIMEZONE_COMPONENT)
            while let current = child {
                if let zone = EmbeddedZones.zone(for: current), zones[zone.name] == nil { zones[zone.name] = zone }
                child = icalcomponent_get_next_component(root, ICAL_VTIMEZONE_COMPONENT)
            }
            child = icalcomponent_get_first_component(root, ICAL_VEVENT_COMPONENT)
            while let current = child {
                child = icalcomponent_get_next_component(root, ICAL_VEVENT_COMPONENT)
                ordinal += 1
                guard events.count < CalendarLimits.eventsPerSource else { continue }
                do {
                    let (unread, empty) = EmptyValues.split(parsed.unreadLines[ordinal] ?? [])
                    let event = try CalendarEvent(current, zones: zones, fallbackUID: "\(source)#\(ordinal + 1)",
                                                  badLines: unread)
                    unknownZones.note(event)
                    emptyValues.note(empty, uid: event.uid)
                    events.append(event)
                    if let first = event.ruleProblems.first {
                        let more = event.ruleProblems.count > 1 ? " (and \(event.ruleProblems.count - 1) more)" : ""
                        skipped.append(CalendarProblem(source: source, uid: event.uid, message: "its RRULE: \(first)\(more); the rest of the rule is kept"))
                    }
                    if let first = event.alarmProblems.first {
                        let more = event.alarmProblems.count > 1 ? " (and \(event.alarmProblems.count - 1) more)" : ""
                        skipped.append(CalendarProblem(source: source, uid: event.uid, message: "its alarms: \(first)\(more); the event and its other alarms are kept"))
                    }
                    if let first = event.joinProblems.first {
                        let more = event.joinProblems.count > 1 ? " (and \(event.joinProblems.count - 1) more)" : ""
                        skipped.append(CalendarProblem(source: source, uid: event.uid, message: "\(first)\(more); the event is kept"))
                    }
                } catch {
                    let uid = LibICal.string(icalcomponent_get_uid(current))
                    skipped.append(CalendarProblem(source: source, uid: uid.map { CalendarText.prefix($0, maxBytes: CalendarLimits.uidBytes) },
                                                   message: "left out: \(error.reason)"))
                }
            }
        }
        if ordinal + 1 > CalendarLimits.eventsPerSource {
            skipped.append(CalendarProblem(source: source, uid: nil,
                                           message: "\(ordinal + 1) events; the first \(CalendarLimits.eventsPerSource) are kept"))
        }
        if let problem = unknownZones.problem(source: source) { skipped.append(problem) }
        if let problem = emptyValues.problem(source: source) { skipped.append(problem) }
        self.events = events
        self.skipped = skipped
    }

    /// The occurrences that show in `window` (`CalendarWindow.shows`), in order.
    ///
    /// Floating times and all-day dates are read in `defaultZone` (an all-day event starts
    /// at its local midnight). An override (RECURRENCE-ID) replaces the instance it names;
    /// a cancelled override removes it; a cancelled event shows nothing.
    public func occurrences(in window: CalendarWindow, defaultZone: CalendarZone) -> CalendarExpansion {
        var budget = IterationBudget(remaining: CalendarLimits.iterationsPerSource)
        var expansion = CalendarExpansion()
        expand(into: &expansion, window: window, defaultZone: defaultZone, budget: &budget)
        expansion.finish(source: source)
        return expansion
    }
}

extension CalendarEvent {
    /// The expander's view of the event, with floating times in `defaultZone`.
    func plan(defaultZone: CalendarZone, asSingle: Bool) -> SeriesPlan {
        let base = start.base(defaultZone: defaultZone)
        let length: EventLength
        switch end {
        case .unspecified:
            length = start.isDate ? .wholeDays(1) : .exact(0)
        case .duration(let given):
            length = given
        case .at(let endTime):
            if start.isDate {
                let days = endTime.wall.day.dayNumber - start.wall.day.dayNumber
                length = .wholeDays(min(max(days, 1), CalendarLimits.maximumEventSeconds / 86_400))
            } else {
                // RFC 5545 3.8.5.3: every instance lasts exactly DTEND − DTSTART.
                let seconds = endTime.instant(defaultZone: defaultZone) - base.instant(of: start.wall)
                length = .exact(min(max(seconds, 0), CalendarLimits.maximumEventSeconds))
            }
        }
        var plan = SeriesPlan(start: start.wall, isDate: start.isDate, base: base, rule: asSingle ? nil : rule, length: length)
        guard !asSingle else { return plan }
        for time in excluded {
            if time.isDate && !start.isDate {
                plan.excludedDays.insert(time.wall.day)
            } else {
                plan.excludedStarts.insert(time.instant(defaultZone: defaultZone))
            }
        }
        plan.extraStarts = extraStarts.map { extra in
            let end: SeriesPlan.ExtraEnd? = switch extra.end {
            case .at(let time): .instant(time.instant(defaultZone: defaultZone))
            case .duration(let length): .length(length)
            case .unspecified: nil
            }
            switch extra.start.reference {
            case .floating where extra.start.isDate == start.isDate, .zone where base.sameZone(as: extra.start, defaultZone: defaultZone):
                return (.wall(extra.start.wall), end)
            default:
                return (.instant(extra.start.instant(defaultZone: defaultZone)), end)
            }
        }
        return plan
    }
}

extension TimeBase {
    /// Whether `time` is read on this same wall clock (so an RDATE can keep nominal lengths).
    func sameZone(as time: EventTime, defaultZone: CalendarZone) -> Bool {
        switch (self, time.base(defaultZone: defaultZone)) {
        case (.utc, .utc): return true
        case (.zone(let a), .zone(let b)): return a.isSameZone(as: b)
        default: return false
        }
    }
}

extension SafeName {
    static func source(_ text: String) -> String {
        CalendarText.oneLine(text, maxBytes: 512, maxCharacters: 300) ?? ""
    }
}
