import ZaoanRecurrence
/// The VEVENTs of one document the way a calendar holds one event: by UID, a series (the
/// copy without RECURRENCE-ID) and its overrides, each the newest of the copies sent. A
/// re-sent invitation leaves several copies of one UID in a file; RFC 5546 (2.1.5) makes
/// the one with the highest SEQUENCE the event, then the latest DTSTAMP, and here a later
/// copy in the file wins what is still a tie, so identical copies show once. Events without
/// a UID have one of their own (`source#N`) and never meet.
struct EventGroups {
    /// Per UID, the index in `events` of the series that wins.
    private(set) var series: [String: Int] = [:]
    /// Per UID, the overrides that win, by the instant of the instance they replace.
    private(set) var overrides: [String: [Int64: Int]] = [:]
    /// Per UID, the overrides with RANGE=THISANDFUTURE among them, by that instant.
    private(set) var ranges: [String: [(key: Int64, index: Int)]] = [:]
    /// UIDs with more than `CalendarLimits.datesPerEvent` of those: the later ones count
    /// for their own instance only.
    private(set) var cutRanges: [String] = []
    private var kept: Set<Int> = []

    init(_ events: [CalendarEvent], defaultZone: CalendarZone) {
        for (index, event) in events.enumerated() where !event.isOverride {
            if let other = series[event.uid], !Self.isNewer(events[index], than: events[other]) { continue }
            series[event.uid] = index
        }
        for (index, event) in events.enumerated() {
            guard let id = event.recurrenceID else { continue }
            let key = Self.key(of: id, series: series[event.uid].map { events[$0] }, defaultZone: defaultZone)
            if let other = overrides[event.uid]?[key], !Self.isNewer(event, than: events[other]) { continue }
            overrides[event.uid, default: [:]][key] = index
        }
        kept = Set(series.values)
        for (uid, byKey) in overrides {
            kept.formUnion(byKey.values)
            var range = byKey.filter { events[$0.value].thisAndFuture }.map { (key: $0.key, index: $0.value) }
            guard !range.isEmpty else { continue }
            range.sort { $0.key < $1.key }
            if range.count > CalendarLimits.datesPerEvent {
                range.removeSubrange(CalendarLimits.datesPerEvent...)
                cutRanges.append(uid)
            }
            ranges[uid] = range
        }
        cutRanges.sort()
    }

    /// Whether the event at `index` is the copy that counts (not an older or equal one).
    func isKept(_ index: Int) -> Bool { kept.contains(index) }

    /// The instant of the instance an override names. A DATE-TIME RECURRENCE-ID on an
    /// all-day series (Outlook writes midnight, in UTC or in its zone) names the instance of
    /// its own date as written: local midnight of that day, as the series' instances are.
    static func key(of id: EventTime, series: CalendarEvent?, defaultZone: CalendarZone) -> Int64 {
        if let series, series.start.isDate, !id.isDate {
            return defaultZone.instant(of: LocalDateTime(id.wall.day))
        }
        return id.instant(defaultZone: defaultZone)
    }

    /// RFC 5546's order of copies: SEQUENCE, then DTSTAMP (a copy without one is the oldest).
    private static func isNewer(_ a: CalendarEvent, than b: CalendarEvent) -> Bool {
        (a.sequence, a.stamp ?? .min) >= (b.sequence, b.stamp ?? .min)
    }
}

/// What a RANGE=THISANDFUTURE override carries to every later instance of its series (RFC
/// 5545 3.8.4.4): the shift from its RECURRENCE-ID to its DTSTART, its length, its texts.
/// The shift is on the series' wall clock where the RECURRENCE-ID and the new DTSTART are
/// on it too (a move from 10:00 to 14:00 stays 14:00 across a DST change), else exact.
struct CarriedRange {
    enum Shift {
        case wall(Int64)
        case exact(Int64)
    }

    let shift: Shift
    let length: EventLength
    let base: TimeBase

    init(override: CalendarEvent, key: Int64, series: SeriesPlan, defaultZone: CalendarZone) {
        base = series.base
        length = override.plan(defaultZone: defaultZone, asSingle: true).length
        if let id = override.recurrenceID, id.isDate == override.start.isDate,
           series.base.sameZone(as: id, defaultZone: defaultZone), series.base.sameZone(as: override.start, defaultZone: defaultZone) {
            shift = .wall(override.start.wall.secondsAsIfUTC - id.wall.secondsAsIfUTC)
        } else {
            shift = .exact(override.start.instant(defaultZone: defaultZone) - key)
        }
    }

    /// The instance as the override moves it.
    func moved(_ instance: ExpandedInstance) -> (start: Int64, end: Int64) {
        switch shift {
        case .wall(let seconds):
            guard let wall = base.wallClock(at: instance.start),
                  let movedWall = LocalDateTime(secondsAsIfUTC: wall.secondsAsIfUTC.addingClamped(seconds)) else {
                return (instance.start.addingClamped(seconds), SeriesExpander.end(of: instance.start.addingClamped(seconds), wall: nil, length: length, base: base))
            }
            let start = base.instant(of: movedWall)
            return (start, SeriesExpander.end(of: start, wall: movedWall, length: length, base: base))
        case .exact(let seconds):
            let start = instance.start.addingClamped(seconds)
            return (start, SeriesExpander.end(of: start, wall: nil, length: length, base: base))
        }
    }

    /// Where the instances that land in `window` once moved start, within the range's own
    /// instances [from, upTo): nil if nowhere.
    func preimage(of window: CalendarWindow, from: Int64, upTo: Int64) -> CalendarWindow? {
        let seconds: Int64 = switch shift {
        case .wall(let seconds), .exact(let seconds): seconds
        }
        // Two days of slack cover a wall-clock shift across any DST change.
        let slack: Int64 = 2 * 86_400
        let lower = max(from, window.from.addingClamped(-seconds).addingClamped(-length.longest).addingClamped(-slack), CalendarWindow.instants.lowerBound)
        let upper = min(upTo, window.to.addingClamped(-seconds).addingClamped(slack), CalendarWindow.instants.upperBound)
        return lower < upper ? CalendarWindow(unchecked: lower, upper) : nil
    }
}
