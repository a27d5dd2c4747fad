import ZaoanCore

/// What the command line asks for. `parse` is hand-written so tests can call it directly.
enum Command: Equatable {
    case serve(ServeOptions)
    case ask(socket: String?, words: [String])
    case checkConfig(path: String?)
    case help
    case version
}

struct ServeOptions: Equatable {
    var socket: String?
    var config: String?
    var overrides = SettingsOverrides()
    var verbose = false
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Options {
    static let usage = """
        zaoan \(Version.number) — greetings, clocks and countdowns for shell prompts and status bars

        Usage:
          zaoan serve [--socket PATH] [--config FILE] [--city NAME] [--timezone IANA-ID]
                      [--language zh|en] [--verbose]
          zaoan ask [--socket PATH] REQUEST...
          zaoan check-config [FILE]
          zaoan --help | --version

        Examples:
          zaoan serve                      listen on $XDG_RUNTIME_DIR/zaoan.sock
          zaoan ask greeting               早安·北京
          zaoan ask time %H:%M:%S
          echo greeting | nc -U "$XDG_RUNTIME_DIR/zaoan.sock"

        Send `help` to the service for the list of requests; see docs/protocol.md.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .help }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help": return .help
        case "-V", "--version", "version": return .version
        case "serve": return .serve(try parseServe(rest))
        case "ask":
            var socket: String?
            var words = rest
            if let first = words.first, first == "--socket" || first.hasPrefix("--socket=") {
                let (value, consumed) = try value(of: "--socket", in: words, at: 0)
                socket = value
                words.removeFirst(consumed)
            }
            if words.first == "--" { words.removeFirst() }
            guard !words.isEmpty else { throw UsageError("ask needs a request, e.g. zaoan ask greeting") }
            return .ask(socket: socket, words: words)
        case "check-config":
            guard rest.count <= 1 else { throw UsageError("check-config takes at most one FILE") }
            return .checkConfig(path: rest.first)
        default:
            throw UsageError("unknown command '\(first)'; run zaoan --help")
        }
    }

    private static func parseServe(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if name == "--verbose" || name == "-v" {
                options.verbose = true
                index += 1
                continue
            }
            guard ["--socket", "--config", "--city", "--timezone", "--language"].contains(name) else {
                throw UsageError("unknown option '\(argument)' for serve; run zaoan --help")
            }
            let (value, consumed) = try value(of: name, in: arguments, at: index)
            switch name {
            case "--socket": options.socket = value
            case "--config": options.config = value
            case "--city": options.overrides.city = value
            case "--timezone": options.overrides.timezone = value
            case "--language":
                guard Language(rawValue: value) != nil else { throw UsageError("--language must be zh or en, not '\(value)'") }
                options.overrides.language = value
            default: throw UsageError("unknown option '\(argument)' for serve; run zaoan --help")
            }
            index += consumed
        }
        return options
    }

    /// `--name VALUE` or `--name=VALUE`. Returns the value and how many arguments it used.
    private static func value(of name: String, in arguments: [String], at index: Int) throws(UsageError) -> (String, Int) {
        let argument = arguments[index]
        if argument.hasPrefix(name + "=") {
            return (String(argument.dropFirst(name.count + 1)), 1)
        }
        guard argument == name else { throw UsageError("unknown option '\(argument)'; run zaoan --help") }
        guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
        return (arguments[index + 1], 2)
    }
}
