import ZaoanRecurrence

/// Recurring rooms (`live add ID START TITLE repeat=RULE`): one recurrence engine for rooms
/// and calendar files, ZaoanRecurrence's (RFC 5545 rules read and expanded by zaoan, its DST handling). A room keeps
/// its first start and its rule; its occurrences ahead are expanded by the service's reader
/// process (the loop never waits for an expansion) and
/// handed to the Responder as a `RoomExpansion`, each keeping the first start's wall-clock
/// time in the configured zone (a 07:00 daily room stays at 07:00 across a DST change).
public enum RoomRecurrence {
    /// How far ahead the rotation shows occurrences, and how often (seconds) the service
    /// expands the rooms again.
    public static let windowSeconds = CalendarLimits.defaultWindowSeconds
    public static let refreshSeconds: Int64 = 3600
    /// How far ahead `live show` lists occurrences, and how many.
    public static let showSeconds: Int64 = 28 * 86_400
    public static let shownOccurrences = 5

    /// The rule as it is saved (`daily` → `FREQ=DAILY`), or an error in the user's terms.
    /// Parsing only (a string of at most 256 bytes, zaoan's reader): no instance is
    /// looked for here.
    static func canonical(_ text: String) throws(ProtocolError) -> String {
        do throws(RecurrenceRuleError) {
            return try RecurrenceRule(parsing: text).text
        } catch {
            throw ProtocolError(.badArgument, "repeat=\(RequestParser.shorten(text)): \(error.description)")
        }
    }

    /// `2026-12-24` as a day of the calendar; nil if there is no such day.
    static func day(_ text: String) -> CivilDay? {
        guard RoomLimits.isDate(text), let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)),
              let day = Int(text.suffix(2)) else { return nil }
        return CivilDay.inCalendar(year: year, month: month, day: day)
    }

    /// In the reader process: the occurrences of `room` live or starting within `ahead`
    /// after `now` (all of the next `windowSeconds`, then the first `shownOccurrences`), or
    /// why the room cannot repeat. With `requireInstance` (the room is being added) a rule
    /// that gives no instance from the first start on is refused; a rule whose expansion
    /// runs out of `CalendarLimits.cpuSecondsPerSeries` is refused as too costly.
    public static func expand(_ room: LiveRoom, zone: Zone, now: Int64, defaultDuration: Int, ahead: Int64 = showSeconds,
                              requireInstance: Bool) -> Result<[OccurrenceSpan], ProtocolError> {
        let series: RecurringSeries
        switch self.series(of: room, zone: zone, defaultDuration: defaultDuration) {
        case .success(let made): series = made
        case .failure(let error): return .failure(error)
        }
        let rule = RequestParser.shorten(room.repeatRule ?? "")
        if requireInstance, !series.hasInstance {
            return .failure(ProtocolError(.badArgument, "repeat=\(rule) gives no occurrence after the first start (its parts never meet again, or it ends first); the room would not repeat"))
        }
        let window: CalendarWindow
        do throws(CalendarWindow.Failure) {
            window = try CalendarWindow(from: now - min(series.durationSeconds, 2 * 86_400), to: now + ahead)
        } catch {
            return .failure(ProtocolError(.badArgument, "the clock (\(now)) is outside the years a recurring room may have"))
        }
        let occurrences = series.occurrences(in: window)
        if occurrences.outOfTime {
            return .failure(ProtocolError(.badArgument, "repeat=\(rule) takes more than \(CalendarLimits.cpuSecondsPerSeries) s of CPU to expand; choose a rule that matches more often or starts later"))
        }
        // Everything in the rotation's window, then the few `live show` lists.
        let horizon = now + windowSeconds
        let near = occurrences.spans.prefix { $0.start <= horizon }
        return .success(Array(near) + occurrences.spans.dropFirst(near.count).prefix(shownOccurrences))
    }

    /// Refuses a recurring room whose series cannot be set up (its rule, the zone, the years
    /// of its first start), saying why. Nothing is iterated: the reader process does that.
    static func check(_ room: LiveRoom, zone: Zone, defaultDuration: Int) throws(ProtocolError) {
        if case .failure(let error) = series(of: room, zone: zone, defaultDuration: defaultDuration) {
            throw error
        }
    }

    /// The room's series: its first start on the zone's wall clock, its rule, skipped days
    /// and each occurrence's length (its own, or `defaultDuration`).
    private static func series(of room: LiveRoom, zone: Zone, defaultDuration: Int) -> Result<RecurringSeries, ProtocolError> {
        guard let text = room.repeatRule else { return .failure(ProtocolError(.badArgument, "room '\(room.id)' does not repeat")) }
        let rule: RecurrenceRule
        let calendarZone: CalendarZone
        do throws(RecurrenceRuleError) { rule = try RecurrenceRule(parsing: text) } catch {
            return .failure(ProtocolError(.badArgument, "repeat=\(RequestParser.shorten(text)): \(error.description)"))
        }
        do throws(CalendarZone.Failure) { calendarZone = try CalendarZone(named: zone.identifier) } catch {
            return .failure(ProtocolError(.badArgument, "the zone \(zone.identifier) cannot be read for recurring rooms (\(error)); set another timezone"))
        }
        let first = Int64(room.start.unixSeconds)
        guard let wall = calendarZone.wallClock(at: first) else {
            return .failure(ProtocolError(.badArgument, "the first start is outside the years a recurring room may have"))
        }
        let length = room.end.map { Int64(Int(clampingSeconds: $0.seconds(since: room.start).rounded())) } ?? Int64(defaultDuration)
        return .success(RecurringSeries(firstStart: wall, zone: calendarZone, rule: rule, skippedDays: Set((room.skippedDays ?? []).compactMap(day)),
                                        durationSeconds: min(max(length, 0), CalendarLimits.maximumEventSeconds)))
    }
}

