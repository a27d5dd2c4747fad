import Glibc
import ZaoanSystem
import ZaoanText

/// A command line zaoan cannot act on; `description` says what to type instead. Both
/// executables exit 64 (`EX_USAGE`) with it.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The option conventions `zaoan` (the clients) and `zaoan-server` (serve, check-config)
/// share, so both read `--name VALUE`, `--name=VALUE` and durations alike and word their
/// mistakes alike. No Foundation: the client links this.
public enum Arguments {
    /// systemd-style durations: `300` (seconds), `90s`, `500ms`, `5min`, `1h`, `1h30min`.
    /// Finite and not negative (`inf`, `nan`, `1e400` are not durations); the caller checks
    /// the range.
    public static func parseDuration(_ text: String) -> Double? {
        if let plain = Double(text) { return plain.isFinite && plain >= 0 ? plain : nil }
        let units: [(String, Double)] = [("ms", 0.001), ("min", 60), ("s", 1), ("m", 60), ("h", 3600)]
        var total = 0.0
        var rest = Substring(text)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            guard let (unit, scale) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            total += value * scale
        }
        return text.isEmpty || !total.isFinite ? nil : total
    }

    /// Walks `--name VALUE` / `--name=VALUE` options (and `flags`, which take none), calling
    /// `take` with each; anything else is a usage error naming the command.
    public static func eachOption(
        _ arguments: [String], of command: String, valued: Set<String>, flags: Set<String> = [],
        _ take: (String, String?) throws(UsageError) -> Void
    ) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if flags.contains(argument) {
                try take(argument, nil)
                index += 1
                continue
            }
            let name = optionName(argument)
            guard valued.contains(name) else {
                throw UsageError("unknown option '\(argument)' for \(command); run zaoan --help")
            }
            let (value, consumed) = try self.value(of: name, in: arguments, at: index)
            try take(name, value)
            index += consumed
        }
    }

    /// The `--name VALUE` / `--name=VALUE` options before the first word that is not one
    /// (`--` ends them too), and the words after them: `zaoan join`'s and `zaoan click`'s
    /// command lines, whose words may not start with `-`.
    public static func leadingOptions(_ arguments: [String], of command: String, valued: Set<String>) throws(UsageError) -> (values: [String: String], words: [String]) {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            if arguments[index] == "--" {
                index += 1
                break
            }
            let name = optionName(arguments[index])
            guard valued.contains(name) else { throw UsageError("unknown option '\(arguments[index])' for \(command); run zaoan --help") }
            let (value, consumed) = try self.value(of: name, in: arguments, at: index)
            values[name] = value
            index += consumed
        }
        return (values, Array(arguments[index...]))
    }

    /// `--name` of `--name=VALUE`, or the whole argument.
    public static func optionName(_ argument: String) -> String {
        argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
    }

    /// `--name VALUE` or `--name=VALUE`. Returns the value and how many arguments it used.
    /// Every option's value is a non-empty word on one line.
    public static func value(of name: String, in arguments: [String], at index: Int) throws(UsageError) -> (String, Int) {
        let argument = arguments[index]
        let value: String
        let used: Int
        if argument.hasPrefix(name + "=") {
            value = String(argument.dropFirst(name.count + 1))
            used = 1
        } else {
            guard argument == name else { throw UsageError("unknown option '\(argument)'; run zaoan --help") }
            guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
            value = arguments[index + 1]
            used = 2
        }
        guard !value.isEmpty else { throw UsageError("\(name) needs a value; it was given an empty one") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw UsageError("\(name) must not hold control characters or line breaks")
        }
        return (value, used)
    }
}

/// A message on stderr as `zaoan: MESSAGE`, each line made visible-safe: it may quote what a
/// server or a config file said.
public func printError(_ message: String) {
    var text = "zaoan: " + SafeText.visibleLines(message) + "\n"
    // All of it, through partial writes; a non-blocking stderr nobody reads is given 2 s,
    // so a message never holds up a bar's client for good.
    _ = text.withUTF8 { bytes in
        try? Posix.writeAll(2, UnsafeRawBufferPointer(bytes), until: Posix.monotonicSeconds() + 2, "writing to stderr")  // nowhere else to say it
    }
}

/// `printError`, then exit with `status`.
public func fail(_ message: String, status: Int32) -> Never {
    printError(message)
    exit(status)
}
