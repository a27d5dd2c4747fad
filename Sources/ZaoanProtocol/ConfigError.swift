/// A problem with the configuration, said in terms of the key the user wrote.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public let key: String?
    public let problem: String

    public init(key: String?, problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String {
        if let key { return "config key '\(key)': \(problem)" }
        return "config: \(problem)"
    }
}
