import ZaoanRecurrence
/// One occurrence of an event, as a prompt or a bar shows it. Texts are safe to print
/// (`CalendarText`) and bounded; `url` is as written (the consumer checks its scheme).
public struct CalendarOccurrence: Equatable, Sendable {
    public let uid: String
    /// The file path or name the event came from.
    public let source: String
    /// Unix seconds; for an all-day event, local midnight in the zone of the expansion.
    public let start: Int64
    public let end: Int64
    public let isAllDay: Bool
    public let title: String?
    public let location: String?
    public let description: String?
    public let url: String?
    /// Its event's link to join the meeting (`MeetingLink`).
    public let join: MeetingLink?
    public let status: CalendarEventStatus?
    /// Its event's alarms (an override's own replace the series').
    public let alarms: [Alarm]

    public init(uid: String, source: String, start: Int64, end: Int64, isAllDay: Bool, title: String?, location: String?,
                description: String?, url: String?, join: MeetingLink? = nil, status: CalendarEventStatus?, alarms: [Alarm] = []) {
        self.uid = uid
        self.source = source
        self.start = start
        self.end = end
        self.isAllDay = isAllDay
        self.title = title
        self.location = location
        self.description = description
        self.url = url
        self.join = join
        self.status = status
        self.alarms = alarms
    }

    /// Order of a list: by start, then end, then uid.
    static func ordered(_ a: CalendarOccurrence, _ b: CalendarOccurrence) -> Bool {
        (a.start, a.end, a.uid, a.source) < (b.start, b.end, b.uid, b.source)
    }
}

/// Something a source or an expansion left out, said so the user can act on it.
public struct CalendarProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let source: String
    /// The event concerned, when there is one.
    public let uid: String?
    public let message: String

    public init(source: String, uid: String?, message: String) {
        self.source = source
        self.uid = uid
        self.message = message
    }

    public var description: String {
        "\(SafeName.source(source)): " + (uid.map { "event \(SafeName.short($0)): " } ?? "") + message
    }
}

/// The occurrences of an expansion and what it had to leave out.
public struct CalendarExpansion: Sendable {
    /// In order of start (then end, uid), at most `CalendarLimits.occurrencesPerWindow`.
    public internal(set) var occurrences: [CalendarOccurrence] = []
    public internal(set) var problems: [CalendarProblem] = []

    /// The first occurrence starting at or after `now` (a binary search of the sorted list).
    public func next(after now: Int64) -> CalendarOccurrence? {
        occurrences.firstStarting(atOrAfter: now, start: \.start)
    }

    /// Sorts, and keeps the earliest `CalendarLimits.occurrencesPerWindow`, saying so.
    mutating func finish(source: String) {
        occurrences.sort(by: CalendarOccurrence.ordered)
        if occurrences.count > CalendarLimits.occurrencesPerWindow {
            problems.append(CalendarProblem(source: source, uid: nil,
                                            message: "\(occurrences.count) occurrences in the window; the first \(CalendarLimits.occurrencesPerWindow) are kept"))
            occurrences.removeSubrange(CalendarLimits.occurrencesPerWindow...)
        }
    }
}
