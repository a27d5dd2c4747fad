import ZaoanRecurrence

/// Flags given to `zaoan serve` that override the config file.
public struct SettingsOverrides: Sendable, Equatable {
    public var city: String?
    public var timezone: String?
    public var language: String?
    public init(city: String? = nil, timezone: String? = nil, language: String? = nil) {
        self.city = city
        self.timezone = timezone
        self.language = language
    }
}

/// The configuration in force: every default filled in and every value checked.
public struct Settings: Sendable {
    public var language: Language
    public var city: String
    public var zone: Zone
    /// City name → zone: the built-in cities plus the config's `cities`.
    public var cities: [String: Zone]
    /// Every other city, by any of its names (GeoNames' cities15000): asked only for a name
    /// `cities` does not have (Settings+Gazetteer.swift).
    public var gazetteer: (any CityGazetteer)?
    /// Whether `zone` is the machine's: neither `timezone` nor `city` gave one. The service
    /// then follows the machine's zone as it changes (`withSystemZone`).
    public var followsSystemZone = false
    /// The entry of `cities` made for the machine's zone (its city was not known), taken
    /// out again when that zone changes.
    var systemZoneCity: String?
    public var greetings: GreetingTable
    public var separator: String
    public var timeFormat: String
    /// The clock's hours where zaoan picks the pattern (`time_format`'s default, the
    /// greeting's tooltip): `hour_cycle`, else the region's (`Settings+Clock`).
    public var hourCycle = HourCycle.h23
    public var idleTimeout: Int
    public var formatterCacheSize: Int
    public var maxConnections: Int
    /// Connections one uid may hold, unless it is the service's user, root or in
    /// `admin_group`.
    public var maxConnectionsPerUser: Int
    /// Slots of `maxConnections` only the service's user, root and `admin_group` may take.
    public var reservedConnections: Int
    /// How much unread output one connection may hold.
    public var outputLimits: OutputLimits
    /// A client whose unread answers have not moved for this long is closed.
    public var stuckClientSeconds = 30
    /// A line started must be finished within this many seconds.
    public var partialLineSeconds = 10
    /// A one-shot connection must send its first complete line within this many seconds.
    public var firstLineSeconds = 10
    /// Seconds each room stays on the ticker.
    public var tickerPeriod: Int
    public var maxRooms: Int
    /// How long a room without an end counts as live, in seconds.
    public var liveDefaultDuration: Int
    /// A room starting within this many seconds is `soon` (waybar class, i3bar urgent).
    public var soonThreshold: Int
    /// `before_end`: seconds before an end that `watch events` says it is ending; 0: never.
    public var beforeEnd = 0
    /// `nag`: an alarm that fired fires again every minute until snoozed or dismissed.
    public var nag = false
    /// `countdown_formats`: named sets of templates for what a countdown says; the set
    /// named `default` is used without `format=NAME`. Empty: today's text.
    public var countdownFormats: [String: CountdownFormatSet] = [:]
    /// `countdown_levels`: `warning` and `critical` beside `soon`, and the colours.
    public var countdownLevels = CountdownLevels()
    /// `status`'s line, with placeholders such as {greeting} {time} {countdown} {lunar} in it
    /// (`Responder.statusPlaceholders` lists them).
    public var statusTemplate: String
    /// `tooltip_template`: `status`'s waybar tooltip, with `{tooltip}` and `{agenda}` beside
    /// `status_template`'s placeholders; nil: the tooltip as it always was.
    public var tooltipTemplate: String?
    /// `icons`: `{icon}`'s glyph per state and meeting service; none by default.
    public var icons = Icons()
    /// Whether i3bar blocks use Pango markup (escaped) instead of `markup: none`.
    public var i3barPango: Bool
    /// Members of this group may change rooms and reload, besides the service's user and root.
    public var adminGroup: String?
    /// Calendar files and vdir folders (absolute paths), read and watched by the server,
    /// each with the name the config gives it, if any.
    public var calendars: [CalendarEntry] = []
    /// How far ahead calendar events are expanded and kept, in hours.
    public var calendarWindowHours = CalendarLimits.defaultWindowHours
    /// Whether the Chinese calendar's festivals are all-day events in `schedule`,
    /// `countdown`, `ticker`, `status` and `watch events` (`Responder+Festivals.swift`).
    public var festivals = false
    /// The month view's week, lunar days and workdays (`Settings+Month.swift`).
    public var month = MonthSettings(language: .en, zoneIdentifier: "UTC")

