import ZaoanText

/// One key of the config file: its name, what its value must be, and what it does. The
/// table (`ConfigKey.all`) is the only place key names are written: the service's reader
/// (`ConfigFile.read`) and `zaoan bar`'s (`BarConfig.read`) take keys from it, unknown keys
/// are matched against it for "did you mean" (`Spelling`), a whole number is checked
/// against its bounds here, and docs/configuration.md and zaoan.conf(5) are tested to list
/// exactly these keys.
///
/// Adding a key is one row here (and one in `all`), its use where the settings are made
/// (`Settings.resolving`: `problems.integer(.theKey, in: file)` for a bounded number), and
/// its line in docs/configuration.md, which the tests hold to this table.
public struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    /// What the value must be (the reader's check; what it means is `Settings`' to check).
    public enum Kind: Sendable, Hashable {
        case string
        /// A whole number in `range`, `default` when absent. Both nil when they depend on
        /// another key (`max_connections_per_user` ≤ `max_connections`): `Settings` checks those.
        case integer(range: ClosedRange<Int>?, default: Int?)
        /// Seconds: a whole number, or a duration as `alarm=` and `remind snooze` write it
        /// (`30s`, `5m`, `1h`), within `range`.
        case seconds(range: ClosedRange<Int>, default: Int)
        case strings
        /// An object of strings: a bad entry is left out and the others kept (a bad value
        /// costs only itself).
        case stringMap
        /// Paths, or objects of a path and a name (`calendars`).
        case calendars
        /// `true` or `false`, `default` when absent.
        case boolean(default: Bool)
        /// An object whose members `Settings` reads (`countdown_formats`, `countdown_levels`).
        case object
        /// Blocks → buttons → actions (`bar_clicks`), checked as a whole by `BarClicks`.
        case clickTable
    }

    public let name: String
    public let kind: Kind
    /// What it is for, in one line.
    public let summary: String

    public init(_ name: String, _ kind: Kind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }

    public var description: String { name }

    /// The row named `name`, if there is one.
    public static func named(_ name: String) -> ConfigKey? { byName[name] }

    private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// A whole number's fixed bounds, if it has them.
    public var range: ClosedRange<Int>? {
        if case .integer(let range, _) = kind { return range }
        if case .seconds(let range, _) = kind { return range }
        return nil
    }

    /// A flag's default.
    public var defaultBoolean: Bool? {
        if case .boolean(let value) = kind { return value }
        return nil
    }

    /// A whole number's default, when it does not depend on another key.
    public var defaultInteger: Int? {
        if case .integer(_, let value) = kind { return value }
        if case .seconds(_, let value) = kind { return value }
        return nil
    }

    /// Every key (the order "did you mean" breaks ties in).
    public static let all: [ConfigKey] = [
        .language, .city, .timezone, .cities, .separator, .greetings, .timeFormat, .hourCycle, .idleTimeout, .formatterCacheSize,
        .maxConnections, .maxConnectionsPerUser, .reservedConnections, .outputSoftLimit, .outputSoftSeconds,
        .outputHardLimit, .stuckClientSeconds, .partialLineSeconds, .firstLineSeconds, .tickerPeriod, .maxRooms, .liveDefaultDuration, .soonThreshold, .beforeEnd, .nag,
        .countdownFormats, .countdownLevels, .statusTemplate, .tooltipTemplate, .icons,
        .i3barMarkup, .barBlocks, .barClockFormats, .barClockZones, .barURLOpener, .barURLSchemes, .barClicks, .adminGroup,
        .calendars, .calendarWindowHours, .festivals, .weekStart, .lunar, .workdays, .workdaysExtra,
    ]

    // MARK: - The keys

    public static let language = ConfigKey("language", .string, "a BCP 47 tag, \"zh\", \"zh-Hant\", \"en\", \"ja\", \"ko\", \"de\", \"fr\" or \"es\" (regions such as \"zh-TW\" or \"de-AT\" taken): greetings, countdowns and dates")
    public static let city = ConfigKey("city", .string, "the default city, ending the greeting")
    public static let timezone = ConfigKey("timezone", .string, "the IANA zone of times and greetings")
    public static let cities = ConfigKey("cities", .stringMap, "more cities: name → IANA zone")
    public static let separator = ConfigKey("separator", .string, "between greeting and city")
    public static let greetings = ConfigKey("greetings", .stringMap, "the greeting table: \"HH:MM\" → text")
    public static let timeFormat = ConfigKey("time_format", .string, "the pattern of time and {time}")
    public static let hourCycle = ConfigKey("hour_cycle", .string, "the default clock's hours: \"h12\" or \"h23\" (default: CLDR's for the language's region)")
    public static let idleTimeout = ConfigKey("idle_timeout", .integer(range: 1...86_400, default: 300), "seconds a quiet session stays open")
    public static let formatterCacheSize = ConfigKey("formatter_cache_size", .integer(range: 1...10_000, default: 64), "date formatters kept")
    public static let maxConnections = ConfigKey("max_connections", .integer(range: 1...65_536, default: 1_024), "connections open at once")
    public static let maxConnectionsPerUser = ConfigKey("max_connections_per_user", .integer(range: nil, default: nil), "connections one uid may hold, 1 to max_connections")
    public static let reservedConnections = ConfigKey("reserved_connections", .integer(range: nil, default: nil), "slots kept for the service's user, root and admin_group")
    public static let outputHardLimit = ConfigKey("output_hard_limit", .integer(range: nil, default: nil), "bytes of unread answers that close a connection at once")
    public static let outputSoftLimit = ConfigKey("output_soft_limit", .integer(range: nil, default: nil), "bytes of unread answers allowed for output_soft_seconds")
    public static let outputSoftSeconds = ConfigKey("output_soft_seconds", .integer(range: 1...3_600, default: 10), "seconds above output_soft_limit before closing")
    public static let stuckClientSeconds = ConfigKey("stuck_client_seconds", .integer(range: 1...3_600, default: 30), "seconds a client may leave its answers unread before it is closed")
    public static let partialLineSeconds = ConfigKey("partial_line_seconds", .integer(range: 1...3_600, default: 10), "seconds a started line has to end")
    public static let firstLineSeconds = ConfigKey("first_line_seconds", .integer(range: 1...3_600, default: 10), "seconds a one-shot connection has to send its first line")
    public static let tickerPeriod = ConfigKey("ticker_period", .integer(range: 1...3_600, default: 3), "seconds ticker shows each room")
    public static let maxRooms = ConfigKey("max_rooms", .integer(range: 1...10_000, default: 1_000), "live rooms stored")
    public static let liveDefaultDuration = ConfigKey("live_default_duration", .integer(range: 1...604_800, default: 7_200), "seconds a room without an end is live")
    public static let soonThreshold = ConfigKey("soon_threshold", .integer(range: 1...604_800, default: 600), "seconds before a start that are soon")
    public static let beforeEnd = ConfigKey("before_end", .seconds(range: 0...86_400, default: 0), "how long before an end watch events says a room or event is ending: 300 or \"5m\" (0: never)")
    public static let nag = ConfigKey("nag", .boolean(default: false), "an alarm that fired fires again every minute until snoozed or dismissed")
    public static let countdownFormats = ConfigKey("countdown_formats", .object, "named sets of countdown templates: upcoming, live, ended, none")
    public static let countdownLevels = ConfigKey("countdown_levels", .object, "warning and critical thresholds and colours, live and ended colours")
    public static let statusTemplate = ConfigKey("status_template", .string, "the status line, with placeholders")
    public static let tooltipTemplate = ConfigKey("tooltip_template", .string, "status's waybar tooltip, with placeholders and {agenda}")
    public static let icons = ConfigKey("icons", .object, "a glyph per state and meeting service for {icon}: {\"live\": \"\\uf03d\", \"zoom\": \"...\"}")
    public static let i3barMarkup = ConfigKey("i3bar_markup", .string, "\"none\" or \"pango\" for i3bar blocks")
    public static let barBlocks = ConfigKey("bar_blocks", .strings, "the blocks of zaoan bar, left to right")
    public static let barClockFormats = ConfigKey("bar_clock_formats", .strings, "what a click on a time block cycles through")
    public static let barClockZones = ConfigKey("bar_clock_zones", .strings, "zones a middle click on a time block cycles through")
    public static let calendars = ConfigKey("calendars", .calendars, ".ics files and vdir folders whose events count like rooms")
    public static let calendarWindowHours = ConfigKey("calendar_window_hours", .integer(range: 1...Request.maxScheduleHours, default: ScheduleDefaults.calendarWindowHours), "hours of calendar events expanded ahead")
    public static let weekStart = ConfigKey("week_start", .string, "the month grid's first weekday: \"monday\", \"sunday\" or \"saturday\" (default: CLDR's for the language's region)")
    public static let lunar = ConfigKey("lunar", .boolean(default: false), "lunar days under the month grid's days (default on for zh and zh-Hant)")
    public static let workdays = ConfigKey("workdays", .string, "\"cn\": China's public holidays and make-up workdays, or \"none\" (default cn for zh in China's zone)")
    public static let workdaysExtra = ConfigKey("workdays_extra", .stringMap, "days the shipped holiday table lacks: {\"2027-02-07\": \"makeup-workday\", \"2027-02-11\": \"spring-festival\"}")
    public static let festivals = ConfigKey("festivals", .boolean(default: false), "the Chinese calendar's festivals as all-day events")
    public static let barURLOpener = ConfigKey("bar_url_opener", .strings, "the command a click on an event's URL runs")
    public static let barURLSchemes = ConfigKey("bar_url_schemes", .strings, "the only URL schemes a click opens")
    public static let barClicks = ConfigKey("bar_clicks", .clickTable, "what each button does on each bar block: an action or a command")
    public static let adminGroup = ConfigKey("admin_group", .string, "a group whose members may change rooms and reload")
}
