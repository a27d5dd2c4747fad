import ZaoanCalendar
import ZaoanCore
import ZaoanRecurrence
import ZaoanSystem

/// What the service asks its reader process (`ReaderProcess`) and what it answers: lines of
/// tab-separated fields, each field escaped (`\\`, `\t`, `\n`, `\r`), a one-letter tag first.
/// Both ends are zaoan's; the format is not a public interface.
///
/// The job (the reader's stdin, read whole before any work):
/// `Z zone`, `N now`, `T window-seconds`, `A rooms-ahead-seconds`, `U default-duration`,
/// `C calendar-path`, `K skipped-file`, `Y file identity events` (a file the service has
/// as it was at `identity`: not read again), `M id start end-or-empty rule skipped-days`, and
/// `V` to check that each room's rule gives any instance at all.
///
/// The answers (its stdout): progress first, so a supervisor that ends it knows where it was
/// — `F file`, `S file uid`, `R room-id` — then `Y file` (kept as the service has it),
/// `G file identity events` (read as it was at `identity`), `W reason` (a source waiting),
/// `L` (one loaded), `N calendar name` (the name a configured calendar gives itself:
/// a folder's `displayname`, a file's `X-WR-CALNAME`), `I place` (a folder or file to watch
/// besides the calendar's own: `CalendarSource.watchPlaces`), `P problem`, `Q source problem` (a file's or a folder's), `E uid source start end all-day title location description url
/// status alarms join provider` (an occurrence, `ReaderWire.eventFields`; all-day `1` or `0`, an absent text empty), `O room-id start end` (a room's occurrence), `X room-id reason` (a room refused),
/// and `D` when everything was read.
struct ReaderJob: Sendable, Equatable {
    var zone: String
    var now: Int64
    var windowSeconds = CalendarLimits.defaultWindowSeconds
    var calendars: [String] = []
    /// Files left out without being read: they ran out of time or memory before.
    var skippedFiles: [String] = []
    /// Files the service has from an earlier reading (`CalendarCache`): not read again
    /// while they are as they were.
    var knownFiles: [KnownFile] = []
    var rooms: [RoomSeries] = []
    /// How far ahead rooms are expanded (`live show` lists occurrences four weeks ahead).
    var roomsAhead = RoomRecurrence.showSeconds
    var defaultDuration = 0
    /// Refuse a room whose rule gives no instance at all (when it is added).
    var checkRooms = false

    /// A file read before: as it was then, and how many events it held.
    struct KnownFile: Sendable, Equatable {
        var path: String
        var identity: FileIdentity
        var events: Int
    }

    /// A recurring room to expand: its ID and series (the series' zone is `zone`).
    struct RoomSeries: Sendable, Equatable {
        var id: String
        var series: RoomExpansion.Series
    }

    var encoded: [UInt8] {
        var lines: [[String]] = [["Z", zone], ["N", String(now)], ["T", String(windowSeconds)], ["A", String(roomsAhead)],
                                 ["U", String(defaultDuration)]]
        lines += calendars.map { ["C", $0] } + skippedFiles.map { ["K", $0] }
        lines += knownFiles.map { ["Y", $0.path, $0.identity.description, String($0.events)] }
        lines += rooms.map { room in
            let series = room.series
            return ["M", room.id, String(series.start), series.end.map { String($0) } ?? "", series.rule, series.skippedDays.joined(separator: ",")]
        }
        if checkRooms { lines.append(["V"]) }
        return ReaderWire.encode(lines)
    }

    /// The job a reader read from its stdin; nil if it is not one.
    init?(decoding bytes: [UInt8]) {
        zone = "UTC"
        now = 0
        guard let lines = ReaderWire.lines(bytes) else { return nil }
        for fields in lines {
            switch (fields.first, fields.count) {
            case ("Z", 2): zone = fields[1]
            case ("N", 2): guard let value = Int64(fields[1]) else { return nil }; now = value
            case ("T", 2): guard let value = Int64(fields[1]) else { return nil }; windowSeconds = value
            case ("A", 2): guard let value = Int64(fields[1]) else { return nil }; roomsAhead = value
            case ("U", 2): guard let value = Int(fields[1]) else { return nil }; defaultDuration = value
            case ("C", 2): calendars.append(fields[1])
            case ("K", 2): skippedFiles.append(fields[1])
            case ("Y", 4):
                guard let identity = FileIdentity(fields[2]), let events = Int(fields[3]) else { return nil }
                knownFiles.append(KnownFile(path: fields[1], identity: identity, events: events))
            case ("M", 6):
                guard let start = Double(fields[2]) else { return nil }
                rooms.append(RoomSeries(id: fields[1], series: .init(start: start, end: Double(fields[3]), rule: fields[4],
                                                                     skippedDays: fields[5].split(separator: ",").map(String.init), zone: zone)))
            case ("V", 1): checkRooms = true
            default: return nil
            }
        }
    }

    init(zone: String, now: Int64) {
        self.zone = zone
        self.now = now
    }
}

