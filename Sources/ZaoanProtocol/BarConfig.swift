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
    public static let defaultBlocks = ["ticker others", "countdown", "greeting", "time"]
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
    /// defaults; the first problem is thrown (tests, and callers that take only a good file).
    public static func check(blocks: [String]?, clockFormats: [String]?, clockZones: [String]?,
                             markup: String?, urlOpener: [String]? = nil, urlSchemes: [String]? = nil,
                             clicks: JSONValue? = nil) throws(ConfigError) -> BarConfig {
        let checked = checking(blocks: blocks, clockFormats: clockFormats, clockZones: clockZones, markup: markup,
                               urlOpener: urlOpener, urlSchemes: urlSchemes, clicks: clicks)
        if let first = checked.problems.first { throw first }
        return checked.config
    }

    /// The same check, where a bad value costs only itself (the service, which serves
    /// whatever its config holds, and the bar): a bad entry of a list is left out and the
    /// others stand (the default only when none is left); a bad click is left out of
    /// `bar_clicks`. Each problem says what stands instead. `bar_url_opener` is one command,
    /// kept or refused whole.
    public static func checking(blocks: [String]?, clockFormats: [String]?, clockZones: [String]?,
                                markup: String?, urlOpener: [String]? = nil, urlSchemes: [String]? = nil,
                                clicks: JSONValue? = nil) -> (config: BarConfig, problems: [ConfigError]) {
        var problems: [ConfigError] = []
        let blocks = entries(.barBlocks, blocks, problems: &problems) { block throws(ConfigError) in
            do throws(ProtocolError) {
                guard let request = try RequestParser.parse(block), request.isWatchable else {
                    throw ProtocolError(.notWatchable, "cannot be shown in a bar")
                }
            } catch {
                throw ConfigError(key: ConfigKey.barBlocks.name, problem: "'\(block)': \(error.message)")
            }
        }
        let clockFormats = entries(.barClockFormats, clockFormats, problems: &problems) { _ throws(ConfigError) in }
        let clockZones = entries(.barClockZones, clockZones, problems: &problems) { zone throws(ConfigError) in
            if zone.utf8.count > RequestParser.maxZoneNameBytes {
                throw ConfigError(key: ConfigKey.barClockZones.name, problem: "'\(RequestParser.shorten(zone))' is longer than the \(RequestParser.maxZoneNameBytes) bytes of the longest zone or city name")
            }
        }
        var urlOpener = urlOpener
        if let list = urlOpener {
            do throws(ConfigError) {
                if list.isEmpty { throw ConfigError(key: ConfigKey.barURLOpener.name, problem: "needs the command's name, as [\"xdg-open\"]") }
                if let bad = list.lazy.compactMap({ entryProblem(.barURLOpener, $0) }).first { throw bad }
                if let opener = list.first, !(opener.hasPrefix("/") || !opener.contains("/")) {
                    throw ConfigError(key: ConfigKey.barURLOpener.name, problem: "'\(RequestParser.shorten(opener))' must be a command name (xdg-open) or an absolute path")
                }
            } catch {
                problems.append(error.with(.defaultUsed))
                urlOpener = nil
            }
        }
        let urlSchemes = entries(.barURLSchemes, urlSchemes, problems: &problems) { scheme throws(ConfigError) in
            if !BarURL.isScheme(scheme) {
                throw ConfigError(key: ConfigKey.barURLSchemes.name, problem: "'\(RequestParser.shorten(scheme))' is not a URL scheme such as https (lowercase letters, digits, + - .)")
            }
        }
        var barClicks: BarClicks?
        if let clicks {
            do throws(ConfigError) {
                barClicks = try BarClicks.read(clicks, problems: &problems)
            } catch {
                problems.append(error.with(.defaultUsed))
            }
        }
        var pango = false
        switch markup ?? "none" {
        case "none": pango = false
        case "pango": pango = true
        case let other: problems.append(ConfigError(key: ConfigKey.i3barMarkup.name, problem: "'\(other)' is not \"none\" or \"pango\"", fallback: .defaultUsed))
        }
        let config = BarConfig(blocks: blocks ?? defaultBlocks, clockFormats: clockFormats ?? defaultClockFormats,
                               clockZones: clockZones ?? [], pango: pango, urlOpener: urlOpener ?? defaultURLOpener,
                               urlSchemes: urlSchemes ?? defaultURLSchemes, clicks: barClicks ?? BarClicks())
        return (config, problems)
    }

    /// A list key's good entries; each bad one (blank, a control character, or refused by
    /// `check`) is a problem placed at `key.N`. Nil (the default) when none is left.
    private static func entries(_ key: ConfigKey, _ list: [String]?, problems: inout [ConfigError],
                                check: (String) throws(ConfigError) -> Void) -> [String]? {
        guard let list else { return nil }
        guard !list.isEmpty else {
            problems.append(ConfigError(key: key.name, problem: "needs at least one entry", fallback: .defaultUsed))
            return nil
        }
        var kept: [String] = []
        var found: [ConfigError] = []
        for (index, entry) in list.enumerated() {
            do throws(ConfigError) {
                if let problem = entryProblem(key, entry) { throw problem }
                try check(entry)
                kept.append(entry)
            } catch {
                var placed = error
                placed.placeKey = "\(key.name).\(index)"
                found.append(placed)
            }
        }
        let fallback: ConfigError.Fallback = kept.isEmpty ? .defaultUsed : .instead("left out; the other entries stand")
        problems += found.map { $0.with(fallback) }
        return kept.isEmpty ? nil : kept
    }

    /// A blank entry, or one with a control character: a line break would send a second
    /// request with the user's rights.
    private static func entryProblem(_ key: ConfigKey, _ entry: String?) -> ConfigError? {
        guard let entry else { return nil }
        if isBlank(entry) { return ConfigError(key: key.name, problem: "an entry is empty; each entry needs text") }
        if entry.unicodeScalars.contains(where: isControl) {
            return ConfigError(key: key.name, problem: "'\(RequestParser.shorten(entry))' holds a control character or line break; one request per entry")
        }
        return nil
    }

    /// The bar's keys from a config file's bytes (JSONC, as the service reads it), checked
    /// as the service checks them (`checking`): a bad value costs only itself, and its
    /// problem comes back placed at its line and column. Like the service, this refuses
    /// (throws) a file that is not one JSON object or that holds a key twice, and reads
    /// blanks and comments only as "all defaults". The rest of the file is the service's to
    /// check (`zaoan check-config`).
    public static func read(_ bytes: [UInt8]) throws(ConfigError) -> (config: BarConfig, problems: [ConfigError]) {
        let document = ConfigDocument.read(bytes)
        if let first = document.problems.first { throw first }
        var positions: [String: TextPosition] = [:]
        var problems: [ConfigError] = []
        func member(_ key: ConfigKey) -> JSONValue? {
            guard let member = document.members.first(where: { $0.key == key.name }) else { return nil }
            positions[key.name] = member.value.position
            return member.value
        }
        func strings(_ key: ConfigKey) -> [String]? {
            guard let value = member(key) else { return nil }
            for (index, item) in (value.items ?? []).enumerated() { positions["\(key.name).\(index)"] = item.position }
            do throws(ConfigError) {
                return try ConfigDocument.strings(value, key: key.name)
            } catch {
                problems.append(error.with(.defaultUsed))
                return nil
            }
        }
        var markup: String?
        if let value = member(.i3barMarkup) {
            do throws(ConfigError) {
                markup = try ConfigDocument.string(value, key: ConfigKey.i3barMarkup.name)
            } catch {
                problems.append(error.with(.defaultUsed))
            }
        }
        let checked = checking(blocks: strings(.barBlocks), clockFormats: strings(.barClockFormats),
                               clockZones: strings(.barClockZones), markup: markup,
                               urlOpener: strings(.barURLOpener), urlSchemes: strings(.barURLSchemes),
                               clicks: member(.barClicks))
        // `bar_clicks`' problems know their place inside the key; the others are placed at
        // their entry or their key.
        for var problem in checked.problems {
            if problem.position == nil { problem.position = (problem.placeKey ?? problem.key).flatMap { positions[$0] } }
            problems.append(problem)
        }
        return (checked.config, problems)
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