/// A recurring room's occurrences as the reader process expanded them, for the series they
/// were expanded from (first start, end, rule, skipped days, zone): a room changed since, or
/// a new zone, no longer fits and is expanded again.
public struct RoomExpansion: Equatable, Sendable {
    public struct Series: Hashable, Sendable {
        public let start: Double
        public let end: Double?
        public let rule: String
        public let skippedDays: [String]
        public let zone: String

        public init(_ room: LiveRoom, zone: String) {
            self.init(start: room.start.secondsSince1970, end: room.end?.secondsSince1970, rule: room.repeatRule ?? "",
                      skippedDays: room.skippedDays ?? [], zone: zone)
        }

        public init(start: Double, end: Double?, rule: String, skippedDays: [String], zone: String) {
            self.start = start
            self.end = end
            self.rule = rule
            self.skippedDays = skippedDays
            self.zone = zone
        }

        /// A room of this series (what the reader process needs of it).
        public func room(id: String) -> LiveRoom {
            var room = LiveRoom(id: id, title: "", start: Instant(secondsSince1970: start), end: end.map { Instant(secondsSince1970: $0) },
                                repeatRule: rule)
            room.skippedDays = skippedDays.isEmpty ? nil : skippedDays
            return room
        }
    }

    public let series: Series
    /// Unix seconds; the service's own clock when expanded.
    public let spans: [OccurrenceSpan]

    public init(series: Series, spans: [OccurrenceSpan]) {
        self.series = series
        self.spans = spans
    }

    /// The occurrences as rooms of their own (same ID and title, their own start and end).
    func rooms(of room: LiveRoom) -> [LiveRoom] {
        spans.map { span in
            var occurrence = room
            occurrence.start = Instant(secondsSince1970: Double(span.start))
            occurrence.end = room.end == nil ? nil : Instant(secondsSince1970: Double(span.end))
            occurrence.startWallClock = nil
            return occurrence
        }
    }
}
