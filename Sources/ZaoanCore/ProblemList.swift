import ZaoanProtocol
import ZaoanText

/// The problems `Settings.resolving` finds, each placed where the file has its key.
struct ProblemList {
    let positions: [String: TextPosition]
    private(set) var all: [ConfigError] = []

    /// Where the file has `key`; keys it does not have (flags) sort first.
    func place(_ key: String) -> TextPosition {
        positions[key] ?? TextPosition(line: 0, column: 0)
    }

    /// - Parameter key: the key to place it by, when it is not the problem's own (an entry).
    mutating func add(_ problem: ConfigError, _ fallback: ConfigError.Fallback, at key: String? = nil) {
        var problem = problem.with(fallback)
        if problem.position == nil, let place = key ?? problem.placeKey ?? problem.key { problem.position = positions[place] }
        all.append(problem)
    }

    /// The members of an object-valued key, each once (a key written twice is left out, with
    /// its problem); nil when the key is absent or not an object.
    mutating func uniqueMembers(of value: JSONValue?, key: String) -> [JSONMember]? {
        guard let value, let members = value.members else { return nil }
        let (unique, repeated) = ConfigDocument.unique(members, under: key)
        for problem in repeated { add(problem, .entryLeftOut) }
        return unique
    }

    /// The whole number `file` gives `key` if it is within the key's bounds (`ConfigKey`),
    /// else its default, and a problem when it is out of bounds.
    mutating func integer(_ key: ConfigKey, in file: ConfigFile) -> Int {
        integer(key, in: file, key.range!, default: key.defaultInteger!)
    }

    /// The same for a key whose bounds and default depend on other keys.
    mutating func integer(_ key: ConfigKey, in file: ConfigFile, _ range: ClosedRange<Int>, default fallback: Int) -> Int {
        guard let value = file[integer: key] else { return fallback }
        guard range.contains(value) else {
            add(ConfigError(key: key.name, problem: "must be between \(range.lowerBound) and \(range.upperBound), got \(value)"), .defaultUsed)
            return fallback
        }
        return value
    }
}
