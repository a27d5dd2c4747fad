import Foundation

/// The JSON config file as written by the user. Every key is optional; `Settings.resolve`
/// fills in the defaults. Key names are snake_case, as documented in zaoan.conf(5).
///
/// Read with `ConfigDocument` (JSONC: comments and trailing commas allowed), each key's
/// value checked for its kind here; what `Settings` makes of the values is checked there.
public struct ConfigFile: Sendable, Equatable {
    public var language: String?
    public var city: String?
    public var timezone: String?
    public var cities: [String: String]?
    public var separator: String?
    public var greetings: [String: String]?
    public var timeFormat: String?
    public var idleTimeout: Int?
    public var formatterCacheSize: Int?
    public var maxConnections: Int?
    public var maxConnectionsPerUser: Int?
    public var reservedConnections: Int?
    public var outputSoftLimit: Int?
    public var outputSoftSeconds: Int?
    public var outputHardLimit: Int?
    public var stuckClientSeconds: Int?
    public var partialLineSeconds: Int?
    public var firstLineSeconds: Int?
    public var tickerPeriod: Int?
    public var maxRooms: Int?
    public var liveDefaultDuration: Int?
    public var soonThreshold: Int?
    public var statusTemplate: String?
    public var i3barMarkup: String?
    /// Read by `zaoan bar` (a client), checked here so typos are caught by check-config.
    public var barBlocks: [String]?
    public var barClockFormats: [String]?
    public var barClockZones: [String]?
    public var barURLOpener: [String]?
    public var barURLSchemes: [String]?
    public var adminGroup: String?
    /// `.ics` files and folders of them (vdir) whose events count like rooms, each a path or
    /// `{"path": ..., "name": ...}`.
    public var calendars: [CalendarEntry]?
    public var calendarWindowHours: Int?

    public init() {}

    /// A key's place in the struct, by the kind of value it takes.
    enum Field {
        case string(WritableKeyPath<ConfigFile, String?>)
        case integer(WritableKeyPath<ConfigFile, Int?>)
        case strings(WritableKeyPath<ConfigFile, [String]?>)
        /// An object of strings; `perEntry`: a bad entry is left out and the others kept
        /// (`cities`), rather than the whole key falling back to its default (`greetings`,
        /// whose rows make one table).
        case stringMap(WritableKeyPath<ConfigFile, [String: String]?>, perEntry: Bool)
        /// `calendars`: paths, or objects of a path and a name. An object that cannot be
        /// used is left out alone; an item of another kind spoils the list, as in `.strings`.
        case calendars(WritableKeyPath<ConfigFile, [CalendarEntry]?>)
    }

    /// Every key, in the order zaoan.conf(5) has them.
    static var fields: [(key: String, field: Field)] {
        [
            ("language", .string(\.language)), ("city", .string(\.city)), ("timezone", .string(\.timezone)),
            ("cities", .stringMap(\.cities, perEntry: true)), ("separator", .string(\.separator)),
            ("greetings", .stringMap(\.greetings, perEntry: false)),
            ("time_format", .string(\.timeFormat)), ("idle_timeout", .integer(\.idleTimeout)),
            ("formatter_cache_size", .integer(\.formatterCacheSize)), ("max_connections", .integer(\.maxConnections)),
            ("max_connections_per_user", .integer(\.maxConnectionsPerUser)),
            ("reserved_connections", .integer(\.reservedConnections)),
            ("output_soft_limit", .integer(\.outputSoftLimit)), ("output_soft_seconds", .integer(\.outputSoftSeconds)),
            ("output_hard_limit", .integer(\.outputHardLimit)), ("stuck_client_seconds", .integer(\.stuckClientSeconds)),
            ("partial_line_seconds", .integer(\.partialLineSeconds)), ("first_line_seconds", .integer(\.firstLineSeconds)),
            ("ticker_period", .integer(\.tickerPeriod)),
            ("max_rooms", .integer(\.maxRooms)), ("live_default_duration", .integer(\.liveDefaultDuration)),
            ("soon_threshold", .integer(\.soonThreshold)), ("status_template", .string(\.statusTemplate)),
            ("i3bar_markup", .string(\.i3barMarkup)), ("bar_blocks", .strings(\.barBlocks)),
            ("bar_clock_formats", .strings(\.barClockFormats)), ("bar_clock_zones", .strings(\.barClockZones)),
            ("bar_url_opener", .strings(\.barURLOpener)), ("bar_url_schemes", .strings(\.barURLSchemes)),
            ("admin_group", .string(\.adminGroup)), ("calendars", .calendars(\.calendars)),
            ("calendar_window_hours", .integer(\.calendarWindowHours)),
        ]
    }

    /// Every key the file may hold, for suggestions and the docs test.
    public static let knownKeys: [String] = fields.map(\.key)

    /// A file read: the values that can be used, what could not, and where each key and
    /// entry is (`Settings.resolve` places its own problems with it).
    public struct Reading: Sendable {
        public var file = ConfigFile()
        /// In file order. Each says what was done instead (`ConfigError.fallback`).
        public var problems: [ConfigError] = []
        /// The value of each key (`idle_timeout`), the key of each map entry
        /// (`cities.Gotham`) and each list item (`calendars.0`; `calendars.0.name` for an
        /// entry's name). An entry of `calendars` left out here has no place: `calendars.N`
        /// is the Nth entry kept, as `file.calendars` holds them.
        public var positions: [String: TextPosition] = [:]

        public init() {}

        init(file: ConfigFile, problems: [ConfigError], positions: [String: TextPosition]) {
            self.file = file
            self.problems = problems
            self.positions = positions
        }
    }

