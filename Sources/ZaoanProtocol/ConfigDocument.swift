import ZaoanText

/// A config file's top level as the service (`ConfigFile`) and `zaoan bar` (`BarConfig`)
/// both read it: JSONC (comments, trailing commas) through `JSONReader`, so every key and
/// value knows its line and column, and one rule for what each kind of value must be, so
/// the two readers name the same problem the same way.
///
/// Reading never throws: what cannot be used is a `ConfigError` in `problems`, and what can
/// is in `members` — nothing when the file is not JSON or not an object.
public struct ConfigDocument: Sendable {
    /// The top level's keys and values, in file order, each key once.
    public var members: [JSONMember] = []
    public var problems: [ConfigError] = []

    /// The reader's limits for a config file: ConfigPath's 1 MiB, and the rest as standard.
    public static let limits = JSONReader.Limits.standard

    public static func read(_ bytes: [UInt8]) -> ConfigDocument {
        var document = ConfigDocument()
        let value: JSONValue
        do {
            value = try JSONReader.read(bytes, dialect: .jsonc, limits: limits, duplicateKeys: .kept)
        } catch {
            if error.kind != .empty {  // blanks and comments only: every key has its default
                document.problems.append(ConfigError(key: nil, problem: "not valid JSON: \(error.message)",
                                                     at: error.position, fallback: .allDefaults))
            }
            return document
        }
        guard let members = value.members else {
            document.problems.append(ConfigError(key: nil, problem: "expected an object of keys and values, as {\"city\": \"东京\"}, not \(value.kindName)",
                                                 at: value.position, fallback: .allDefaults))
            return document
        }
        (document.members, document.problems) = unique(members, under: nil)
        return document
    }

    /// The members whose key appears once; each repeated key is a problem (at its second
    /// place) and left out entirely: which of the two was meant, only the user knows.
    /// - Parameter parent: the key holding this object (`greetings`), for the problem's key.
    public static func unique(_ members: [JSONMember], under parent: String?) -> (members: [JSONMember], problems: [ConfigError]) {
        var first: [String: TextPosition] = [:]
        var repeated: Set<String> = []
        var problems: [ConfigError] = []
        for member in members {
            if let earlier = first[member.key] {
                repeated.insert(member.key)
                let key = RequestParser.shorten(member.key)
                problems.append(ConfigError(key: parent.map { "\($0).\(key)" } ?? key,
                                            problem: "appears twice in one object (first at \(earlier)); keep one",
                                            at: member.keyPosition, fallback: parent == nil ? .defaultUsed : nil))
            } else {
                first[member.key] = member.keyPosition
            }
        }
        return (members.filter { !repeated.contains($0.key) }, problems)
    }

    // MARK: - What each kind of value must be

    /// A string, or nil for null.
    public static func string(_ value: JSONValue, key: String) throws(ConfigError) -> String? {
        switch value.kind {
        case .null: return nil
        case .string(let text): return text
        default: throw ConfigError(key: key, problem: "expected a string", at: value.position)
        }
    }

    /// A whole number that fits an Int, or nil for null. `60.0` and `6e1` are 60.
    public static func integer(_ value: JSONValue, key: String) throws(ConfigError) -> Int? {
        switch value.kind {
        case .null:
            return nil
        case .number(let number):
            if let whole = number.integer.flatMap({ Int(exactly: $0) }) { return whole }
            let why = number.isWhole ? "\(RequestParser.shorten(number.text)) is too large" : "\(RequestParser.shorten(number.text)) is not one"
            throw ConfigError(key: key, problem: "expected a whole number; \(why)", at: value.position)
        default:
            throw ConfigError(key: key, problem: "expected a whole number", at: value.position)
        }
    }

    /// `true` or `false`, or nil for null.
    public static func boolean(_ value: JSONValue, key: String) throws(ConfigError) -> Bool? {
        switch value.kind {
        case .null: return nil
        case .bool(let flag): return flag
        default: throw ConfigError(key: key, problem: "expected true or false", at: value.position)
        }
    }

    /// An array of strings, or nil for null.
    public static func strings(_ value: JSONValue, key: String) throws(ConfigError) -> [String]? {
        switch value.kind {
        case .null:
            return nil
        case .array(let items):
            var list: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item.kind else {
                    throw ConfigError(key: "\(key).\(index)", problem: "expected a string", at: item.position)
                }
                list.append(text)
            }
            return list
        default:
            throw ConfigError(key: key, problem: "expected an array of strings", at: value.position)
        }
    }

    /// An object of strings, or nil for null. Entries come back in file order, with each
    /// entry's problem (not a string, a key twice) beside them, for the caller to decide
    /// whether one bad entry spoils the whole key.
    public static func stringMap(_ value: JSONValue, key: String) throws(ConfigError) -> (entries: [(key: String, value: String, position: TextPosition)], problems: [ConfigError])? {
        switch value.kind {
        case .null:
            return nil
        case .object(let members):
            var (unique, problems) = Self.unique(members, under: key)
            var entries: [(key: String, value: String, position: TextPosition)] = []
            for member in unique {
                guard case .string(let text) = member.value.kind else {
                    problems.append(ConfigError(key: "\(key).\(RequestParser.shorten(member.key))", problem: "expected a string", at: member.value.position))
                    continue
                }
                entries.append((member.key, text, member.keyPosition))
            }
            return (entries, problems)
        default:
            throw ConfigError(key: key, problem: "expected an object of strings", at: value.position)
        }
    }
}
