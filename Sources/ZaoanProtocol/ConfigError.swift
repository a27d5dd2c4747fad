import ZaoanText

/// A problem with the configuration, said in terms of the key the user wrote, and where the
/// file has it.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let key: String?
    public let problem: String
    /// Where in the file: the key's or the value's first character.
    public var position: TextPosition?
    /// The file, once the reader knows it (`ConfigSource`, `zaoan bar`).
    public var file: String?
    /// What the service did instead, when it serves despite the problem.
    public var fallback: Fallback?
    /// Where the file has the bad value, when that is not `key` itself (`bar_blocks.2`).
    public var placeKey: String?

    /// What a service that starts with a problem in its config does about it: it serves
    /// with everything else, and says what it left aside.
    public enum Fallback: Sendable, Equatable {
        /// An unknown key: nothing reads it.
        case ignored
        /// A key whose value cannot be used: the built-in default stands for it.
        case defaultUsed
        /// One entry of a list or map (a calendar, a city): the others are kept.
        case entryLeftOut
        /// The file cannot be read or is not JSON: every key has its default.
        case allDefaults
        /// Only the bad part of a value is set aside; the rest of it stands, as said
        /// (`warning keeps its 30 minutes, without a colour`).
        case instead(String)

        public var text: String {
            switch self {
            case .ignored: return "ignored"
            case .defaultUsed: return "using the default"
            case .entryLeftOut: return "left out"
            case .allDefaults: return "using the defaults for every key"
            case .instead(let what): return what
            }
        }
    }

    public init(key: String?, problem: String, at position: TextPosition? = nil, fallback: Fallback? = nil) {
        self.key = key
        self.problem = problem
        self.position = position
        self.fallback = fallback
    }

    /// What is wrong, without where: `config key 'idle_timeout': expected a whole number`.
    public var message: String {
        if let key { return "config key '\(key)': \(problem)" }
        return "config: \(problem)"
    }

    /// `/home/me/.config/zaoan/config.json:3:5: config key ...` — the place first, as
    /// compilers write it, so an editor can jump there; the message alone when the file or
    /// the place is not known.
    public var description: String {
        guard let file, let position else { return message }
        return "\(file):\(position): \(message)"
    }

    /// The description and what was done instead: `... did you mean 'soon_threshold'? (ignored)`.
    public var report: String {
        description + (fallback.map { " (\($0.text))" } ?? "")
    }

    /// The same problem, placed in `file`.
    public func inFile(_ file: String) -> ConfigError {
        var copy = self
        copy.file = file
        return copy
    }

    public func with(_ fallback: Fallback) -> ConfigError {
        var copy = self
        copy.fallback = fallback
        return copy
    }

    /// Problems by their place in the file (stable: those at one place, or at none, keep
    /// their order); those with no place (flags, the file as a whole) first.
    public static func inFileOrder(_ problems: [ConfigError]) -> [ConfigError] {
        problems.enumerated().sorted { left, right in
            let a = left.element.position ?? TextPosition(line: 0, column: 0)
            let b = right.element.position ?? TextPosition(line: 0, column: 0)
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }
}
