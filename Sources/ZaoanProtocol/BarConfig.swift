import ZaoanText

/// The config keys `zaoan bar` reads — `bar_blocks`, `bar_clock_formats`, `bar_clock_zones`,
/// `bar_url_opener`, `bar_url_schemes`, `bar_clicks` and `i3bar_markup` — and the one rule
/// for them: the service (`Settings.resolve`, so
/// `serve`, reloads and `check-config`) and the bar, which has no Foundation, both check
/// them here and so agree on what is wrong.
///
/// Whether an entry of `bar_clock_zones` names a zone needs the tz database: the service
/// checks that, and the bar shows an unknown one as an error block from the service.
public struct BarConfig: Equatable, Sendable {
    public static let defaultBlocks = ["ticker", "countdown", "greeting", "time"]
    public static let defaultClockFormats = ["HH:mm", "HH:mm:ss", "yyyy-MM-dd EEEE HH:mm"]

    /// The requests of the blocks, left to right.
    public var blocks: [String]
    /// What a click on a clock block cycles through.
    public var clockFormats: [String]
    /// Zones (or cities) a middle click on a clock block cycles through, after the
    /// configured zone; empty: middle clicks do nothing.
    public var clockZones: [String]
    /// `i3bar_markup` is `pango`: blocks are Pango markup (text escaped for it).
    public var pango: Bool
    /// `bar_url_opener`: the command (and its first arguments) a click runs with an event's
    /// URL as the last argument; never a shell.
    public var urlOpener: [String]
    /// `bar_url_schemes`: the only URL schemes a click opens.
    public var urlSchemes: [String]
    /// `bar_clicks`: what each button does on each block (zaoan's defaults where it is silent).
    public var clicks: BarClicks

    public static let defaultURLOpener = ["xdg-open"]
    public static let defaultURLSchemes = ["https", "http"]

    public init(blocks: [String] = defaultBlocks, clockFormats: [String] = defaultClockFormats,
                clockZones: [String] = [], pango: Bool = false,
                urlOpener: [String] = defaultURLOpener, urlSchemes: [String] = defaultURLSchemes,
                clicks: BarClicks = BarClicks()) {
        self.blocks = blocks
        self.clockFormats = clockFormats
        self.clockZones = clockZones
        self.pango = pango
        self.urlOpener = urlOpener
        self.urlSchemes = urlSchemes
        self.clicks = clicks
    }

    /// Checks the keys as the file has them (nil: the key is absent) and fills in the
    /// defaults; the first problem is thrown (`zaoan bar`, which starts only with a good file).
    public static func check(blocks: [String]?, clockFormats: [String]?, clockZones: [String]?,
                             markup: String?, urlOpener: [String]? = nil, urlSchemes: [String]? = nil,
                             clicks: JSONValue? = nil) throws(ConfigError) -> BarConfig {
        let checked = checking(blocks: blocks, clockFormats: clockFormats, clockZones: clockZones, markup: markup,
                               urlOpener: urlOpener, urlSchemes: urlSchemes, clicks: clicks)
        if let first = checked.problems.first { throw first }
        return checked.config
    }