    /// Reads what can be used of a config file; never throws. An unknown key is ignored, a
    /// key whose value is of the wrong kind is left unset (its default), a file that is not
    /// JSON is read as empty — each a problem with its line and column.
    public static func read(_ bytes: [UInt8]) -> Reading {
        let document = ConfigDocument.read(bytes)
        var file = ConfigFile()
        var problems = document.problems
        var positions: [String: TextPosition] = [:]
        let byKey = Dictionary(fields.map { ($0.key, $0.field) }, uniquingKeysWith: { first, _ in first })
        for member in document.members {
            guard let field = byKey[member.key] else {
                let hint = Spelling.suggestion(for: member.key, among: knownKeys).map { "did you mean '\($0)'?" }
                    ?? "zaoan.conf(5) lists the keys"
                problems.append(ConfigError(key: RequestParser.shorten(member.key), problem: "unknown key; \(hint)",
                                            at: member.keyPosition, fallback: .ignored))
                continue
            }
            positions[member.key] = member.value.position
            do throws(ConfigError) {
                try file.assign(field, member.value, key: member.key, positions: &positions, problems: &problems)
            } catch {
                problems.append(error.with(.defaultUsed))
            }
        }
        return Reading(file: file, problems: ConfigError.inFileOrder(problems), positions: positions)
    }

    private mutating func assign(_ field: Field, _ value: JSONValue, key: String,
                                 positions: inout [String: TextPosition], problems: inout [ConfigError]) throws(ConfigError) {
        switch field {
        case .string(let path):
            self[keyPath: path] = try ConfigDocument.string(value, key: key)
        case .integer(let path):
            self[keyPath: path] = try ConfigDocument.integer(value, key: key)
        case .strings(let path):
            let list = try ConfigDocument.strings(value, key: key)
            for (index, item) in (value.items ?? []).enumerated() { positions["\(key).\(index)"] = item.position }
            self[keyPath: path] = list
        case .stringMap(let path, let perEntry):
            guard let map = try ConfigDocument.stringMap(value, key: key) else {
                self[keyPath: path] = nil
                return
            }
            for entry in map.entries { positions["\(key).\(entry.key)"] = entry.position }
            if let first = map.problems.first, !perEntry {
                problems += map.problems.dropFirst().map { $0.with(.defaultUsed) }
                throw first
            }
            problems += map.problems.map { $0.with(.entryLeftOut) }
            var entries: [String: String] = [:]
            for entry in map.entries { entries[entry.key] = entry.value }
            self[keyPath: path] = entries
        case .calendars(let path):
            self[keyPath: path] = try Self.calendarEntries(value, key: key, positions: &positions, problems: &problems)
        }
    }

    /// The members an entry of `calendars` may have.
    static let calendarEntryKeys = ["path", "name"]

    /// `calendars`' entries: a string is a path; an object needs a string `path` and may have
    /// a string `name` (null: none); an unknown key in it is ignored. A bad object is left
    /// out with its problem; an item of any other kind is thrown (the list's default).
    private static func calendarEntries(_ value: JSONValue, key: String, positions: inout [String: TextPosition],
                                        problems: inout [ConfigError]) throws(ConfigError) -> [CalendarEntry]? {
        guard case .array(let items) = value.kind else {
            if case .null = value.kind { return nil }
            throw ConfigError(key: key, problem: "expected an array of paths or {\"path\": ..., \"name\": ...} objects", at: value.position)
        }
        var entries: [CalendarEntry] = []
        for (index, item) in items.enumerated() {
            let place = "\(key).\(entries.count)"
            switch item.kind {
            case .string(let text):
                positions[place] = item.position
                entries.append(CalendarEntry(path: text))
            case .object(let members):
                let (unique, duplicates) = ConfigDocument.unique(members, under: "\(key).\(index)")
                var found = duplicates
                var path: String?, name: String?, namePosition: TextPosition?
                for member in unique {
                    do throws(ConfigError) {
                        switch member.key {
                        case "path": path = try ConfigDocument.string(member.value, key: "\(key).\(index).path")
                        case "name":
                            name = try ConfigDocument.string(member.value, key: "\(key).\(index).name")
                            namePosition = member.value.position
                        default:
                            let hint = Spelling.suggestion(for: member.key, among: calendarEntryKeys).map { "did you mean '\($0)'?" }
                                ?? "an entry has \"path\" and \"name\""
                            problems.append(ConfigError(key: "\(key).\(index).\(RequestParser.shorten(member.key))", problem: "unknown key; \(hint)",
                                                        at: member.keyPosition, fallback: .ignored))
                        }
                    } catch {
                        found.append(error)
                    }
                }
                if path == nil, found.isEmpty {
                    found.append(ConfigError(key: "\(key).\(index)", problem: "an entry needs \"path\", as {\"path\": \"/home/me/.local/share/calendars/work\", \"name\": \"Work\"}",
                                             at: item.position))
                }
                guard found.isEmpty, let path else {
                    problems += found.map { $0.with(.entryLeftOut) }
                    continue
                }
                positions[place] = item.position
                if let namePosition { positions[place + ".name"] = namePosition }
                entries.append(CalendarEntry(path: path, name: name))
            default:
                throw ConfigError(key: "\(key).\(index)", problem: "expected a path or a {\"path\": ..., \"name\": ...} object", at: item.position)
            }
        }
        return entries
    }

    /// Decodes a config file strictly: the first problem is thrown (tests, and callers that
    /// accept only a good file).
    public static func decode(_ data: Data) throws(ConfigError) -> ConfigFile {
        let reading = read(Array(data))
        if let first = reading.problems.first { throw first }
        return reading.file
    }
}