    /// At most this many `calendars` entries, each at most `maxCalendarPathBytes`.
    public static let maxCalendars = 64
    public static let maxCalendarPathBytes = 4096

    public static let defaultIdleTimeout = ConfigKey.idleTimeout.defaultInteger!
    public static let defaultFormatterCacheSize = ConfigKey.formatterCacheSize.defaultInteger!
    public static let defaultMaxConnections = ConfigKey.maxConnections.defaultInteger!
    public static let defaultReservedConnections = 32
    /// The most rooms `max_rooms` allows: the biggest `live list` stays under a connection's
    /// hard output limit.
    public static let maxRoomsCeiling = ConfigKey.maxRooms.range!.upperBound

    /// Resolves a config file, flags and the environment into settings; the first problem
    /// is thrown (`check-config` and `reload`, which take only a good file, use `resolving`
    /// and refuse on any).
    /// - Parameters:
    ///   - positions: where the file has each key (`ConfigFile.Reading.positions`), to place
    ///     the problems found here.
    ///   - environment: consulted for LC_ALL / LC_MESSAGES / LANG when no language is set,
    ///     and for TZ when no zone is set and `systemZone` is nil.
    ///   - systemZone: the machine's zone, used when neither city nor timezone is set; by
    ///     default `Zone.system(environment:)` (TZ, else /etc/localtime), asked only then.
    public static func resolve(
        _ file: ConfigFile,
        positions: [String: TextPosition] = [:],
        overrides: SettingsOverrides = SettingsOverrides(),
        environment: [String: String] = [:],
        systemZone: Zone? = nil,
        gazetteer: (any CityGazetteer)? = nil
    ) throws(ConfigError) -> Settings {
        let resolved = resolving(file, positions: positions, overrides: overrides, environment: environment, systemZone: systemZone,
                                 gazetteer: gazetteer)
        if let first = resolved.problems.first { throw first }
        return resolved.settings
    }

