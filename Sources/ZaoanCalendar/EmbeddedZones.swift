import ZaoanRecurrence
import CICal

/// The zones of VTIMEZONEs already seen, by their text: a vdir repeats the same VTIMEZONE in
/// each of its files, and a zone's changes are worked out from 1800 to 2400 when it is read
/// (`EmbeddedZoneRules`: 0.6 ms for Outlook's, against 0.04 ms for the whole file once it
/// is kept here; docs/benchmarks.md). Single-threaded, like the rest of the module.
enum EmbeddedZones {
    /// Distinct VTIMEZONEs kept; when full, the cache starts over.
    static let capacity = 256
    /// A VTIMEZONE longer than this is used but not kept.
    static let keyBytes = 16 * 1024
    nonisolated(unsafe) private static var zones: [String: CalendarZone] = [:]

    static func zone(for component: OpaquePointer) -> CalendarZone? {
        guard let text = LibICal.string(icalcomponent_as_ical_string(component)), text.utf8.count <= keyBytes else {
            return ZoneComponent.zone(component)
        }
        if let known = zones[text] { return known }
        guard let zone = ZoneComponent.zone(component) else { return nil }
        if zones.count >= capacity { zones.removeAll() }
        zones[text] = zone
        return zone
    }
}

/// A VTIMEZONE read out of libical into Swift values, as `CalendarEvent` reads a VEVENT: its
/// TZID and, for each STANDARD and DAYLIGHT, DTSTART, TZOFFSETFROM, TZOFFSETTO, TZNAME, its
/// RRULE's text (`OwnRule`: renamed on its way to libical) and RDATEs. What the values mean
/// is `EmbeddedZoneRules`' to work out.
enum ZoneComponent {
    /// The zone the VTIMEZONE defines; nil without a TZID or a usable observance.
    static func zone(_ component: OpaquePointer) -> CalendarZone? {
        guard let tzid = LibICal.string(icalcomponent_get_first_property(component, ICAL_TZID_PROPERTY).flatMap { icalproperty_get_tzid($0) }) else {
            return nil
        }
        defer { LibICal.prepare() }
        return CalendarZone(embedded: tzid, observances: observances(of: component))
    }

    /// Its STANDARDs, then its DAYLIGHTs, in file order; DTSTARTs and RDATEs read only up to
    /// `CalendarLimits.listedOnsetsPerZone` in all (the zone uses no more).
    static func observances(of component: OpaquePointer) -> [ZoneObservance] {
        var found: [ZoneObservance] = []
        var listed = 0
        for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
            var child = icalcomponent_get_first_component(component, kind)
            while let current = child, listed < CalendarLimits.listedOnsetsPerZone {
                child = icalcomponent_get_next_component(component, kind)
                guard let observance = observance(current, room: CalendarLimits.listedOnsetsPerZone - listed) else { continue }
                listed += 1 + observance.extraOnsets.count
                found.append(observance)
            }
        }
        return found
    }

    /// One STANDARD or DAYLIGHT, with at most `room` − 1 RDATEs; nil without a DTSTART (a
    /// missing or unreadable offset is left for `ZoneObservance.isUsable` to judge).
    private static func observance(_ component: OpaquePointer, room: Int) -> ZoneObservance? {
        guard let startProperty = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY),
              let start = wallSeconds(icalproperty_get_dtstart(startProperty)) else { return nil }
        let from = icalcomponent_get_first_property(component, ICAL_TZOFFSETFROM_PROPERTY).map { Int(icalproperty_get_tzoffsetfrom($0)) }
        let to = icalcomponent_get_first_property(component, ICAL_TZOFFSETTO_PROPERTY).map { Int(icalproperty_get_tzoffsetto($0)) }
        let name = icalcomponent_get_first_property(component, ICAL_TZNAME_PROPERTY)
            .flatMap { LibICal.string(icalproperty_get_tzname($0)) }.flatMap { CalendarText.oneLine($0, maxBytes: 64, maxCharacters: 32) }
        var extra: [ZoneObservance.Onset] = []
        var property = icalcomponent_get_first_property(component, ICAL_RDATE_PROPERTY)
        while let current = property, extra.count < room - 1 {
            property = icalcomponent_get_next_property(component, ICAL_RDATE_PROPERTY)
            let value = icalproperty_get_rdate(current)
            // A PERIOD begins the offset at its start; its end means nothing to a zone.
            let time = icaltime_is_null_time(value.time) == 0 ? value.time : value.period.start
            guard let seconds = wallSeconds(time) else { continue }
            extra.append(icaltime_is_utc(time) != 0 ? .utc(seconds) : .wall(seconds))
        }
        return ZoneObservance(start: start, offsetFrom: from, offsetTo: to, name: name, rule: OwnRule.text(of: component), extraOnsets: extra)
    }

    /// A libical time's date and time (a DATE at midnight) as `ZoneObservance` holds them;
    /// nil for the null time or one that does not exist.
    private static func wallSeconds(_ time: icaltimetype) -> Int64? {
        guard icaltime_is_null_time(time) == 0 else { return nil }
        let isDate = time.is_date != 0
        return ZoneObservance.wallSeconds(year: Int(time.year), month: Int(time.month), day: Int(time.day),
                                          hour: isDate ? 0 : Int(time.hour), minute: isDate ? 0 : Int(time.minute),
                                          second: isDate ? 0 : Int(time.second))
    }
}
