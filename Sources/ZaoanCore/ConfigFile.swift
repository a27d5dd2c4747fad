import ZaoanRecurrence

/// The JSON config file as written by the user. Every key is optional; `Settings.resolve`
/// fills in the defaults. The keys, and what kind of value each takes, are `ConfigKey`'s
/// table (ZaoanProtocol, shared with `zaoan bar`); the values are kept by key.
///
/// Read with `ConfigDocument` (JSONC: comments and trailing commas allowed), each key's
/// value checked for its kind here; what `Settings` makes of the values is checked there.
public struct ConfigFile: Sendable, Equatable {
    /// A value as the file gives it, of the kind its key takes.
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case strings([String])
        case stringMap([String: String])
        case calendars([CalendarEntry])
        case boolean(Bool)
        /// An object as the file has it, read by `Settings` (`countdown_formats`).
        case object(JSONValue)
        /// A value checked by its key's own reader, kept as the file has it (`bar_clicks`,
        /// which `BarConfig` checks for the service and the bar alike).
        case json(JSONValue)
    }

    /// The keys the file sets (not null), by name.
    public var values: [String: Value] = [:]

    public init() {}

    public subscript(string key: ConfigKey) -> String? {
        get { if case .string(let text)? = values[key.name] { return text } else { return nil } }
        set { values[key.name] = newValue.map(Value.string) }
    }

    public subscript(integer key: ConfigKey) -> Int? {
        get { if case .integer(let number)? = values[key.name] { return number } else { return nil } }
        set { values[key.name] = newValue.map(Value.integer) }
    }

    public subscript(strings key: ConfigKey) -> [String]? {
        get { if case .strings(let list)? = values[key.name] { return list } else { return nil } }
        set { values[key.name] = newValue.map(Value.strings) }
    }

    public subscript(stringMap key: ConfigKey) -> [String: String]? {
        get { if case .stringMap(let map)? = values[key.name] { return map } else { return nil } }
        set { values[key.name] = newValue.map(Value.stringMap) }
    }

    public subscript(boolean key: ConfigKey) -> Bool? {
        get { if case .boolean(let flag)? = values[key.name] { return flag } else { return nil } }
        set { values[key.name] = newValue.map(Value.boolean) }
    }

    public subscript(object key: ConfigKey) -> JSONValue? {
        get { if case .object(let value)? = values[key.name] { return value } else { return nil } }
        set { values[key.name] = newValue.map(Value.object) }
    }

    public subscript(json key: ConfigKey) -> JSONValue? {
        get { if case .json(let value)? = values[key.name] { return value } else { return nil } }
        set { values[key.name] = newValue.map(Value.json) }
    }

    // The keys by Swift name, as the code and tests have long set them; a new key needs
    // none of these (`file[integer: .theKey]`).
    public var language: String? { get { self[string: .language] } set { self[string: .language] = newValue } }
    public var city: String? { get { self[string: .city] } set { self[string: .city] = newValue } }
    public var timezone: String? { get { self[string: .timezone] } set { self[string: .timezone] = newValue } }
    public var cities: [String: String]? { get { self[stringMap: .cities] } set { self[stringMap: .cities] = newValue } }
    public var separator: String? { get { self[string: .separator] } set { self[string: .separator] = newValue } }
    public var greetings: [String: String]? { get { self[stringMap: .greetings] } set { self[stringMap: .greetings] = newValue } }
    public var timeFormat: String? { get { self[string: .timeFormat] } set { self[string: .timeFormat] = newValue } }
    public var idleTimeout: Int? { get { self[integer: .idleTimeout] } set { self[integer: .idleTimeout] = newValue } }
    public var formatterCacheSize: Int? { get { self[integer: .formatterCacheSize] } set { self[integer: .formatterCacheSize] = newValue } }
    public var maxConnections: Int? { get { self[integer: .maxConnections] } set { self[integer: .maxConnections] = newValue } }
    public var maxConnectionsPerUser: Int? { get { self[integer: .maxConnectionsPerUser] } set { self[integer: .maxConnectionsPerUser] = newValue } }
    public var reservedConnections: Int? { get { self[integer: .reservedConnections] } set { self[integer: .reservedConnections] = newValue } }
    public var outputSoftLimit: Int? { get { self[integer: .outputSoftLimit] } set { self[integer: .outputSoftLimit] = newValue } }
    public var outputSoftSeconds: Int? { get { self[integer: .outputSoftSeconds] } set { self[integer: .outputSoftSeconds] = newValue } }
    public var outputHardLimit: Int? { get { self[integer: .outputHardLimit] } set { self[integer: .outputHardLimit] = newValue } }
    public var tickerPeriod: Int? { get { self[integer: .tickerPeriod] } set { self[integer: .tickerPeriod] = newValue } }
    public var maxRooms: Int? { get { self[integer: .maxRooms] } set { self[integer: .maxRooms] = newValue } }
    public var liveDefaultDuration: Int? { get { self[integer: .liveDefaultDuration] } set { self[integer: .liveDefaultDuration] = newValue } }
    public var soonThreshold: Int? { get { self[integer: .soonThreshold] } set { self[integer: .soonThreshold] = newValue } }
    public var statusTemplate: String? { get { self[string: .statusTemplate] } set { self[string: .statusTemplate] = newValue } }
    public var i3barMarkup: String? { get { self[string: .i3barMarkup] } set { self[string: .i3barMarkup] = newValue } }
    public var barBlocks: [String]? { get { self[strings: .barBlocks] } set { self[strings: .barBlocks] = newValue } }
    public var barClockFormats: [String]? { get { self[strings: .barClockFormats] } set { self[strings: .barClockFormats] = newValue } }
    public var barClockZones: [String]? { get { self[strings: .barClockZones] } set { self[strings: .barClockZones] = newValue } }
    public var barURLOpener: [String]? { get { self[strings: .barURLOpener] } set { self[strings: .barURLOpener] = newValue } }
    public var barURLSchemes: [String]? { get { self[strings: .barURLSchemes] } set { self[strings: .barURLSchemes] = newValue } }
    public var adminGroup: String? { get { self[string: .adminGroup] } set { self[string: .adminGroup] = newValue } }
    public var calendarWindowHours: Int? { get { self[integer: .calendarWindowHours] } set { self[integer: .calendarWindowHours] = newValue } }
    /// `.ics` files and folders of them (vdir) whose events count like rooms, each a path or
    /// `{"path": ..., "name": ...}`.
    public var calendars: [CalendarEntry]? {
        get { if case .calendars(let list)? = values[ConfigKey.calendars.name] { return list } else { return nil } }
        set { values[ConfigKey.calendars.name] = newValue.map(Value.calendars) }
    }

    /// Every key the file may hold, for suggestions and the docs tests.
    public static let knownKeys: [String] = ConfigKey.all.map(\.name)

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

    /// Unknown keys given a did-you-mean: far more than `stats` and the log list (10), and
    /// what a person mistypes; past them the problem names the manual page.
    static let keysSpelled = 64

    /// Reads what can be used of a config file; never throws. An unknown key is ignored, a
    /// key whose value is of the wrong kind is left unset (its default), a file that is not
    /// JSON is read as empty — each a problem with its line and column.
    public static func read(_ bytes: [UInt8]) -> Reading {
        let document = ConfigDocument.read(bytes)
        var file = ConfigFile()
        var problems = document.problems
        var positions: [String: TextPosition] = [:]
        var unknown = 0
        for member in document.members {
            guard let key = ConfigKey.named(member.key) else {
                // A suggestion is worked out for the first unknown keys only: a file of 30,000
                // of them took 0.3 s of the service's loop in spelling alone.
                unknown += 1
                let hint = (unknown <= Self.keysSpelled ? Spelling.suggestion(for: member.key, among: knownKeys).map { "did you mean '\($0)'?" } : nil)
                    ?? "zaoan.conf(5) lists the keys"
                problems.append(ConfigError(key: RequestParser.shorten(member.key), problem: "unknown key; \(hint)",
                                            at: member.keyPosition, fallback: .ignored))
                continue
            }
            positions[member.key] = member.value.position
            do throws(ConfigError) {
                file.values[key.name] = try Self.value(of: key, member.value, positions: &positions, problems: &problems)
            } catch {
                problems.append(error.with(.defaultUsed))
            }
        }
        return Reading(file: file, problems: ConfigError.inFileOrder(problems), positions: positions)
    }

    /// The value of `key` as the file has it, checked for its kind; nil for null.
    private static func value(of key: ConfigKey, _ value: JSONValue, positions: inout [String: TextPosition],
                              problems: inout [ConfigError]) throws(ConfigError) -> Value? {
        let name = key.name
        switch key.kind {
        case .string:
            return try ConfigDocument.string(value, key: name).map(Value.string)
        case .integer:
            return try ConfigDocument.integer(value, key: name).map(Value.integer)
        case .seconds:
            guard let text = value.string else { return try ConfigDocument.integer(value, key: name).map(Value.integer) }
            guard let seconds = Alarm.seconds(ofDuration: text), let whole = Int(exactly: seconds) else {
                throw ConfigError(key: name, problem: "expected seconds or a duration such as \"5m\", \"1h\" or \"30s\"; got '\(RequestParser.shorten(text))'",
                                  at: value.position)
            }
            return .integer(whole)
        case .strings:
            let list = try ConfigDocument.strings(value, key: name)
            for (index, item) in (value.items ?? []).enumerated() { positions["\(name).\(index)"] = item.position }
            return list.map(Value.strings)
        case .stringMap:
            guard let map = try ConfigDocument.stringMap(value, key: name) else { return nil }
            for entry in map.entries { positions["\(name).\(entry.key)"] = entry.position }
            problems += map.problems.map { $0.with(.entryLeftOut) }
            var entries: [String: String] = [:]
            for entry in map.entries { entries[entry.key] = entry.value }
            return .stringMap(entries)
        case .calendars:
            return try calendarEntries(value, key: name, positions: &positions, problems: &problems).map(Value.calendars)
        case .boolean:
            return try ConfigDocument.boolean(value, key: name).map(Value.boolean)
        case .object:
            switch value.kind {
            case .null: return nil
            case .object: return .object(value)
            default: throw ConfigError(key: name, problem: "expected an object", at: value.position)
            }
        case .clickTable:
            return value.isNull ? nil : .json(value)  // its shape is BarClicks' to check
        }
    }

    /// The members an entry of `calendars` may have.
    static let calendarEntryKeys = ["path", "name", "alarms", "color"]

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
                var path: String?, name: String?, namePosition: TextPosition?, alarms: [Alarm] = [], color: BarColor?
                for member in unique {
                    do throws(ConfigError) {
                        switch member.key {
                        case "path": path = try ConfigDocument.string(member.value, key: "\(key).\(index).path")
                        case "name":
                            do throws(ConfigError) {
                                name = try ConfigDocument.string(member.value, key: "\(key).\(index).name")
                                namePosition = member.value.position
                            } catch {
                                problems.append(error.with(.instead("the calendar is kept, named by its file or folder")))
                            }
                        case "alarms":
                            alarms = defaultAlarms(member.value, key: "\(key).\(index).alarms", problems: &problems)
                        case "color":
                            color = calendarColor(member.value, key: "\(key).\(index).color", problems: &problems)
                        default:
                            let hint = Spelling.hint(for: member.key, among: calendarEntryKeys,
                                otherwise: "an entry has \"path\", \"name\", \"alarms\" and \"color\"")
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
                entries.append(CalendarEntry(path: path, name: name, alarms: alarms, color: color))
            default:
                throw ConfigError(key: "\(key).\(index)", problem: "expected a path or a {\"path\": ..., \"name\": ...} object", at: item.position)
            }
        }
        return entries
    }

    /// A calendar's `color`: `#rrggbb` or a CSS name, as `countdown_levels` takes colours. A
    /// bad one costs that colour alone: the calendar is kept, its events in the bar's own colour.
    private static func calendarColor(_ value: JSONValue, key: String, problems: inout [ConfigError]) -> BarColor? {
        if case .string(let text) = value.kind, let color = BarColor(configured: text) { return color }
        let shown: String
        if case .string(let text) = value.kind { shown = "'\(RequestParser.shorten(SafeText.visible(text)))' is not" } else { shown = "expected" }
        problems.append(ConfigError(key: key, problem: "\(shown) a colour: write #rrggbb (six hex digits, e.g. #3366cc) or a CSS colour name (steelblue)",
                                    at: value.position, fallback: .instead("the calendar is kept, its events in the bar's own colour")))
        return nil
    }

    /// A calendar's default `alarms` (`["-10m", "-1m"]`): each bad offset is left out with
    /// its problem, the others kept; anything but an array of at most `RoomLimits.maxAlarms`
    /// strings leaves the calendar without default alarms, said so.
    private static func defaultAlarms(_ value: JSONValue, key: String, problems: inout [ConfigError]) -> [Alarm] {
        guard case .array(let items) = value.kind, items.count <= RoomLimits.maxAlarms else {
            problems.append(ConfigError(key: key, problem: "expected an array of at most \(RoomLimits.maxAlarms) offsets such as [\"-10m\", \"-1m\"]",
                                        at: value.position, fallback: .ignored))
            return []
        }
        var alarms: [Alarm] = []
        for (index, item) in items.enumerated() {
            do throws(Alarm.Problem) {
                guard case .string(let text) = item.kind else { throw Alarm.Problem(description: "expected a string such as \"-10m\"") }
                alarms.append(try Alarm(offset: text))
            } catch {
                problems.append(ConfigError(key: "\(key).\(index)", problem: error.description, at: item.position, fallback: .ignored))
            }
        }
        return alarms
    }

    /// Decodes a config file strictly: the first problem is thrown (tests, and callers that
    /// accept only a good file).
    public static func decode(_ bytes: [UInt8]) throws(ConfigError) -> ConfigFile {
        let reading = read(bytes)
        if let first = reading.problems.first { throw first }
        return reading.file
    }
}
