import ZaoanRecurrence
import CICal

/// A time as a calendar file writes it: a wall clock (or a DATE) and what it is relative to.
struct EventTime {
    enum Reference {
        case utc
        /// No TZID and no `Z` (and every DATE): read in the zone the expansion is given.
        case floating
        case zone(CalendarZone)
    }

    let wall: LocalDateTime
    let isDate: Bool
    let reference: Reference
    /// The TZID (shortened, safe to show) of a time read as floating because no zone of
    /// that name is known (`ZoneNames`).
    var unknownZone: String? = nil

    func base(defaultZone: CalendarZone) -> TimeBase {
        switch reference {
        case .utc: return .utc
        case .floating: return .zone(defaultZone)
        case .zone(let zone): return .zone(zone)
        }
    }

    func instant(defaultZone: CalendarZone) -> Int64 {
        base(defaultZone: defaultZone).instant(of: wall)
    }
}

/// What an event's end is given by.
enum EventEnd {
    /// Neither DTEND nor DURATION: a DATE lasts the day, a time no time at all.
    case unspecified
    case at(EventTime)
    case duration(EventLength)
}

/// The status of an event (STATUS); nil when the file does not say.
public enum CalendarEventStatus: String, Sendable {
    case tentative = "TENTATIVE", confirmed = "CONFIRMED", cancelled = "CANCELLED"
}

/// One VEVENT, read out of libical into Swift values (libical's objects are freed once
/// the file is read). Texts are already safe to show and bounded.
public struct CalendarEvent {
    public let uid: String
    public let title: String?
    public let location: String?
    public let description: String?
    public let url: String?
    /// The link to join its meeting, and the service (`MeetingLink`); nil when it has none.
    public let join: MeetingLink?
    /// Why values of its meeting properties were not taken (a `javascript:` CONFERENCE).
    let joinProblems: [String]
    public let status: CalendarEventStatus?
    /// Its VALARMs that zaoan shows (`EventAlarms`), and why others were left out.
    public let alarms: [Alarm]
    let alarmProblems: [String]
    public var isAllDay: Bool { start.isDate }
    public var isRecurring: Bool { rule != nil || !extraStarts.isEmpty }
    /// Set on an override of one instance of a series (RECURRENCE-ID).
    public var isOverride: Bool { recurrenceID != nil }

    let start: EventTime
    let end: EventEnd
    let rule: RecurrenceRule?
    /// The parts or values of its RRULE that were left out, each said once (the rest kept).
    let ruleProblems: [String]
    let excluded: [EventTime]
    /// RDATEs: a start, and for a PERIOD its own end or duration (RFC 5545 3.8.5.2).
    let extraStarts: [(start: EventTime, end: EventEnd)]
    let recurrenceID: EventTime?
    /// RECURRENCE-ID;RANGE=THISANDFUTURE: the override applies to the later instances too.
    let thisAndFuture: Bool
    /// SEQUENCE (0 when not given) and DTSTAMP (Unix seconds; nil when not given): which of
    /// several copies of one event is the newest (RFC 5546 2.1.5).
    let sequence: Int
    let stamp: Int64?

    /// Why an event is left out of a file that is otherwise read.
    struct Unusable: Error {
        let reason: String
    }

    /// Reads a VEVENT. `zones` are the VTIMEZONEs of its VCALENDAR by TZID; `badLines` the
    /// lines of it libical could not read (number, property name, libical's words).
    init(_ component: OpaquePointer, zones: [String: CalendarZone], fallbackUID: String,
         badLines: [(line: Int, property: String)]) throws(Unusable) {
        // A property libical dropped for a bad value leaves the event without what it needs.
        let essential: Set<String> = ["DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"]
        if let bad = badLines.first(where: { essential.contains($0.property) }) {
            throw Unusable(reason: "line \(bad.line): libical could not read its \(bad.property)" + Self.libicalWords(component, about: bad.property))
        }
        let rawUID = LibICal.string(icalcomponent_get_uid(component)) ?? ""
        uid = rawUID.isEmpty ? fallbackUID : CalendarText.prefix(rawUID, maxBytes: CalendarLimits.uidBytes)
        guard let startProperty = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) else {
            throw Unusable(reason: "it has no DTSTART")
        }
        start = try Self.time(icalproperty_get_dtstart(startProperty), of: startProperty, named: "DTSTART", zones: zones)