    /// The same check, key by key: a key that fails is a problem and gets its default, and
    /// the others stand (the service, which serves whatever its config holds).
    public static func checking(blocks: [String]?, clockFormats: [String]?, clockZones: [String]?,
                                markup: String?, urlOpener: [String]? = nil, urlSchemes: [String]? = nil,
                                clicks: JSONValue? = nil) -> (config: BarConfig, problems: [ConfigError]) {
        var problems: [ConfigError] = []
        func kept<T>(_ value: T?, _ check: (T) throws(ConfigError) -> Void) -> T? {
            guard let value else { return nil }
            do throws(ConfigError) {
                try check(value)
                return value
            } catch {
                problems.append(error)
                return nil
            }
        }
        let blocks = kept(blocks) { list throws(ConfigError) in
            try checkList(.barBlocks, list)
            for block in list {
                do throws(ProtocolError) {
                    guard let request = try RequestParser.parse(block), request.isWatchable else {
                        throw ProtocolError(.notWatchable, "cannot be shown in a bar")
                    }
                } catch {
                    throw ConfigError(key: ConfigKey.barBlocks.name, problem: "'\(block)': \(error.message)")
                }
            }
        }
        let clockFormats = kept(clockFormats) { list throws(ConfigError) in try checkList(.barClockFormats, list) }
        let clockZones = kept(clockZones) { list throws(ConfigError) in
            try checkList(.barClockZones, list)
            if let long = list.first(where: { $0.utf8.count > RequestParser.maxZoneNameBytes }) {
                throw ConfigError(key: ConfigKey.barClockZones.name, problem: "'\(RequestParser.shorten(long))' is longer than the \(RequestParser.maxZoneNameBytes) bytes of the longest zone or city name")
            }
        }
        let urlOpener = kept(urlOpener) { list throws(ConfigError) in
            try checkList(.barURLOpener, list)
            if let opener = list.first, !(opener.hasPrefix("/") || !opener.contains("/")) {
                throw ConfigError(key: ConfigKey.barURLOpener.name, problem: "'\(RequestParser.shorten(opener))' must be a command name (xdg-open) or an absolute path")
            }
        }
        let urlSchemes = kept(urlSchemes) { list throws(ConfigError) in
            try checkList(.barURLSchemes, list)
            if let scheme = list.first(where: { !BarURL.isScheme($0) }) {
                throw ConfigError(key: ConfigKey.barURLSchemes.name, problem: "'\(RequestParser.shorten(scheme))' is not a URL scheme such as https (lowercase letters, digits, + - .)")
            }
        }
        var barClicks: BarClicks?
        if let clicks {
            do throws(ConfigError) {
                barClicks = try BarClicks.read(clicks)
            } catch {
                problems.append(error)
            }
        }
        var pango = false
        switch markup ?? "none" {
        case "none": pango = false
        case "pango": pango = true
        case let other: problems.append(ConfigError(key: ConfigKey.i3barMarkup.name, problem: "'\(other)' is not \"none\" or \"pango\""))
        }
        let config = BarConfig(blocks: blocks ?? defaultBlocks, clockFormats: clockFormats ?? defaultClockFormats,
                               clockZones: clockZones ?? [], pango: pango, urlOpener: urlOpener ?? defaultURLOpener,
                               urlSchemes: urlSchemes ?? defaultURLSchemes, clicks: barClicks ?? BarClicks())
        return (config, problems)
    }

    /// A list key: at least one entry, none blank, none with a control character.
    private static func checkList(_ key: ConfigKey, _ list: [String]) throws(ConfigError) {
        if list.isEmpty || list.contains(where: isBlank) {
            throw ConfigError(key: key.name, problem: "needs at least one entry, and no empty ones")
        }
        // A line break in an entry would send a second request with the user's rights.
        if let bad = list.first(where: { $0.unicodeScalars.contains(where: isControl) }) {
            throw ConfigError(key: key.name, problem: "'\(RequestParser.shorten(bad))' holds a control character or line break; one request per entry")
        }
    }

    /// The bar's keys from a config file's bytes (JSONC, as the service reads it), checked
    /// by `check`; the first problem is thrown, with its line and column. The rest of the
    /// file is the service's to check (`zaoan check-config`); like the service, this refuses
    /// a file that is not one JSON object or that holds a key twice, and reads blanks and
    /// comments only as "all defaults".
    public static func read(_ bytes: [UInt8]) throws(ConfigError) -> BarConfig {
        let document = ConfigDocument.read(bytes)
        if let first = document.problems.first { throw first }
        var positions: [String: TextPosition] = [:]
        func member(_ key: ConfigKey) -> JSONValue? {
            guard let member = document.members.first(where: { $0.key == key.name }) else { return nil }
            positions[key.name] = member.value.position
            return member.value
        }
        func strings(_ key: ConfigKey) throws(ConfigError) -> [String]? {
            guard let value = member(key) else { return nil }
            return try ConfigDocument.strings(value, key: key.name)
        }
        var markup: String?
        if let value = member(.i3barMarkup) { markup = try ConfigDocument.string(value, key: ConfigKey.i3barMarkup.name) }
        let checked = checking(blocks: try strings(.barBlocks), clockFormats: try strings(.barClockFormats),
                               clockZones: try strings(.barClockZones), markup: markup,
                               urlOpener: try strings(.barURLOpener), urlSchemes: try strings(.barURLSchemes),
                               clicks: member(.barClicks))
        if var first = checked.problems.first {
            // `bar_clicks`' problems know their place inside the key; the others are placed at their key.
            if first.position == nil { first.position = first.key.flatMap { positions[$0] } }
            throw first
        }
        return checked.config
    }

    /// Nothing but spaces and tabs (what Foundation's `CharacterSet.whitespaces` holds).
    private static func isBlank(_ entry: String) -> Bool {
        entry.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
