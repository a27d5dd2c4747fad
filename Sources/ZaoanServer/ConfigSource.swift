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
        if let directory = environment["CONFIGURATION_DIRECTORY"]?.split(separator: ":").first, directory.hasPrefix("/") {
            return directory + "/config.json"
        }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/zaoan/config.json"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/zaoan/config.json"
    }

    public func load() throws(ConfigError) -> Settings {
        let file: ConfigFile
        if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(key: nil, problem: "cannot read \(path); check its permissions")
            }
            guard data.count <= 1 << 20 else {
                throw ConfigError(key: nil, problem: "\(path) is larger than 1 MiB; is it the right file?")
            }
            do {
                file = try ConfigFile.decode(data)
            } catch {
                throw ConfigError(key: error.key, problem: error.problem + " (in \(path))")
            }
        } else if required {
            throw ConfigError(key: nil, problem: "\(path) does not exist; create it or leave out --config")
        } else {
            file = ConfigFile()
        }
        let settings = try Settings.resolve(file, overrides: overrides, environment: environment)
        if let group = settings.adminGroup, getgrnam(group) == nil {
            throw ConfigError(key: "admin_group", problem: "there is no group '\(group)' on this machine; create it (groupadd \(group)) or remove the key")
        }
        return settings
    }
}