        if let endProperty = icalcomponent_get_first_property(component, ICAL_DTEND_PROPERTY) {
            end = .at(try Self.time(icalproperty_get_dtend(endProperty), of: endProperty, named: "DTEND", zones: zones))
        } else if let durationProperty = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) {
            end = .duration(Self.length(icalproperty_get_duration(durationProperty), allDay: start.isDate))
        } else {
            end = .unspecified
        }

        if let text = OwnRule.text(of: component) {
            let reading = RuleParts.read(text)
            guard let parts = reading.parts else {
                throw Unusable(reason: "its RRULE: \(reading.problems.first ?? "nothing in it can be read")")
            }
            do {
                rule = try RecurrenceRule(parts)
            } catch {
                throw Unusable(reason: "its RRULE: \(error.description)")
            }
            ruleProblems = reading.problems
        } else {
            rule = nil
            ruleProblems = []
        }

        var excluded: [EventTime] = []
        var property = icalcomponent_get_first_property(component, ICAL_EXDATE_PROPERTY)
        while let current = property, excluded.count < CalendarLimits.datesPerEvent {
            excluded.append(try Self.time(icalproperty_get_exdate(current), of: current, named: "EXDATE", zones: zones))
            property = icalcomponent_get_next_property(component, ICAL_EXDATE_PROPERTY)
        }
        self.excluded = excluded

        var extra: [(start: EventTime, end: EventEnd)] = []
        property = icalcomponent_get_first_property(component, ICAL_RDATE_PROPERTY)
        while let current = property, extra.count < CalendarLimits.datesPerEvent {
            let value = icalproperty_get_rdate(current)
            if icaltime_is_null_time(value.period.start) == 0 {
                // A PERIOD: start/end, or start/duration (the instance lasts the period).
                let periodStart = try Self.time(value.period.start, of: current, named: "RDATE", zones: zones)
                let periodEnd: EventEnd
                if icaltime_is_null_time(value.period.end) == 0 {
                    periodEnd = .at(try Self.time(value.period.end, of: current, named: "RDATE", zones: zones))
                } else if icaldurationtype_is_null_duration(value.period.duration) == 0 {
                    periodEnd = .duration(Self.length(value.period.duration, allDay: false))
                } else {
                    periodEnd = .unspecified
                }
                extra.append((periodStart, periodEnd))
            } else {
                extra.append((try Self.time(value.time, of: current, named: "RDATE", zones: zones), .unspecified))
            }
            property = icalcomponent_get_next_property(component, ICAL_RDATE_PROPERTY)
        }
        extraStarts = extra

        if let idProperty = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY) {
            recurrenceID = try Self.time(icalproperty_get_recurrenceid(idProperty), of: idProperty, named: "RECURRENCE-ID", zones: zones)
            thisAndFuture = icalproperty_get_first_parameter(idProperty, ICAL_RANGE_PARAMETER)
                .map { icalparameter_get_range($0) == ICAL_RANGE_THISANDFUTURE } ?? false
        } else {
            recurrenceID = nil
            thisAndFuture = false
        }
        sequence = Int(max(icalcomponent_get_sequence(component), 0))
        let stampTime = icalcomponent_get_dtstamp(component)
        // DTSTAMP is UTC (RFC 5545 3.8.7.2); one written without Z is read as UTC too.
        stamp = LocalDateTime(stampTime)?.secondsAsIfUTC
        LibICal.prepare()

        switch icalcomponent_get_status(component) {
        case ICAL_STATUS_TENTATIVE: status = .tentative
        case ICAL_STATUS_CONFIRMED: status = .confirmed
        case ICAL_STATUS_CANCELLED: status = .cancelled
        default: status = nil
        }
        title = LibICal.string(icalcomponent_get_summary(component)).flatMap { CalendarText.oneLine($0) }
        location = LibICal.string(icalcomponent_get_location(component)).flatMap { CalendarText.oneLine($0) }
        description = LibICal.string(icalcomponent_get_description(component)).flatMap { CalendarText.lines($0) }
        url = icalcomponent_get_first_property(component, ICAL_URL_PROPERTY)
            .flatMap { LibICal.string(icalproperty_get_url($0)) }.flatMap { CalendarText.url($0) }
        let meeting = EventMeeting.search(component)
        join = meeting.link
        joinProblems = meeting.refusals
        let read = EventAlarms(of: component)
        alarms = read.alarms
        alarmProblems = read.problems
    }

    /// A libical time with the TZID of its property resolved: the file's own VTIMEZONE
    /// first (RFC 5545), else the zone the name means (`ZoneNames`: IANA, Windows, a
    /// libical-style path), else floating, with the name kept to be reported.
    static func time(_ value: icaltimetype, of property: OpaquePointer, named name: String,
                     zones: [String: CalendarZone]) throws(Unusable) -> EventTime {
        guard let wall = LocalDateTime(value) else {
            throw Unusable(reason: "its \(name) is not a date between \(CalendarLimits.years.lowerBound) and \(CalendarLimits.years.upperBound)")
        }
        if value.is_date != 0 { return EventTime(wall: wall, isDate: true, reference: .floating) }
        if icaltime_is_utc(value) != 0 { return EventTime(wall: wall, isDate: false, reference: .utc) }
        guard let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
              let tzid = LibICal.string(icalparameter_get_tzid(parameter)) else {
            return EventTime(wall: wall, isDate: false, reference: .floating)
        }
        if let zone = zones[tzid] { return EventTime(wall: wall, isDate: false, reference: .zone(zone)) }
        guard let zone = ZoneNames.zone(forTZID: tzid) else {
            return EventTime(wall: wall, isDate: false, reference: .floating, unknownZone: SafeName.short(CalendarText.prefix(tzid, maxBytes: 160)))
        }
        return EventTime(wall: wall, isDate: false, reference: .zone(zone))
    }

    /// A DURATION: days and weeks on the wall clock, the rest exact; a negative one is none.
    static func length(_ duration: icaldurationtype, allDay: Bool) -> EventLength {
        guard duration.is_neg == 0 else { return .exact(0) }
        let days = min(Int64(duration.weeks) * 7 + Int64(duration.days), CalendarLimits.maximumEventSeconds / 86_400)
        let seconds = min(Int64(duration.hours) * 3600 + Int64(duration.minutes) * 60 + Int64(duration.seconds),
                          CalendarLimits.maximumEventSeconds)
        if allDay && seconds == 0 { return .wholeDays(max(days, 1)) }
        return days > 0 ? .nominal(days: days, seconds: seconds) : .exact(seconds)
    }

    /// libical's own message about `property` (an X-LIC-ERROR it left in the event).
    private static func libicalWords(_ component: OpaquePointer, about property: String) -> String {
        var error = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
        while let current = error {
            if let text = LibICal.string(icalproperty_get_xlicerror(current)), text.uppercased().contains(property) {
                return " (" + (CalendarText.oneLine(text, maxBytes: 160, maxCharacters: 120) ?? "") + ")"
            }
            error = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
        }
        return ""
    }
}
