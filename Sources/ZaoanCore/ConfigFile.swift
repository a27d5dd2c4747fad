import Foundation

/// The JSON config file as written by the user. Every key is optional; `Settings.resolve`
/// fills in the defaults. Key names are snake_case, as documented in the README.
public struct ConfigFile: Decodable, Sendable, Equatable {
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
    /// `.ics` files and folders of them (vdir) whose events count like rooms.
    public var calendars: [String]?
    public var calendarWindowHours: Int?

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case language, city, timezone, cities, separator, greetings
        case timeFormat = "time_format"
        case idleTimeout = "idle_timeout"
        case formatterCacheSize = "formatter_cache_size"
        case maxConnections = "max_connections"
        case maxConnectionsPerUser = "max_connections_per_user"
        case reservedConnections = "reserved_connections"
        case outputSoftLimit = "output_soft_limit"
        case outputSoftSeconds = "output_soft_seconds"
        case outputHardLimit = "output_hard_limit"
        case tickerPeriod = "ticker_period"
        case maxRooms = "max_rooms"
        case liveDefaultDuration = "live_default_duration"
        case soonThreshold = "soon_threshold"
        case statusTemplate = "status_template"
        case i3barMarkup = "i3bar_markup"
        case barBlocks = "bar_blocks"
        case barClockFormats = "bar_clock_formats"
        case barClockZones = "bar_clock_zones"
        case barURLOpener = "bar_url_opener"
        case barURLSchemes = "bar_url_schemes"
        case adminGroup = "admin_group"
        case calendars
        case calendarWindowHours = "calendar_window_hours"
    }

    /// Every key the file may hold, for error messages and the docs test.
    public static let knownKeys: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Decodes a config file, naming the offending key on any problem.
    public static func decode(_ data: Data) throws(ConfigError) -> ConfigFile {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return ConfigFile()  // an empty file means "all defaults"
        }
        let decoder = JSONDecoder()
        do {
            let keys = try decoder.decode(TopLevelKeys.self, from: data).keys
            if let unknown = keys.first(where: { !knownKeys.contains($0) }) {
                throw ConfigError(key: unknown, problem: "unknown key (known keys: \(knownKeys.joined(separator: ", ")))")
            }
            let file = try decoder.decode(ConfigFile.self, from: data)
            if let duplicate = JSON.firstDuplicateKey(in: Array(data)) {
                throw ConfigError(key: duplicate, problem: "appears twice in one object; keep one")
            }
            return file
        } catch let error as ConfigError {
            throw error
        } catch let error as DecodingError {
            throw ConfigError(decoding: error)
        } catch {
            throw ConfigError(key: nil, problem: "\(error)")
        }
    }
}

/// Lists the top-level keys of a JSON object, so that typos are reported instead of ignored.
private struct TopLevelKeys: Decodable {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    let keys: [String]
    init(from decoder: Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    }
}

/// `ConfigError` (ZaoanProtocol, shared with `zaoan bar`) from what JSONDecoder reports.
extension ConfigError {
    init(decoding error: DecodingError) {
        func path(_ context: DecodingError.Context) -> String? {
            let parts = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return parts.isEmpty ? nil : parts.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(key: path(context), problem: "expected \(ConfigError.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(key: path(context), problem: "expected \(ConfigError.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(key: path(context), problem: "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            self.init(key: path(context), problem: "not valid JSON" + (underlying.map { ": \($0)" } ?? ""))
        @unknown default:
            self.init(key: nil, problem: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a whole number"
        case is [String: String].Type: return "an object of strings"
        case is [String].Type: return "an array of strings"
        default:
            // JSONDecoder reports a mistyped map as Dictionary<String, Any>, a mistyped list
            // as Array<Any>; the config has only maps and lists of strings.
            let name = "\(type)"
            if name.hasPrefix("Dictionary") { return "an object of strings" }
            if name.hasPrefix("Array") { return "an array of strings" }
            return "a value of type \(type)"
        }
    }
}
