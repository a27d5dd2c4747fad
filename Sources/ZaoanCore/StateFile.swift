import ZaoanRecurrence

/// The live rooms as they are stored in `state.json`: `{"version": 1, "rooms": [...]}`, each
/// room with `id`, `title`, `start` and optionally `end` (Unix seconds), `description`,
/// `viewers` and `start_wall_clock` (the start as written, when the clocks skipped or repeated it). Pure: the server's `StateStore` does the reading and writing.
///
/// Read by `JSONReader` (strict) and written by `JSONWriter`, zaoan's one JSON reader and
/// writer. Decoding trusts nothing: a file that is not this format is an error, and inside a good
/// file every room is checked on its own against the same rules `live add` applies
/// (`AcceptedTimes.room`, the ID and length limits). A bad room is dropped, and named in
/// `dropped`, and the others are kept.
public enum StateFile {
    public static let formatVersion = 1
    /// A bigger file is not read: 10,000 rooms with the longest titles and descriptions fit.
    public static let maxBytes = 64 << 20

    public struct Decoded: Sendable {
        public var schedule: LiveSchedule
        /// One line per room that was dropped: which room, and why.
        public var dropped: [String]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notStateFile(String)
        case otherVersion(Int)

        public var description: String {
            switch self {
            case .notStateFile(let why): return "is not a valid state file (\(why))"
            case .otherVersion(let version): return "has format version \(version); this zaoan reads version \(StateFile.formatVersion)"
            }
        }
    }

    /// The names the file gives a room's fields: what is read and what is written.
    enum Key: String, CaseIterable {
        case id, title, start, end, description, viewers
        case startWallClock = "start_wall_clock"
        case repeatRule = "repeat"
        case skippedDays = "skip"
        /// `["S-600"]`: `Alarm.wire` texts, at most `RoomLimits.maxAlarms`.
        case alarms
    }

    /// What the reader takes: strict JSON of at most `maxBytes`, strings as long as the file
    /// (a room's are checked on their own, so one too long drops that room), and values
    /// enough for `Settings.maxRoomsCeiling` recurring rooms with every skipped day.
    static let limits = JSONReader.Limits(maxBytes: maxBytes, maxDepth: 32, maxStringBytes: maxBytes,
                                          maxNumberLength: 1_000, maxValues: 4_000_000)