    /// Resolves everything that can be used: a key whose value fails its check is a problem
    /// and gets its built-in default (a bad entry of `cities` or `calendars` is left out),
    /// and the others stand. This is what `serve` starts with, whatever the file holds.
    public static func resolving(
        _ file: ConfigFile,
        positions: [String: TextPosition] = [:],
        overrides: SettingsOverrides = SettingsOverrides(),
        environment: [String: String] = [:],
        systemZone: Zone? = nil,
        gazetteer: (any CityGazetteer)? = nil
    ) -> (settings: Settings, problems: [ConfigError]) {
        var problems = ProblemList(positions: positions)

        var language = Language.fromEnvironment(environment)
        // The region the default clock's hour cycle follows: the configured tag's, else the
        // environment's locale's, else the language's own; none (24-hour, as glibc's C
        // locale) when neither the config nor the environment names a language.
        var region = Language.regionFromEnvironment(environment)
        var posixClock = !Language.namesLocale(environment)
        if let raw = overrides.language ?? file.language {
            if let parsed = Language(tag: raw) {
                language = parsed
                region = Language.region(ofTag: raw)
                posixClock = false
            } else {
                problems.add(ConfigError(key: ConfigKey.language.name,
                                         problem: "'\(RequestParser.shorten(raw))' is not a language zaoan speaks; use one of \(Language.acceptedTags) (a region may follow: \"zh-TW\", \"de-AT\")"),
                             .defaultUsed)
            }
        }

        var cities: [String: Zone] = [:]
        // Known-good names: each zone's file is read when a request first needs it, not all
        // of them at every start (`Zone.named` would read each to check it).
        for (name, zoneID) in BuiltinCities.byName {
            cities[name] = zoneID == "UTC" ? .utc : Zone(tzName: zoneID)
        }
        // In the file's order, each entry's place looked up once (not twice per comparison:
        // a 1 MiB config of cities took 0.3 s to sort on the loop).
        let placedCities = (file.cities ?? [:]).map { (place: problems.place("\(ConfigKey.cities.name).\($0.key)"), entry: $0) }
        for (name, zoneID) in placedCities.sorted(by: { $0.place < $1.place }).map(\.entry) {
            guard !name.isEmpty, !name.contains(where: { $0 == "\n" || $0 == "\r" }) else {
                problems.add(ConfigError(key: ConfigKey.cities.name, problem: "a city name must be non-empty and on one line"), .entryLeftOut, at: "\(ConfigKey.cities.name).\(name)")
                continue
            }
            guard let zone = Zone.named(zoneID) else {
                problems.add(zoneProblem(zoneID, key: "\(ConfigKey.cities.name).\(RequestParser.shorten(name))"), .entryLeftOut, at: "\(ConfigKey.cities.name).\(name)")
                continue
            }
            cities[name] = zone
        }

        let cityName = overrides.city ?? file.city
        var zoneName = overrides.timezone ?? file.timezone
        // A city neither built in nor in `cities`: the gazetteer's, shown as it names it.
        // Not asked when a timezone is set and the city is only its label.
        var found: GazetteerLookup?
        if let name = cityName, overrides.city != nil || zoneName == nil, lookUp(name, in: cities) == nil {
            found = gazetteerCity(name, in: gazetteer, language: language)
        }
        if overrides.city != nil, overrides.timezone == nil, let name = overrides.city,
           lookUp(name, in: cities) != nil || found?.place != nil {
            zoneName = nil  // --city 东京 means Tokyo's zone, whatever the file's timezone says
        }
        var zone: Zone?
        var zoneFailed = false
        if let zoneID = zoneName {
            zone = Zone.named(zoneID)
            if zone == nil {
                problems.add(zoneProblem(zoneID, key: overrides.timezone != nil ? "--timezone" : ConfigKey.timezone.name), .defaultUsed)
                zoneFailed = true
            }
        }
        var city: String?
        switch (cityName, zone) {
        case let (name?, known?):
            city = BuiltinCities.shownName(name, zone: known.identifier, language: language)
        case let (name?, nil):
            if let known = lookUp(name, in: cities) {
                city = BuiltinCities.shownName(name, zone: known.identifier, language: language)
                zone = known
            } else if let place = found?.place {
                city = place.name
                zone = place.zone
            } else if !zoneFailed {  // with a bad timezone, the city was only its label
                problems.add(ConfigError(key: overrides.city != nil ? "--city" : ConfigKey.city.name,
                                         problem: "unknown city '\(name)'\(found?.unavailableNote ?? ""); add it to \"cities\" with its IANA zone, e.g. {\"\(name)\": \"Asia/Shanghai\"}, or set \"timezone\""),
                             .defaultUsed)
            }
        case (nil, _):
            break
        }
        let resolvedZone = zone ?? systemZone ?? .system(environment: environment)
        let resolvedCity = city ?? BuiltinCities.name(forZone: resolvedZone.identifier, language: language)
        let addedCity = cities[resolvedCity] == nil
        cities[resolvedCity] = cities[resolvedCity] ?? resolvedZone

        var greetings = GreetingTable.standard(for: language)
        if let table = file.greetings {
            if table.isEmpty {
                problems.add(ConfigError(key: ConfigKey.greetings.name, problem: "needs at least one \"HH:MM\": \"text\" row"), .defaultUsed)
            } else {
                var rows: [GreetingPeriod] = []
                for (start, text) in table.map({ (place: problems.place("\(ConfigKey.greetings.name).\($0.key)"), entry: $0) })
                    .sorted(by: { $0.place < $1.place }).map(\.entry) {
                    guard let minutes = parseClockTime(start) else {
                        // The row costs only itself: the row before it runs on until the next.
                        problems.add(ConfigError(key: "\(ConfigKey.greetings.name).\(RequestParser.shorten(start))", problem: "start must be a time of day written HH:MM with two digits each, 00:00 to 23:59 (e.g. \"05:00\")"),
                                     .instead(table.count > 1 ? "the other rows stand; the row before it lasts until the next" : "using the default table"),
                                     at: "\(ConfigKey.greetings.name).\(start)")
                        continue
                    }
                    rows.append(GreetingPeriod(start: minutes, text: text))
                }
                if !rows.isEmpty { greetings = GreetingTable(rows) }
            }
        }

        let hourCycle = Self.hourCycle(file, language: language, region: region, posix: posixClock, problems: &problems)
        let defaultClock = hourCycle.clockPattern(language)
        var timeFormat = file.timeFormat ?? defaultClock
        if timeFormat.isEmpty {
            problems.add(ConfigError(key: ConfigKey.timeFormat.name, problem: "must not be empty; the default is \"\(defaultClock)\""), .defaultUsed)
            timeFormat = defaultClock
        }
        let idleTimeout = problems.integer(.idleTimeout, in: file)
        let cacheSize = problems.integer(.formatterCacheSize, in: file)
        let maxConnections = problems.integer(.maxConnections, in: file)
        let perUser = problems.integer(.maxConnectionsPerUser, in: file, 1...maxConnections, default: min(maxConnections, max(16, maxConnections / 8)))
        let hard = problems.integer(.outputHardLimit, in: file, OutputLimits.smallest...OutputLimits.largest, default: OutputLimits.standard.hard)
        let soft = problems.integer(.outputSoftLimit, in: file, OutputLimits.highWater...hard, default: min(OutputLimits.standard.soft, hard))
        let softSeconds = problems.integer(.outputSoftSeconds, in: file)
        let reserved = problems.integer(.reservedConnections, in: file, 0...(maxConnections - 1),
                                        default: min(defaultReservedConnections, maxConnections - 1))
        let tickerPeriod = problems.integer(.tickerPeriod, in: file)
        let maxRooms = problems.integer(.maxRooms, in: file)
        let liveDefaultDuration = problems.integer(.liveDefaultDuration, in: file)
        let soonThreshold = problems.integer(.soonThreshold, in: file)
        var statusTemplate = file.statusTemplate ?? defaultStatusTemplate
        if statusTemplate.contains(where: { $0 == "\n" || $0 == "\r" }) {
            problems.add(ConfigError(key: ConfigKey.statusTemplate.name, problem: "must be one line"), .defaultUsed)
            statusTemplate = defaultStatusTemplate
        }
        // The bar's keys: one rule for the service and `zaoan bar` (BarConfig); whether a
        // zone exists only the service can tell.
        let bar = BarConfig.checking(blocks: file[strings: .barBlocks], clockFormats: file[strings: .barClockFormats],
                                     clockZones: file[strings: .barClockZones], markup: file[string: .i3barMarkup],
                                     urlOpener: file[strings: .barURLOpener], urlSchemes: file[strings: .barURLSchemes],
                                     clicks: file[json: .barClicks])
        for problem in bar.problems { problems.add(problem, problem.fallback ?? .defaultUsed) }
        for (index, entry) in bar.config.clockZones.enumerated() where lookUp(entry, in: cities) == nil && Zone.named(entry) == nil
            && gazetteerCity(entry, in: gazetteer, language: language).place == nil {
            problems.add(ConfigError(key: ConfigKey.barClockZones.name, problem: "'\(RequestParser.shorten(entry))' is neither an IANA time zone (e.g. \"Asia/Tokyo\") nor a known city (built in, in \"cities\" or in the gazetteer)"),
                         .defaultUsed, at: "\(ConfigKey.barClockZones.name).\(index)")
            break
        }

        let calendars = Self.calendarPaths(file.calendars, problems: &problems)
        let windowHours = problems.integer(.calendarWindowHours, in: file)

        var settings = Settings(
            language: language, city: resolvedCity, zone: resolvedZone, cities: cities, greetings: greetings,
            separator: file.separator ?? GreetingTable.separator(for: language),
            timeFormat: timeFormat, idleTimeout: idleTimeout, formatterCacheSize: cacheSize,
            maxConnections: maxConnections, maxConnectionsPerUser: perUser, reservedConnections: reserved,
            outputLimits: OutputLimits(soft: soft, softSeconds: softSeconds, hard: hard), tickerPeriod: tickerPeriod, maxRooms: maxRooms,
            liveDefaultDuration: liveDefaultDuration, soonThreshold: soonThreshold,
            statusTemplate: statusTemplate, i3barPango: bar.config.pango,
            adminGroup: file.adminGroup.flatMap { $0.isEmpty ? nil : $0 })
        settings.gazetteer = gazetteer
        settings.hourCycle = hourCycle
        settings.followsSystemZone = zone == nil
        settings.systemZoneCity = zone == nil && addedCity ? resolvedCity : nil
        settings.calendars = calendars
        settings.calendarWindowHours = windowHours
        settings.festivals = file[boolean: .festivals] ?? ConfigKey.festivals.defaultBoolean!
        settings.nag = file[boolean: .nag] ?? ConfigKey.nag.defaultBoolean!
        settings.countdownFormats = countdownFormats(file[object: .countdownFormats], language: language, problems: &problems)
        settings.countdownLevels = countdownLevels(file[object: .countdownLevels], problems: &problems)
        settings.stuckClientSeconds = problems.integer(.stuckClientSeconds, in: file)
        settings.partialLineSeconds = problems.integer(.partialLineSeconds, in: file)
        settings.firstLineSeconds = problems.integer(.firstLineSeconds, in: file)
        settings.beforeEnd = problems.integer(.beforeEnd, in: file)
        settings.month = monthSettings(file, language: language, zoneIdentifier: resolvedZone.identifier, problems: &problems)
        settings.tooltipTemplate = tooltipTemplate(file[string: .tooltipTemplate], problems: &problems)
        settings.icons = icons(file[object: .icons], problems: &problems)
        return (settings, problems.all)
    }

