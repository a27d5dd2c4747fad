import Foundation
import Glibc
import ZaoanCore

/// Where the settings come from: a config file (maybe absent), flags, and the environment.
/// Reading the file is the only I/O; `Settings.resolve` does the rest.
public struct ConfigSource: Sendable {
    public let path: String
    /// A path given with --config must exist; the default one may be missing.
    public let required: Bool
    public let overrides: SettingsOverrides
    public let environment: [String: String]

    public init(path: String?, overrides: SettingsOverrides = SettingsOverrides(), environment: [String: String]) {
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

    public func load() throws(ConfigError) -> Settings {
        let file: ConfigFile
        do {
            let data = try Files.readRegular(path, limit: Self.maxBytes)
            do {
                file = try ConfigFile.decode(data)
            } catch {
                throw ConfigError(key: error.key, problem: error.problem + " (in \(path))")
            }
        } catch let error as ConfigError {
            throw error
        } catch let failure as Files.ReadFailure {
            if case .missing = failure, !required {
                file = ConfigFile()
            } else {
                throw ConfigError(key: nil, problem: ConfigPath.problem(failure, path: path))
            }
        } catch {
            throw ConfigError(key: nil, problem: "cannot read \(path): \(error)")
        }
        let settings = try Settings.resolve(file, overrides: overrides, environment: environment)
        if let group = settings.adminGroup, getgrnam(group) == nil {
            throw ConfigError(key: "admin_group", problem: "there is no group '\(group)' on this machine; create it (groupadd \(group)) or remove the key")
        }
        return settings
    }
}
