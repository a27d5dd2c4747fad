import ZaoanRecurrence
extension CalendarDocument {
    /// Expands every event that counts (`EventGroups`: the newest copy of each series and
    /// override) into `expansion`, within the file's CPU time and the shared `budget`.
    func expand(into expansion: inout CalendarExpansion, window: CalendarWindow, defaultZone: CalendarZone,
                budget: inout IterationBudget) {
        LibICal.prepare()
        // Where this file's problems begin: its whole-file cut goes first, before the
        // series it names (a log that shows only the first few then shows that one).
        let firstProblem = expansion.problems.endIndex
        let groups = EventGroups(events, defaultZone: defaultZone)
        for uid in groups.cutRanges {
            expansion.problems.append(CalendarProblem(source: source, uid: uid, message:
                "more than \(CalendarLimits.datesPerEvent) overrides with RANGE=THISANDFUTURE; the later ones change their own instance only"))
        }
        var run = Run(document: self, groups: groups, window: window, defaultZone: defaultZone)
        for (index, event) in events.enumerated() where event.status != .cancelled && groups.isKept(index) {
            guard budget.remaining > 0 else {
                run.spent = true
                break
            }
            if event.rule != nil || groups.ranges[event.uid] != nil, run.time.spent {
                expansion.problems.insert(CalendarProblem(source: source, uid: event.uid, message:
                    "the file's rules took more than \(CalendarLimits.cpuSecondsPerFile) s of CPU; this event and the \(events.count - index - 1) after it are not shown"),
                                          at: firstProblem)
                break
            }
            if event.isOverride {
                run.override(index, into: &expansion, budget: &budget)
            } else {
                run.series(index, into: &expansion, budget: &budget)
            }
        }
        if run.spent {
            expansion.problems.append(CalendarProblem(source: source, uid: nil,
                                                      message: "the rules took more than \(CalendarLimits.iterationsPerSource) steps in all; some events are missing"))
        }
    }

    /// One expansion of the document: what it needs at hand, and the overrides found stale.
    private struct Run {
        let document: CalendarDocument
        let groups: EventGroups
        let window: CalendarWindow
        let defaultZone: CalendarZone
        let time = CPUBudget(seconds: CalendarLimits.cpuSecondsPerFile)
        var spent = false
        private var stale: [Int: Bool] = [:]

        init(document: CalendarDocument, groups: EventGroups, window: CalendarWindow, defaultZone: CalendarZone) {
            self.document = document
            self.groups = groups
            self.window = window
            self.defaultZone = defaultZone
        }

        var source: String { document.source }

        /// A series: its instances, less those an override replaces; those after a
        /// RANGE=THISANDFUTURE override moved and retitled as it says.
        mutating func series(_ index: Int, into expansion: inout CalendarExpansion, budget: inout IterationBudget) {
            let event = document.events[index]
            let plan = event.plan(defaultZone: defaultZone, asSingle: false)
            if plan.rule != nil { CalendarProgress.seriesStarting?(source, event.uid) }
            let replaced = groups.overrides[event.uid] ?? [:]
            var ranges = groups.ranges[event.uid] ?? []
            ranges.removeAll { isStale($0.index, budget: &budget) }
            let result = SeriesExpander.expand(plan, in: window, budget: &budget)
            report(result, uid: event.uid, into: &expansion)
            let firstRange = ranges.first?.key ?? .max
            for instance in result.instances where instance.recurrenceKey < firstRange && replaced[instance.recurrenceKey] == nil {
                expansion.occurrences.append(occurrence(of: event, start: instance.start, end: instance.end))
            }
            for (position, range) in ranges.enumerated() {
                let override = document.events[range.index]
                let upTo = position + 1 < ranges.count ? ranges[position + 1].key : .max
                let carried = CarriedRange(override: override, key: range.key, series: plan, defaultZone: defaultZone)
                guard override.status != .cancelled, let preimage = carried.preimage(of: window, from: range.key, upTo: upTo) else { continue }
                guard budget.remaining > 0, !time.spent else {
                    spent = spent || budget.remaining <= 0
                    expansion.problems.append(CalendarProblem(source: source, uid: event.uid, message:
                        "its RANGE=THISANDFUTURE overrides ran past the file's budget; its later instances are not all shown"))
                    return
                }
                let part = SeriesExpander.expand(plan, in: preimage, budget: &budget)
                for instance in part.instances where instance.recurrenceKey >= range.key && instance.recurrenceKey < upTo
                    && replaced[instance.recurrenceKey] == nil {
                    let (start, end) = carried.moved(instance)
                    if window.shows(start: start, end: end) {
                        expansion.occurrences.append(occurrence(of: override, start: start, end: end))
                    }
                }
            }
        }

        /// An override: its one instance (its own RRULE, if any, is no series of its own),
        /// unless it is stale.
        mutating func override(_ index: Int, into expansion: inout CalendarExpansion, budget: inout IterationBudget) {
            let event = document.events[index]
            let result = SeriesExpander.expand(event.plan(defaultZone: defaultZone, asSingle: true), in: window, budget: &budget)
            guard let instance = result.instances.first, !isStale(index, budget: &budget) else { return }
            expansion.occurrences.append(occurrence(of: event, start: instance.start, end: instance.end))
        }

        /// An override older than its series (a lower SEQUENCE) for an instance the newer
        /// series no longer has (its rule changed, an EXDATE took the instance out): what the
        /// series' organizer sent since replaces it (RFC 5546 2.1.5). Found once, with the
        /// series expanded over that one instant, while the file's CPU time and a series'
        /// share of the iterations last (after that, an override is taken as it is).
        private mutating func isStale(_ index: Int, budget: inout IterationBudget) -> Bool {
            if let known = stale[index] { return known }
            let event = document.events[index]
            var answer = false
            if let id = event.recurrenceID, let seriesIndex = groups.series[event.uid],
               event.sequence < document.events[seriesIndex].sequence, !time.spent,
               budget.remaining > CalendarLimits.iterationsPerSeries {
                let series = document.events[seriesIndex]
                let key = EventGroups.key(of: id, series: series, defaultZone: defaultZone)
                if CalendarWindow.instants.contains(key), key < CalendarWindow.instants.upperBound {
                    let plan = series.plan(defaultZone: defaultZone, asSingle: false)
                    if plan.rule != nil { CalendarProgress.seriesStarting?(source, series.uid) }
                    let found = SeriesExpander.expand(plan, in: CalendarWindow(unchecked: key, key + 1), budget: &budget)
                    answer = !found.instances.contains { $0.recurrenceKey == key } && !found.truncated
                }
            }
            stale[index] = answer
            return answer
        }

        private func occurrence(of event: CalendarEvent, start: Int64, end: Int64) -> CalendarOccurrence {
            CalendarOccurrence(uid: event.uid, source: source, start: start, end: end, isAllDay: event.isAllDay, title: event.title,
                               location: event.location, description: event.description, url: event.url, join: event.join, status: event.status,
                               alarms: event.alarms)
        }

        private func report(_ result: SeriesExpander.Result, uid: String, into expansion: inout CalendarExpansion) {
            if result.outOfTime {
                expansion.problems.append(CalendarProblem(source: source, uid: uid,
                                                          message: "its rule took more than \(CalendarLimits.cpuSecondsPerSeries) s of CPU (\(result.iterations) steps) to reach the window; its occurrences from there on are not shown"))
            } else if result.truncated {
                expansion.problems.append(CalendarProblem(source: source, uid: uid,
                                                          message: "its rule took more than \(result.iterations) steps to reach the window; later occurrences may be missing"))
            }
        }
    }
}
