import Glibc
import ZaoanCore

/// Where the settings come from: a config file (maybe absent), flags, and the environment.
/// Reading the file, and asking whether `admin_group` exists, is the only I/O;
/// `ConfigFile.read` and `Settings.resolving` do the rest.
public struct ConfigSource: Sendable {
    public let path: String
    /// A path given with --config must exist; the default one may be missing.
    public let required: Bool
    public let overrides: SettingsOverrides
    public let environment: [String: String]
    /// Where cities neither built in nor in `cities` are looked up (`GazetteerFile`), shared
    /// by every read of the config, so the file is mapped once.
    public let gazetteer: (any CityGazetteer)?

    public init(path: String?, overrides: SettingsOverrides = SettingsOverrides(), environment: [String: String],
                gazetteer: (any CityGazetteer)? = nil) {
        self.gazetteer = gazetteer
        if let path {
            self.path = path
            self.required = true
        } else {
            self.path = ConfigSource.defaultPath(environment: environment)
            self.required = false
        }
        self.overrides = overrides
        self.environment = environment
    }

    /// `$CONFIGURATION_DIRECTORY/config.json` (systemd's ConfigurationDirectory=), else
    /// `$XDG_CONFIG_HOME/zaoan/config.json`, else `~/.config/zaoan/config.json`.
    public static func defaultPath(environment: [String: String]) -> String {
        ConfigPath.defaultPath(environment: environment)
    }

    /// The largest config file read.
    public static let maxBytes = ConfigPath.maxBytes

    /// The settings the file, the flags and the environment make, and what of them could not
    /// be used (each placed in the file, and saying what stands instead).
    public struct Loaded: Sendable {
        public var settings: Settings
        public var problems: [ConfigError]
        /// The file's values as written.
        public var file: ConfigFile
        /// Where the file has each key (`ConfigFile.Reading.positions`).
        public var positions: [String: TextPosition]
    }

    /// Reads everything that can be used, whatever the file holds: a file that cannot be
    /// read or is not JSON gives every key its default, a bad key gives that key its
    /// default, an unknown one is ignored. What `serve` starts with: a config problem never
    /// keeps the service from serving.
    public func read() -> Loaded {
        var reading = ConfigFile.Reading()
        do throws(RegularFile.ReadFailure) {
            reading = ConfigFile.read(try RegularFile.read(path, limit: Self.maxBytes))
        } catch {
            if case .missing = error, !required {
                // No file: every key has its default, and nothing is wrong.
            } else {
                reading.problems = [ConfigError(key: nil, problem: ConfigPath.problem(error, path: path), fallback: .allDefaults)]
            }
        }
        var resolved = Settings.resolving(reading.file, positions: reading.positions, overrides: overrides, environment: environment,
                                          gazetteer: gazetteer)
        var problems = reading.problems + resolved.problems
        if let group = resolved.settings.adminGroup, getgrnam(group) == nil {
            problems.append(ConfigError(key: ConfigKey.adminGroup.name, problem: "there is no group '\(group)' on this machine; create it (groupadd \(group)) or remove the key",
                                        at: reading.positions[ConfigKey.adminGroup.name], fallback: .defaultUsed))
            resolved.settings.adminGroup = nil
        }
        return Loaded(settings: resolved.settings, problems: ConfigError.inFileOrder(problems).map { $0.inFile(path) },
                      file: reading.file, positions: reading.positions)
    }

    /// The settings only if the file has no problem at all; else the first problem, with
    /// how many more there are (`reload`, which keeps the settings in force rather than
    /// take a file in part).
    public func load() throws(ConfigError) -> Settings {
        let loaded = read()
        guard var first = loaded.problems.first else { return loaded.settings }
        first.fallback = nil
        if loaded.problems.count > 1 {
            let more = loaded.problems.count - 1
            first = ConfigError(key: first.key, problem: first.problem + " (and \(more) more problem\(more == 1 ? "" : "s"); zaoan check-config lists them)",
                                at: first.position).inFile(path)
        }
        throw first
    }

    /// Calendars the settings name that are not there (yet): not an error — the service
    /// waits for them and reads them once they appear — but worth a word from check-config.
    public func missingCalendars(_ loaded: Loaded) -> [ConfigError] {
        var warnings: [ConfigError] = []
        for (index, path) in (loaded.file.calendars ?? []).map(\.path).enumerated() where loaded.settings.calendars.contains(where: { $0.path == path }) {
            guard access(path, F_OK) != 0, errno == ENOENT else { continue }
            warnings.append(ConfigError(key: ConfigKey.calendars.name, problem: "'\(RequestParser.shorten(SafeText.visible(path)))' does not exist (yet); the service reads it once it appears",
                                        at: loaded.positions["\(ConfigKey.calendars.name).\(index)"]).inFile(self.path))
        }
        return warnings
    }
}
