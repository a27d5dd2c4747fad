import ZaoanRecurrence
/// Properties written without a value: `RRULE:` (calendarlabs.com's holiday feeds write one
/// in every event), `EXDATE:`, `DTEND:`. RFC 5545 gives none of them an empty value, and
/// libical drops each with an error. An event is read as if the empty property were not
/// there — no RRULE: it counts once; no DTEND: its DTSTART and DURATION say how long — and
/// the file's problems say so, once. An empty DTSTART or RECURRENCE-ID still leaves its
/// event out: without them there is no time, or no instance, to show it at.
enum EmptyValues {
    /// The properties an event is read without when they are empty.
    static let readAsAbsent: Set<String> = ["DTEND", "DURATION", "RRULE", "RDATE", "EXDATE"]

    /// `lines` split into those the event must answer for and the empty ones it is read without.
    static func split(_ lines: [UnreadLine]) -> (unread: [(line: Int, property: String)], empty: [UnreadLine]) {
        var unread: [(line: Int, property: String)] = []
        var empty: [UnreadLine] = []
        for line in lines {
            if line.isEmpty && readAsAbsent.contains(line.property) { empty.append(line) } else { unread.append((line.line, line.property)) }
        }
        return (unread, empty)
    }
}

/// The empty values of one file's kept events, for one problem: per property, how many and
/// the first line; the event named when it is the only one.
struct EmptyValueNote {
    private var byProperty: [(property: String, count: Int, firstLine: Int)] = []
    private var firstUID: String?
    private var events = 0

    mutating func note(_ lines: [UnreadLine], uid: String) {
        guard !lines.isEmpty else { return }
        if firstUID == nil { firstUID = uid }
        events += 1
        for line in lines {
            if let index = byProperty.firstIndex(where: { $0.property == line.property }) {
                byProperty[index].count += 1
            } else {
                byProperty.append((line.property, 1, line.line))
            }
        }
    }

    func problem(source: String) -> CalendarProblem? {
        guard !byProperty.isEmpty else { return nil }
        let parts = byProperty.map { entry in
            "empty \(entry.property) on line \(entry.firstLine)" + (entry.count > 1 ? " and \(entry.count - 1) more" : "")
        }
        let message = parts.joined(separator: ", ") + ": each read as if it were not there (an event with an empty RRULE counts once)"
        return CalendarProblem(source: source, uid: events == 1 ? firstUID : nil, message: message)
    }
}
