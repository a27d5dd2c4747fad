/// The offsets a VTIMEZONE defines, worked out once by zaoan's own recurrence engine: every
/// onset of every usable observance (its DTSTART, each instance of its RRULE, each RDATE),
/// as an instant (the onset's wall clock minus its TZOFFSETFROM) with the offset from then
/// on (its TZOFFSETTO), sorted. The offset at an instant is the last onset's at or before
/// it (a binary search); before the first, the TZOFFSETFROM of the earliest observance.
///
/// ```swift
/// let rules = EmbeddedZoneRules(observances: [standard, daylight])
/// rules?.offset(at: 1_774_598_400)  // 3600, or 7200
/// ```
///
/// Bounded whatever the file says: the rules give at most `CalendarLimits.ruleOnsetsPerZone`
/// onsets in `CalendarLimits.iterationsPerZone` engine steps for all of them, and DTSTARTs
/// and RDATEs at most `CalendarLimits.listedOnsetsPerZone`; an observance with an offset
/// beyond ±(24 h − 1 s) or without one is not used (`ZoneObservance.isUsable`). Onsets after
/// the years (and a day) are dropped: no instant a calendar may have reaches them.
public struct EmbeddedZoneRules: Sendable {
    /// An offset change: from `instant` on, the wall clock is `offset` seconds east of UTC.
    struct Transition: Equatable, Sendable {
        let instant: Int64
        let offset: Int32
        /// Which observance it came from (for its TZNAME).
        let observance: Int32
    }

    private let transitions: [Transition]
    private let names: [String?]
    /// The offset before the first onset: the TZOFFSETFROM of the earliest observance.
    public let initialOffset: Int
    /// The instant the earliest observance begins (its DTSTART on its TZOFFSETFROM's clock).
    public let firstOnset: Int64
    /// What building the zone cost and left out, for tests and reports.
    public let work: Work

    public struct Work: Equatable, Sendable {
        /// Engine steps taken by the observances' rules.
        public var steps = 0
        /// Onsets (DTSTARTs, RDATEs, rule instances) left out at a limit, counted as far as
        /// they were looked at: a rule cut short is one.
        public var leftOut = 0
        /// Observances not used: an offset missing or out of range, a DTSTART outside 0000–9999.
        public var unusable = 0
    }

    /// Nil when no observance is usable (the VTIMEZONE defines nothing).
    public init?(observances: [ZoneObservance]) {
        var work = Work()
        var onsets: [Transition] = []
        var listed = 0, ruled = 0
        var budget = CalendarLimits.iterationsPerZone
        var earliest: (onset: Int64, offset: Int)?
        let last = CalendarWindow.instants.upperBound + 86_400
        func add(_ instant: Int64, _ offset: Int, _ index: Int) {
            if instant <= last { onsets.append(Transition(instant: instant, offset: Int32(offset), observance: Int32(index))) }
        }
        for (index, observance) in observances.enumerated() {
            guard observance.isUsable, let from = observance.offsetFrom, let to = observance.offsetTo else {
                work.unusable += 1
                continue
            }
            guard listed < CalendarLimits.listedOnsetsPerZone else {
                work.leftOut += 1 + observance.extraOnsets.count
                continue
            }
            let onset = observance.start - Int64(from)
            if earliest.map({ onset < $0.onset }) ?? true { earliest = (onset, from) }
            add(onset, to, index)
            listed += 1
            for extra in observance.extraOnsets {
                guard listed < CalendarLimits.listedOnsetsPerZone else {
                    work.leftOut += 1
                    continue
                }
                switch extra {
                case .wall(let wall) where ZoneObservance.starts.contains(wall): add(wall - Int64(from), to, index)
                case .utc(let instant) where ZoneObservance.starts.contains(instant): add(instant, to, index)
                default: continue
                }
                listed += 1
            }
            guard let text = observance.rule else { continue }
            let room = CalendarLimits.ruleOnsetsPerZone - ruled
            guard room > 0, budget > 0 else {
                work.leftOut += 1
                continue
            }
            guard let rule = ObservanceRule(text: text, start: observance.start) else { continue }
            let before = budget
            var given = 0
            rule.onsets(offsetFrom: from, limit: room, budget: &budget) { instant in
                add(instant, to, index)
                given += 1
            }
            ruled += given
            work.steps += before - budget
            if given == room || budget <= 0 { work.leftOut += 1 }
        }
        guard let earliest else { return nil }
        // In order of instant, and of the file where two fall on one instant: the later one
        // counts (the search takes the last at or before an instant), the others go.
        let ordered = onsets.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
        var kept: [Transition] = []
        kept.reserveCapacity(ordered.count)
        for transition in ordered {
            if kept.last?.instant == transition.instant { kept.removeLast() }
            kept.append(transition)
        }
        transitions = kept
        names = observances.map(\.name)
        initialOffset = earliest.offset
        firstOnset = earliest.onset
        self.work = work
    }

    /// Offset changes kept (onsets at the same instant count once).
    public var transitionCount: Int { transitions.count }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Int64) -> Int {
        guard let index = lastTransition(atOrBefore: instant) else { return initialOffset }
        return Int(transitions[index].offset)
    }

    /// The TZNAME of the observance in force at `instant` (before the first onset: none).
    public func abbreviation(at instant: Int64) -> String? {
        guard let index = lastTransition(atOrBefore: instant) else { return nil }
        return names[Int(transitions[index].observance)]
    }

    private func lastTransition(atOrBefore instant: Int64) -> Int? {
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].instant <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

extension EmbeddedZoneRules: Equatable {
    /// The same offsets at every instant (and the same names): what `CalendarZone.isSameZone`
    /// asks. Zones taken from one cache entry share their storage and compare at once.
    public static func == (a: EmbeddedZoneRules, b: EmbeddedZoneRules) -> Bool {
        a.initialOffset == b.initialOffset && a.transitions == b.transitions && a.names == b.names
    }
}
