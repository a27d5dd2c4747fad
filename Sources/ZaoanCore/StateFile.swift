import Foundation

/// The live rooms as they are stored in `state.json`: `{"version": 1, "rooms": [...]}`, each
/// room with `id`, `title`, `start` and optionally `end` (Unix seconds), `description`,
/// `viewers` and `start_wall_clock` (the start as written, when the clocks skipped or repeated it). Pure: the server's `StateStore` does the reading and writing.
///
/// Decoding trusts nothing: a file that is not this format is an error, and inside a good
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

    public static func decode(_ data: Data) throws(Failure) -> Decoded {
        let file: RawFile
        do {
            file = try JSONDecoder().decode(RawFile.self, from: data)
        } catch {
            throw .notStateFile(Self.describe(error))
        }
        guard file.version == formatVersion else { throw .otherVersion(file.version) }
        var schedule = LiveSchedule()
        var dropped: [String] = []
        for (index, raw) in file.rooms.enumerated() {
            switch raw.room {
            case .success(let room):
                if schedule.rooms[room.id] != nil {
                    dropped.append("room \(index + 1) '\(room.id)': the ID appears twice; the later one is kept")
                }
                schedule.insertLoaded(room)
            case .failure(let problem):
                dropped.append("room \(index + 1)\(raw.id.map { " '\(RequestParser.shorten($0))'" } ?? ""): \(problem.text)")
            }
        }
        return Decoded(schedule: schedule, dropped: dropped)
    }

    /// The file's bytes, rooms by start then ID, so a diff of two saves is readable.
    public static func encode(_ schedule: LiveSchedule) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Strings, finite numbers and optionals only: encoding cannot fail.
        return (try? encoder.encode(Written(version: formatVersion, rooms: schedule.sorted))) ?? Data()
    }

    private struct Written: Encodable {
        var version: Int
        var rooms: [LiveRoom]
    }

    private struct RawFile: Decodable {
        var version: Int
        var rooms: [RawRoom]
    }

    struct Problem: Error { let text: String }

    /// One room, decoded field by field so that a bad field drops this room, not the file.
    private struct RawRoom: Decodable {
        var id: String?
        var room: Result<LiveRoom, Problem>

        enum Keys: String, CodingKey { case id, title, start, end, description, viewers, startWallClock = "start_wall_clock", repeatRule = "repeat", skippedDays = "skip" }

        init(from decoder: Decoder) throws {
            let container: KeyedDecodingContainer<Keys>
            do {
                container = try decoder.container(keyedBy: Keys.self)
            } catch {
                id = nil
                room = .failure(Problem(text: "not an object"))
                return
            }
            id = try? container.decodeIfPresent(String.self, forKey: .id)  // only to name the room if it is dropped
            do throws(Problem) {
                room = .success(try Self.check(container))
            } catch {
                room = .failure(error)
            }
        }

        private static func check(_ container: KeyedDecodingContainer<Keys>) throws(Problem) -> LiveRoom {
            func field<T: Decodable>(_ type: T.Type, _ key: Keys) throws(Problem) -> T? {
                do { return try container.decodeIfPresent(type, forKey: key) } catch {
                    throw Problem(text: "'\(key.rawValue)' has the wrong type")
                }
            }
            guard let id = try field(String.self, .id), LiveRoom.isValidID(id) else {
                throw Problem(text: "no valid 'id' (1 to \(LiveRoom.maxIDLength) of A-Z a-z 0-9 _ -)")
            }
            let title = try field(String.self, .title) ?? ""
            guard title.utf8.count <= LiveRoom.maxTitleBytes else {
                throw Problem(text: "the title is longer than \(LiveRoom.maxTitleBytes) bytes")
            }
            let description = try field(String.self, .description)
            guard (description?.utf8.count ?? 0) <= LiveRoom.maxDescriptionBytes else {
                throw Problem(text: "the description is longer than \(LiveRoom.maxDescriptionBytes) bytes")
            }
            let viewers = try field(Int.self, .viewers)
            guard (viewers ?? 0) >= 0 else { throw Problem(text: "'viewers' is negative") }
            guard let start = try field(Double.self, .start) else { throw Problem(text: "no 'start'") }
            let end = try field(Double.self, .end)
            for (name, value) in [("start", start), ("end", end)] {
                guard let value else { continue }
                guard value.isFinite, AcceptedTimes.room.contains(Date(timeIntervalSince1970: value)) else {
                    throw Problem(text: "'\(name)' \(value) is outside the accepted times, \(AcceptedTimes.room.description)")
                }
            }
            if let end, end <= start { throw Problem(text: "'end' is not after 'start'") }
            // Only a note for `live show`: a value that cannot be the start's wall-clock time
            // (more than a day from it) is dropped, not the room.
            let wallClock = try field(Int.self, .startWallClock).flatMap { abs($0 / 2 - Int(clampingSeconds: start) / 2) <= 43_200 ? $0 : nil }
            // A rule the engine does not take (edited by hand, or hostile) drops the room.
            let rule = try field(String.self, .repeatRule)
            if let rule {
                guard rule.utf8.count <= RoomLimits.maxRepeatRuleBytes else { throw Problem(text: "'repeat' is not a rule zaoan writes (FREQ=...)") }
                do throws(ProtocolError) {
                    // zaoan saves rules in their normal form: anything else was not written by it.
                    guard try RoomRecurrence.canonical(rule) == rule else { throw ProtocolError(.badArgument, "not in its normal form") }
                } catch {
                    throw Problem(text: "'repeat' is not a rule zaoan writes (FREQ=...): \(error.message)")
                }
            }
            let skipped = try field([String].self, .skippedDays)
            if let skipped {
                guard rule != nil, skipped.count <= RoomLimits.maxSkippedDays, skipped.allSatisfy({ RoomRecurrence.day($0) != nil }) else {
                    throw Problem(text: "'skip' must list at most \(RoomLimits.maxSkippedDays) days (2026-12-24) of a recurring room")
                }
            }
            var room = LiveRoom(id: id, title: title, start: Date(timeIntervalSince1970: start),
                                end: end.map { Date(timeIntervalSince1970: $0) }, description: description, viewers: viewers,
                                startWallClock: wallClock, repeatRule: rule)
            room.skippedDays = skipped.map { Array(Set($0)).sorted() }
            return room
        }
    }

    private static func describe(_ error: Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            return "not JSON" + (underlying.map { ": \($0)" } ?? "")
        case .keyNotFound(let key, _): return "no '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        @unknown default: return "\(error)"
        }
    }
}