    public static let defaultStatusTemplate = "{greeting} {time} {countdown}"

    /// `calendars`: absolute paths, one line each, no `..` part, at most `maxCalendars`,
    /// each name as `CalendarNameRule` has it (trimmed). A bad entry is left out; too many
    /// leave the key at its default (none).
    private static func calendarPaths(_ entries: [CalendarEntry]?, problems: inout ProblemList) -> [CalendarEntry] {
        guard let entries else { return [] }
        guard entries.count <= maxCalendars else {
            problems.add(ConfigError(key: ConfigKey.calendars.name, problem: "\(entries.count) entries; at most \(maxCalendars)"), .defaultUsed)
            return []
        }
        var kept: [CalendarEntry] = []
        for (index, entry) in entries.enumerated() {
            let path = entry.path
            let shown = RequestParser.shorten(SafeText.visible(path))
            guard path.hasPrefix("/"), path.utf8.count <= maxCalendarPathBytes,
                  !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                  !path.split(separator: "/").contains("..") else {
                problems.add(ConfigError(key: ConfigKey.calendars.name, problem: "'\(shown)' must be an absolute path to an .ics file or a folder of them, one line, without '..', at most \(maxCalendarPathBytes) bytes"),
                             .entryLeftOut, at: "\(ConfigKey.calendars.name).\(index)")
                continue
            }
            var name = entry.name.map(SafeText.trimmed)
            if let bad = name, let why = CalendarNameRule.problem(bad) {
                // The name costs only itself: the calendar is read, under its file's name.
                problems.add(ConfigError(key: ConfigKey.calendars.name, problem: "the name \(why)"), .instead("the calendar is kept, named by its file or folder"),
                             at: "\(ConfigKey.calendars.name).\(index).name")
                name = nil
            }
            kept.append(CalendarEntry(path: path, name: name, alarms: entry.alarms, color: entry.color))
        }
        return kept
    }

