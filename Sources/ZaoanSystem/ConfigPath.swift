import Glibc

/// Where the config file is, and how a failure to read it is told to the user: the service
/// (`serve`, `check-config`, reloads) and `zaoan bar` find and read the same file.
public enum ConfigPath {
    /// The largest config file read.
    public static let maxBytes = 1 << 20

    /// `$CONFIGURATION_DIRECTORY/config.json` (systemd's ConfigurationDirectory=), else
    /// `$XDG_CONFIG_HOME/zaoan/config.json`, else `~/.config/zaoan/config.json`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let directory = environment["CONFIGURATION_DIRECTORY"]?.split(separator: ":").first, directory.hasPrefix("/") {
            return directory + "/config.json"
        }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/zaoan/config.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Posix.homeDirectory()
        return home + "/.config/zaoan/config.json"
    }

    /// What went wrong reading the config at `path`, for `ConfigError`'s problem.
    public static func problem(_ failure: RegularFile.ReadFailure, path: String) -> String {
        switch failure {
        case .missing:
            return "\(path) does not exist; create it (zaoan.conf(5)), or name the file you meant"
        case .notRegular(let kind):
            return "\(path) is a \(kind), not a file; point --config at a JSON file"
        case .tooLarge(let bytes):
            return "\(path) is \(bytes) bytes, larger than the 1 MiB a config may be; is it the right file?"
        case .untrusted(let why):
            return "\(path) is \(why); fix its owner and mode (chown, chmod go-w)"
        case .system(let error):
            return "cannot read \(path) (\(error)); check its permissions"
        }
    }
}

/// The process's environment without Foundation (`ProcessInfo` would load it): the
/// variables of `environ`, the first of a repeated name winning, as `getenv` has it.
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        // NULL after clearenv(3), though Glibc's declaration does not say so.
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = start else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil {
                    variables[name] = String(text[text.utf8.index(after: equals)...])
                }
            }
            entry += 1
        }
        return variables
    }
}
