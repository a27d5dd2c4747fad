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

    /// The largest config file read.
    public static let maxBytes = 1 << 20

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
            switch failure {
            case .missing:
                guard !required else {
                    throw ConfigError(key: nil, problem: "\(path) does not exist; create it or leave out --config")
                }
                file = ConfigFile()
            case .notRegular(let kind):
                throw ConfigError(key: nil, problem: "\(path) is a \(kind), not a file; point --config at a JSON file")
            case .tooLarge(let bytes):
                throw ConfigError(key: nil, problem: "\(path) is \(bytes) bytes, larger than the 1 MiB a config may be; is it the right file?")
            case .system(let error):
                throw ConfigError(key: nil, problem: "cannot read \(path) (\(error)); check its permissions")
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