    /// Reads a state file through the one JSON reader (strict). A key twice at the top level
    /// makes the file unreadable; in a room, it drops that room.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> Decoded {
        let root: JSONValue
        do {
            root = try JSONReader.read(bytes, dialect: .strict, limits: limits, duplicateKeys: .kept)
        } catch {
            throw .notStateFile("not JSON: \(error)")
        }
        guard let members = root.members else { throw .notStateFile("not an object") }
        for name in ["version", "rooms", "reminders", "privacy"] where members.filter({ $0.key == name }).count > 1 {
            throw .notStateFile("'\(name)' appears twice")
        }
        guard let versionValue = root["version"] else { throw .notStateFile("no 'version'") }
        guard let roomsValue = root["rooms"] else { throw .notStateFile("no 'rooms'") }
        guard let version = versionValue.integer else { throw .notStateFile("'version' has the wrong type") }
        guard let items = roomsValue.items else { throw .notStateFile("'rooms' has the wrong type") }
        guard version == formatVersion else { throw .otherVersion(version) }
        var schedule = LiveSchedule()
        var dropped: [String] = []
        for (index, item) in items.enumerated() {
            do throws(Problem) {
                let room = try Self.room(item)
                if schedule.rooms[room.id] != nil {
                    dropped.append("room \(index + 1) '\(room.id)': the ID appears twice; the later one is kept")
                }
                schedule.insertLoaded(room)
            } catch {
                let id = item["id"]?.string  // only to name the room
                dropped.append("room \(index + 1)\(id.map { " '\(RequestParser.shorten($0))'" } ?? ""): \(error.text)")
            }
        }
        if let value = root["reminders"] {
            schedule.reminders = StateFileReminders.decode(value, dropped: &dropped)
        }
        if let value = root["privacy"] {
            if let on = value.bool {
                schedule.privacy = on
            } else {
                // In doubt, hidden: a screen being shared shows nothing it should not.
                schedule.privacy = true
                dropped.append("'privacy' is not true or false; titles stay hidden until privacy off")
            }
        }
        return Decoded(schedule: schedule, dropped: dropped)
    }

    /// The file's bytes, rooms by start then ID, so a diff of two saves is readable; laid out
    /// as every version has written it (`JSONWriter.Layout.stateFile`).
    public static func encode(_ schedule: LiveSchedule) -> [UInt8] {
        let rooms = schedule.sorted.map { room -> JSONWriter.Value in
            var fields: [(Key, JSONWriter.Value)] = [(.id, .string(room.id)), (.title, .string(room.title)),
                                                     (.start, .double(room.start.secondsSince1970))]
            if let end = room.end { fields.append((.end, .double(end.secondsSince1970))) }
            if let description = room.description { fields.append((.description, .string(description))) }
            if let viewers = room.viewers { fields.append((.viewers, .integer(viewers))) }
            if let wallClock = room.startWallClock { fields.append((.startWallClock, .integer(wallClock))) }
            if let rule = room.repeatRule { fields.append((.repeatRule, .string(rule))) }
            if let skipped = room.skippedDays { fields.append((.skippedDays, .array(skipped.map(JSONWriter.Value.string)))) }
            if !room.alarms.isEmpty { fields.append((.alarms, .array(room.alarms.map { .string($0.wire) }))) }
            return .object(fields.map { ($0.0.rawValue, $0.1) })
        }
        var top: [(String, JSONWriter.Value)] = [("version", .integer(formatVersion)), ("rooms", .array(rooms))]
        if let reminders = StateFileReminders.encode(schedule.reminders) { top.append(("reminders", reminders)) }
        if schedule.privacy { top.append(("privacy", .bool(true))) }
        let file = JSONWriter.Value.object(top)
        return Array(JSONWriter.write(file, layout: .stateFile).utf8)
    }

    struct Problem: Error { let text: String }

    /// One room, checked field by field against the rules `live add` applies; a problem
    /// drops this room, not the file.
    private static func room(_ value: JSONValue) throws(Problem) -> LiveRoom {
        guard let members = value.members else { throw Problem(text: "not an object") }
        // A field zaoan reads, twice: which one was meant is unknown. (Other keys are ignored.)
        var seen: [Key] = []
        for member in members {
            guard let key = Key(rawValue: member.key) else { continue }
            guard !seen.contains(key) else { throw Problem(text: "'\(key.rawValue)' appears twice") }
            seen.append(key)
        }
        /// The field's value; nil when absent or null.
        func field(_ key: Key) -> JSONValue? {
            guard let found = value[key.rawValue], !found.isNull else { return nil }
            return found
        }
        func wrongType(_ key: Key) -> Problem { Problem(text: "'\(key.rawValue)' has the wrong type") }
        func string(_ key: Key) throws(Problem) -> String? {
            guard let found = field(key) else { return nil }
            guard let text = found.string else { throw wrongType(key) }
            return text
        }
        func integer(_ key: Key) throws(Problem) -> Int? {
            guard let found = field(key) else { return nil }
            guard let whole = found.integer else { throw wrongType(key) }
            return whole
        }
        func seconds(_ key: Key) throws(Problem) -> Double? {
            guard let found = field(key) else { return nil }
            guard let number = found.number?.double else { throw wrongType(key) }
            return number
        }
        func strings(_ key: Key) throws(Problem) -> [String]? {
            guard let found = field(key) else { return nil }
            guard let items = found.items else { throw wrongType(key) }
            var list: [String] = []
            for item in items {
                guard let text = item.string else { throw wrongType(key) }
                list.append(text)
            }
            return list
        }

        guard let id = try string(.id), LiveRoom.isValidID(id) else {
            throw Problem(text: "no valid 'id' (1 to \(LiveRoom.maxIDLength) of A-Z a-z 0-9 _ -)")
        }
        let title = try string(.title) ?? ""
        guard title.utf8.count <= LiveRoom.maxTitleBytes else {
            throw Problem(text: "the title is longer than \(LiveRoom.maxTitleBytes) bytes")
        }
        let description = try string(.description)
        guard (description?.utf8.count ?? 0) <= LiveRoom.maxDescriptionBytes else {
            throw Problem(text: "the description is longer than \(LiveRoom.maxDescriptionBytes) bytes")
        }
        let viewers = try integer(.viewers)
        guard (viewers ?? 0) >= 0 else { throw Problem(text: "'viewers' is negative") }
        guard let start = try seconds(.start) else { throw Problem(text: "no 'start'") }
        let end = try seconds(.end)
        for (name, value) in [("start", start), ("end", end)] {
            guard let value else { continue }
            guard value.isFinite, AcceptedTimes.room.contains(Instant(secondsSince1970: value)) else {
                throw Problem(text: "'\(name)' \(value) is outside the accepted times, \(AcceptedTimes.room.description)")
            }
        }
        if let end, end <= start { throw Problem(text: "'end' is not after 'start'") }
        // Only a note for `live show`: a value that cannot be the start's wall-clock time
        // (more than a day from it) is dropped, not the room.
        let wallClock = try integer(.startWallClock).flatMap { abs($0 / 2 - Int(clampingSeconds: start) / 2) <= 43_200 ? $0 : nil }
        // A rule the engine does not take (edited by hand, or hostile) drops the room.
        let rule = try string(.repeatRule)
        if let rule {
            guard rule.utf8.count <= RoomLimits.maxRepeatRuleBytes else { throw Problem(text: "'repeat' is not a rule zaoan writes (FREQ=...)") }
            do throws(ProtocolError) {
                // zaoan saves rules in their normal form: anything else was not written by it.
                guard try RoomRecurrence.canonical(rule) == rule else { throw ProtocolError(.badArgument, "not in its normal form") }
            } catch {
                throw Problem(text: "'repeat' is not a rule zaoan writes (FREQ=...): \(error.message)")
            }
        }
        let skipped = try strings(.skippedDays)
        if let skipped {
            guard rule != nil, skipped.count <= RoomLimits.maxSkippedDays, skipped.allSatisfy({ RoomRecurrence.day($0) != nil }) else {
                throw Problem(text: "'skip' must list at most \(RoomLimits.maxSkippedDays) days (2026-12-24) of a recurring room")
            }
        }
        let alarmTexts = try strings(.alarms) ?? []
        let alarms = alarmTexts.compactMap(Alarm.init(wire:))
        guard alarms.count == alarmTexts.count, alarms.count <= RoomLimits.maxAlarms else {
            throw Problem(text: "'alarms' must list at most \(RoomLimits.maxAlarms) alarms as zaoan writes them (S-600)")
        }
        var room = LiveRoom(id: id, title: title, start: Instant(secondsSince1970: start),
                            end: end.map { Instant(secondsSince1970: $0) }, description: description, viewers: viewers,
                            startWallClock: wallClock, repeatRule: rule)
        room.skippedDays = skipped.map { Array(Set($0)).sorted() }
        room.alarms = alarms
        return room
    }
}
