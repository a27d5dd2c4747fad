import ZaoanTime

/// What `event add` or `event rm` asks the server to do to a calendar folder: worked out
/// here, on the loop, from the request, the clock and the settings (everything that can be
/// refused without the disk is refused here); carried out off the loop (`CalendarWriter`).
public enum CalendarWrite: Equatable, Sendable {
    /// Write `text` as the file `EventUID.fileName(uid)` into the vdir folder `folder`,
    /// the calendar called `calendar`.
    case add(folder: String, calendar: String, uid: String, text: String)
    /// Remove the event `uid` (a UID `event add` made) from whichever of `folders` holds it,
    /// if zaoan wrote it.
    case remove(uid: String, folders: [String])
}

extension Responder {
    /// The write `event add` or `event rm` asks for.
    /// - Parameters:
    ///   - uid: the UID a new event gets (`EventUID.make`, from the kernel's random numbers).
    /// - Throws: `not-found` for a calendar the config does not name, `bad-argument` for a
    ///   calendar that is a file and not a folder, a time or rule that cannot be read, and
    ///   whatever `live add` refuses in its words.
    public func calendarWrite(_ request: Request, now: Instant, uid: String) throws(ProtocolError) -> CalendarWrite {
        switch request {
        case .room(.eventAdd, let draft):
            let (path, name) = try writableCalendar(named: draft.id)
            let room = try resolvedRoom(draft, now: now)
            // Whole seconds, clamped (never a trap): the room's times were checked by live add's
            // rules, the clock is the service's.
            func seconds(_ date: Instant) -> Int64 { Int64(Int(clampingSeconds: date.secondsSince1970.rounded(.down))) }
            let start = seconds(room.start)
            let info = settings.zone.info()
            let file = EventFile(uid: uid, stamp: seconds(now), start: start, end: room.end.map(seconds),
                                 zone: EventFile.zone(named: settings.zone.identifier, info: info, start: start),
                                 title: room.title, location: room.location, description: room.description,
                                 rule: room.repeatRule, alarms: room.alarms)
            return .add(folder: path, calendar: name, uid: uid, text: file.text)
        case .text(.eventRemove, let uid?):
            let folders = settings.calendars.map(\.path).filter { !Self.isCalendarFile($0) }
            guard !folders.isEmpty else {
                throw ProtocolError(.notFound, "no calendar folder to remove \(uid) from: the config names none (see \"calendars\" in zaoan.conf(5))")
            }
            return .remove(uid: uid, folders: folders)
        default:
            throw ProtocolError(.badArgument, "not a write to a calendar")
        }
    }

    /// The folder and the name of the configured calendar called `wanted` (in any case, as
    /// `schedule calendar=NAME` matches): the names the last reading gave (the config's, a
    /// `displayname`, the folder's name), or before any reading the config's and the
    /// folders' own. A calendar that is one `.ics` file is refused: `event add` writes one
    /// event per file, into a folder.
    private func writableCalendar(named wanted: String) throws(ProtocolError) -> (path: String, name: String) {
        try checkCalendar(wanted)
        let entries = settings.calendars
        let names = calendarNames.flatMap { $0.count == entries.count ? $0 : nil }
            ?? entries.map { $0.name ?? Self.folderName($0.path) }
        guard let index = names.firstIndex(where: { CalendarNameRule.matches($0, wanted) }) else {
            throw ProtocolError(.notFound, "no calendar '\(RequestParser.shorten(wanted))'; the calendars are: \(names.prefix(8).map(RequestParser.shorten).joined(separator: ", "))")
        }
        let path = entries[index].path
        guard !Self.isCalendarFile(path) else {
            throw ProtocolError(.badArgument, "calendar '\(RequestParser.shorten(names[index]))' is the file \(RequestParser.shorten(path)), not a folder; event add writes one event per file into a vdir folder (as vdirsyncer and khal keep them)")
        }
        return (path, names[index])
    }

    /// A `calendars` path naming one `.ics` file rather than a folder of them.
    static func isCalendarFile(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".ics")
    }

    /// A folder's or file's last component (a file's without `.ics`): the name a calendar
    /// has before it is read, as the reader gives it (`CalendarName.fallback`).
    static func folderName(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        var last = trimmed.split(separator: "/").last ?? trimmed
        if last.count > 4, last.lowercased().hasSuffix(".ics") { last = last.dropLast(4) }
        return String(last)
    }
}
