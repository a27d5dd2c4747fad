import ZaoanRecurrence
/// The zone a TZID names when its file has no VTIMEZONE for it (RFC 5545 3.2.19 asks for
/// one, but Outlook, Exchange and many feeds leave it out):
///
/// - an IANA name: `Europe/Berlin`;
/// - a Windows name, through CLDR's table (`WindowsZones`): `W. Europe Standard Time`;
/// - a name with a path before the IANA name, as libical and Mozilla wrote them:
///   `/freeassociation.sourceforge.net/Tzfile/Europe/Stockholm`,
///   `/freeassociation.sourceforge.net/Europe/Stockholm`, `/mozilla.org/20050126_1/Europe/Berlin`,
///   `/Europe/Stockholm`: the longest IANA name its last parts make.
///
/// Nil for anything else (the caller reads the time as floating and says so). Names come
/// from other people's files: a long one is not looked at, and only the checked names of
/// `CalendarZone(named:)` reach libical.
enum ZoneNames {
    /// Longer TZIDs are unknown without a look (the longest Windows name is 31 bytes, the
    /// libical prefix and an IANA name some 70).
    static let maximumBytes = 200
    /// Distinct TZIDs whose answer is kept while a file is read (a miss costs libical a
    /// look in /usr/share/zoneinfo, and 10,000 events may repeat one); when full, nothing
    /// more is kept. The answers go with the file (`forgetFile`): names from outside input
    /// do not pile up for the life of the process. Single-threaded, like the module.
    static let memoCapacity = 1024
    nonisolated(unsafe) private static var memo: [String: CalendarZone?] = [:]

    static func zone(forTZID tzid: String) -> CalendarZone? {
        guard tzid.utf8.count <= maximumBytes else { return nil }
        if let known = memo[tzid] { return known }
        let found = resolve(tzid)
        if memo.count < memoCapacity { memo[tzid] = .some(found) }
        return found
    }

    /// Called once a file is read.
    static func forgetFile() {
        memo = [:]
    }

    /// Each kind of name in turn; a name libical does not know is not an error here, only a
    /// reason to try the next kind (the caller names what none of them knew, once per file).
    private static func resolve(_ tzid: String) -> CalendarZone? {
        if let zone = try? CalendarZone(named: tzid) { return zone }  // not known: the next kind of name
        if let iana = WindowsZones.ianaName(forWindowsName: tzid) { return try? CalendarZone(named: iana) }
        guard tzid.hasPrefix("/") else { return nil }
        // IANA names have at most three parts (America/Argentina/Buenos_Aires).
        let parts = tzid.split(separator: "/")
        for count in stride(from: min(3, parts.count), through: 1, by: -1) {
            if let zone = try? CalendarZone(named: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }
}

/// The TZIDs of one file that name no zone (see `ZoneNames`): said once for the file, with
/// how many events it concerns (the event named when it is the only one), not once per event.
struct UnknownZoneNote {
    private(set) var names: [String] = []
    private(set) var events = 0
    private var firstUID: String?
    /// Names quoted in the problem; the rest are counted.
    static let namesShown = 3
    private var moreNames = false

    mutating func note(_ event: CalendarEvent) {
        let unknown = event.unknownZoneNames
        guard !unknown.isEmpty else { return }
        events += 1
        if firstUID == nil { firstUID = event.uid }
        for name in unknown where !names.contains(name) {
            if names.count < Self.namesShown { names.append(name) } else { moreNames = true }
        }
    }

    func problem(source: String) -> CalendarProblem? {
        guard let first = names.first else { return nil }
        var message = "unknown time zone '\(first)' (neither IANA nor Windows, and the file has no VTIMEZONE for it): "
        message += events == 1 ? "its times are read as floating, in the configured zone"
                               : "the times of the \(events) events in such zones are read as floating, in the configured zone"
        if names.count > 1 {
            message += "; other unknown TZIDs: " + names.dropFirst().map { "'\($0)'" }.joined(separator: ", ") + (moreNames ? " and more" : "")
        }
        return CalendarProblem(source: source, uid: events == 1 ? firstUID : nil, message: message)
    }
}

extension CalendarEvent {
    /// The TZIDs (shortened, safe to show) of its times that `ZoneNames` did not know.
    var unknownZoneNames: [String] {
        var found: [String] = []
        func add(_ time: EventTime?) {
            if let name = time?.unknownZone, !found.contains(name) { found.append(name) }
        }
        add(start)
        if case .at(let endTime) = end { add(endTime) }
        add(recurrenceID)
        for time in excluded { add(time) }
        for extra in extraStarts {
            add(extra.start)
            if case .at(let extraEnd) = extra.end { add(extraEnd) }
        }
        return found
    }
}