/// What a reader found.
struct ReaderResult: Sendable, Equatable {
    var loaded = 0
    var waiting = 0
    var events: [CalendarOccurrence] = []
    var problems: [String] = []
    /// Each room's occurrences in the window, by ID (none for a room refused).
    var rooms: [String: [OccurrenceSpan]] = [:]
    /// Rooms whose rule cannot be expanded, with why.
    var refusedRooms: [String: String] = [:]
    /// Files read this time, each as it was when read, with its number of events.
    var readFiles: [String: ReadFile] = [:]
    /// Known files that were as the service had them: not read.
    var unchangedFiles: [String] = []
    /// Problems of a file or folder, by its path (`problems` holds the others).
    var sourceProblems: [SourceProblem] = []
    /// Where files of the calendars can change without an event in their folders
    /// (`CalendarSource.watchPlaces`), at most `keptWatchPlaces`; more are counted.
    var watchPlaces: Set<String> = []
    var watchPlacesNotKept = 0
    static let keptWatchPlaces = 1_024
    /// The names configured calendars give themselves (`CalendarName`), by the calendar's
    /// path: a folder's read at every reading, a file's when it was read.
    var names: [String: String] = [:]
    /// The reader got to the end (`D`).
    var finished = false
    /// Problems past `keptProblems`: counted, not kept (10,000 files of 40 costly series
    /// each would otherwise be 400,000 lines in the service's memory and log).
    var problemsNotKept = 0
    static let keptProblems = 1_000

    var problemCount: Int { problems.count + sourceProblems.count }

    mutating func keep(problem: String) {
        if problemCount < Self.keptProblems { problems.append(problem) } else { problemsNotKept += 1 }
    }

    struct ReadFile: Sendable, Equatable {
        var identity: FileIdentity
        var events: Int
    }

    struct SourceProblem: Sendable, Equatable {
        var source: String
        var text: String
    }

    init(problems: [String] = [], refusedRooms: [String: String] = [:]) {
        self.problems = problems
        self.refusedRooms = refusedRooms
    }
}

enum ReaderWire {
    /// An occurrence as an `E` line's fields, and back (nil for a line of another shape).
    static func eventFields(_ event: CalendarOccurrence) -> [String] {
        ["E", event.uid, event.source, String(event.start), String(event.end), event.isAllDay ? "1" : "0",
         event.title ?? "", event.location ?? "", event.description ?? "", event.url ?? "",
         event.status?.rawValue ?? "", Alarm.wire(event.alarms), event.join?.url ?? "", event.join?.provider?.name ?? ""]
    }

    static func event(_ fields: [String]) -> CalendarOccurrence? {
        guard fields.count == 14, fields[0] == "E" else { return nil }
        func number(_ index: Int) -> Int64 { Int64(fields[index]) ?? 0 }
        func text(_ index: Int) -> String? { fields[index].isEmpty ? nil : fields[index] }
        // The reader found and checked the link; what crosses back is checked again all the same.
        let join = text(12).flatMap(WebLink.checked).map { MeetingLink(url: $0, provider: MeetingProvider(name: fields[13])) }
        return CalendarOccurrence(uid: fields[1], source: fields[2], start: number(3), end: number(4), isAllDay: fields[5] == "1",
                                  title: text(6), location: text(7), description: text(8), url: text(9), join: join,
                                  status: CalendarEventStatus(rawValue: fields[10]), alarms: Alarm.list(wire: fields[11]))
    }

    static func encode(_ lines: [[String]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for fields in lines { append(fields, to: &bytes) }
        return bytes
    }

    static func append(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x09) }
            for byte in field.utf8 {
                switch byte {
                case 0x5C: bytes += [0x5C, 0x5C]
                case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
                case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
                case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(0x0A)
    }

    /// The longest line either side may send, in bytes. The longest zaoan writes is a room's
    /// spans (`O`: up to 10,000 instants of about 21 bytes); a longer line means a reader
    /// that went wrong, and the service stops reading it instead of holding all it sends.
    static let maxLineBytes = 1 << 20

    /// The lines of `bytes` (a whole job), each as its fields; nil if one is longer than
    /// `maxLineBytes`.
    static func lines(_ bytes: [UInt8]) -> [[String]]? {
        var framer = LineFramer(lineLimit: maxLineBytes)
        var collected = Collected()
        bytes.withUnsafeBytes { framer.feed($0) { collected.take($0) } }
        framer.finish { collected.take($0) }
        return collected.tooLong ? nil : collected.lines
    }

    /// The complete lines `chunk` ends, each as its fields, cut by `framer`, which keeps an
    /// unfinished line for the next chunk; nil once a line is longer than `maxLineBytes`.
    static func lines(in chunk: UnsafeRawBufferPointer, framer: inout LineFramer) -> [[String]]? {
        var collected = Collected()
        framer.feed(chunk) { collected.take($0) }
        return collected.tooLong ? nil : collected.lines
    }

    /// What the framer delivered: the non-empty lines as fields, and whether one was too long.
    private struct Collected {
        var lines: [[String]] = []
        var tooLong = false

        mutating func take(_ frame: LineFramer.Frame) -> Bool {
            switch frame {
            case .line(let line): if !line.isEmpty { lines.append(ReaderWire.fields(line)) }
            case .tooLong: tooLong = true
            }
            return true
        }
    }

    static func fields<Line: Sequence<UInt8>>(_ line: Line) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var escaped = false
        for byte in line {
            if escaped {
                switch byte {
                case UInt8(ascii: "t"): field.append(0x09)
                case UInt8(ascii: "n"): field.append(0x0A)
                case UInt8(ascii: "r"): field.append(0x0D)
                default: field.append(byte)
                }
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x09 {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else {
                field.append(byte)
            }
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
