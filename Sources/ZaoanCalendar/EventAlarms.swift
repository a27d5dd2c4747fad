import CICal
import ZaoanRecurrence

/// The VALARMs of a VEVENT (RFC 5545 §3.6.6) as zaoan keeps them (`Alarm`), and what was
/// left out of them, each said once.
///
/// ACTION DISPLAY and AUDIO are kept (an AUDIO alarm is shown, as GNOME's and KDE's
/// reminders show it: zaoan plays no sound); one without ACTION is read as DISPLAY.
/// EMAIL and PROCEDURE are another program's to send or run, and RFC 9074's ACTION:NONE
/// means "no alarm" (libical 3.0 reads it as an X- action): those, and any other action,
/// are passed over without a word. ACKNOWLEDGED (RFC 9074) is
/// kept, so firings at or before it are not fired again.
struct EventAlarms {
    private(set) var alarms: [Alarm] = []
    private(set) var problems: [String] = []

    init(of event: OpaquePointer) {
        var child = icalcomponent_get_first_component(event, ICAL_VALARM_COMPONENT)
        var over = 0
        while let current = child {
            child = icalcomponent_get_next_component(event, ICAL_VALARM_COMPONENT)
            guard Self.isShown(current) else { continue }
            guard alarms.count < Alarm.maxPerEvent else {
                over += 1
                continue
            }
            do throws(Alarm.Problem) {
                alarms.append(try Self.alarm(current))
            } catch {
                problems.append(error.description)
            }
        }
        if over > 0 { problems.append("\(over) more VALARMs than the \(Alarm.maxPerEvent) kept per event") }
    }

    private static func isShown(_ alarm: OpaquePointer) -> Bool {
        guard let action = icalcomponent_get_first_property(alarm, ICAL_ACTION_PROPERTY) else { return true }
        switch icalproperty_get_action(action) {
        case ICAL_ACTION_DISPLAY, ICAL_ACTION_AUDIO: return true
        default: return false
        }
    }

    private static func alarm(_ component: OpaquePointer) throws(Alarm.Problem) -> Alarm {
        guard let trigger = icalcomponent_get_first_property(component, ICAL_TRIGGER_PROPERTY) else {
            throw Alarm.Problem(description: "a VALARM without a TRIGGER libical could read is left out")
        }
        let value = icalproperty_get_trigger(trigger)
        var repeats = 0
        var interval: Int64 = 0
        if let repeatProperty = icalcomponent_get_first_property(component, ICAL_REPEAT_PROPERTY) {
            repeats = Int(icalproperty_get_repeat(repeatProperty))
            if let durationProperty = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) {
                interval = seconds(of: icalproperty_get_duration(durationProperty))
            }
        }
        let acknowledged = icalcomponent_get_first_property(component, ICAL_ACKNOWLEDGED_PROPERTY)
            .flatMap { LocalDateTime(icalproperty_get_acknowledged($0))?.secondsAsIfUTC }
        if icaltime_is_null_time(value.time) == 0 {
            // VALUE=DATE-TIME: a UTC time (RFC 5545 3.8.6.3); one without Z is read as UTC too.
            guard let at = LocalDateTime(value.time)?.secondsAsIfUTC else {
                throw Alarm.Problem(description: "a VALARM's absolute TRIGGER cannot be read")
            }
            return try Alarm(anchor: .absolute, seconds: at, repeats: repeats, interval: interval, acknowledged: acknowledged)
        }
        let relatedToEnd = icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER)
            .map { icalparameter_get_related($0) == ICAL_RELATED_END } ?? false
        return try Alarm(anchor: relatedToEnd ? .end : .start, seconds: seconds(of: value.duration), repeats: repeats,
                         interval: interval, acknowledged: acknowledged)
    }

    /// A duration in seconds, its sign kept; libical's fields are unsigned 32-bit, so the
    /// sum (at most about 2.6e15) cannot overflow.
    private static func seconds(of duration: icaldurationtype) -> Int64 {
        let total = Int64(duration.weeks) * 604_800 + Int64(duration.days) * 86_400 + Int64(duration.hours) * 3600
            + Int64(duration.minutes) * 60 + Int64(duration.seconds)
        return duration.is_neg != 0 ? -total : total
    }
}