    /// Finds a city by exact name, then English names case-insensitively.
    public func zone(forCity name: String) -> Zone? {
        Settings.lookUp(name, in: cities)
    }

    static func lookUp(_ name: String, in cities: [String: Zone]) -> Zone? {
        cities[name] ?? cities[name.lowercased()]
    }

    private static func zoneProblem(_ identifier: String, key: String) -> ConfigError {
        ConfigError(key: key, problem: "'\(RequestParser.shorten(identifier))' is not an IANA time zone (e.g. \"Asia/Shanghai\", \"Europe/Berlin\")")
    }


    /// "HH:MM" → minutes after midnight. Only the canonical form: two ASCII digits each, so
    /// one minute has one spelling (`5:00`, `+5:00` and `05:00` cannot all name 05:00).
    static func parseClockTime(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func digit(_ index: Int) -> Int? {
            let byte = bytes[index]
            return byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
        }
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
              let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else { return nil }
        let hour = h1 * 10 + h2
        let minute = m1 * 10 + m2
        guard hour < 24, minute < 60 else { return nil }
        return hour * 60 + minute
    }
}

/// Redis's `client-output-buffer-limit` for zaoan's clients: answers a client has not read
/// yet may pass `soft` bytes for at most `softSeconds` in a row, and never `hard` bytes.
/// Past either, the service closes the connection (and counts it in `stats`).
public struct OutputLimits: Sendable, Equatable {
    public var soft: Int
    public var softSeconds: Int
    public var hard: Int

    /// Unread answers beyond this stop a connection taking more lines until it reads.
    public static let highWater = 64 * 1024
    /// The defaults: the largest answer (`live list` of `Settings.maxRoomsCeiling` rooms with
    /// the longest titles, about 9 MiB) fits under `hard`.
    public static let standard = OutputLimits(soft: 1 << 20, softSeconds: 10, hard: 16 << 20)
    /// Unread answers all connections of one account (uid) may hold together: what one
    /// connection may. Past it the connection whose answer crossed it is closed, so an
    /// account that opens every slot it may and reads nothing holds 16 MiB by default, not
    /// `max_connections_per_user` times 16 (2 GiB).
    public var perAccount: Int { hard }

    /// Bounds of `output_hard_limit`.
    public static let smallest = 2 * highWater
    public static let largest = 1 << 30

    public init(soft: Int, softSeconds: Int, hard: Int) {
        self.soft = soft
        self.softSeconds = softSeconds
        self.hard = hard
    }
}
