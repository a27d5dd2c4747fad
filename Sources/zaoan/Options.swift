import ZaoanClient
import ZaoanCore
import ZaoanServer

/// What the command line asks for. `parse` is hand-written so tests can call it directly.
enum Command: Equatable {
    case serve(ServeOptions)
    /// `zaoan ask`: one request, one answer.
    case ask(ClientOptions)
    /// `zaoan watch`: a request's answer now and on every change, for bars that run commands.
    case watch(ClientOptions)
    /// `zaoan bar`: an i3bar/swaybar status_command.
    case bar(BarOptions)
    case checkConfig(path: String?)
    case help
    case version
}

struct ServeOptions: Equatable {
    var socket: String?
    var config: String?
    var overrides = SettingsOverrides()
    var verbose = false
    var exitIdleTime: Double?
}

/// What `ask` and `watch` send, and where.
struct ClientOptions: Equatable {
    var socket: String?
    /// nil: the service's default, plain text.
    var format: OutputFormat?
    var words: [String]
    /// How long to wait for the service (ask: the whole answer; watch: the first one).
    var timeout = ClientLimits.defaultTimeout

    /// The request line: the words (see `RequestWords.line`; `parse` has refused words it
    /// cannot send) behind `--format=FMT`.
    var requestLine: String {
        let request = (try? RequestWords.line(words)) ?? ""
        guard let format, format != .plain else { return request }
        return "--format=\(format.rawValue) " + request
    }
}

struct BarOptions: Equatable {
    var socket: String?
    var config: String?
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
                      [--language zh|en] [--exit-idle-time DURATION] [--verbose]
          zaoan ask [--socket PATH] [--format FMT] [--timeout DURATION] REQUEST...
          zaoan watch [--socket PATH] [--format FMT] [--timeout DURATION] REQUEST...
          zaoan bar [--socket PATH] [--config FILE]
          zaoan check-config [FILE]
          zaoan --help | --version

        Commands:
          serve         run the service
          ask           send one request and print the answer; an ERR answer goes to
                        stderr with exit status 1; exit status 2 if the service is not
                        running or has not answered within --timeout (default 5s)
          watch         print the answer now and a new line whenever it changes, forever;
                        if the service stops, print one line saying so and reconnect every 2 s
          bar           an i3bar/swaybar status_command (bar { status_command zaoan bar }):
                        the blocks of the config's bar_blocks; click the ticker to advance it,
                        click a clock to cycle bar_clock_formats
          check-config  check a config file (default $XDG_CONFIG_HOME/zaoan/config.json)

        Formats (--format FMT or --format=FMT):
          plain         the text (default)
          json          a waybar object {"text","tooltip","class","alt"}
          i3bar         an i3bar block {"name","instance","full_text","short_text","urgent"}
          tmux          the text with # doubled, for tmux's status line
          polybar       the text with %{ defused, for polybar

        --timeout DURATION (300ms, 2s, 0.5): the longest ask waits for its whole answer,
        and watch for the service to answer at all; a prompt wants 100ms. Requests hold no
        control characters or line breaks (exit 64).

        Examples:
          zaoan serve                        listen on $XDG_RUNTIME_DIR/zaoan.sock
          zaoan ask greeting                 早安·北京
          zaoan ask time %H:%M:%S
          zaoan ask --format json status     for waybar's return-type json
          zaoan watch time HH:mm:ss          a new line every second
          zaoan watch --format=json status   a waybar custom module that never polls
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
        case "ask": return .ask(try parseClient(rest, command: "ask", example: "zaoan ask greeting"))
        case "watch": return .watch(try parseClient(rest, command: "watch", example: "zaoan watch time HH:mm:ss"))
        case "bar": return .bar(try parseBar(rest))
        case "check-config":
            guard rest.count <= 1 else { throw UsageError("check-config takes at most one FILE") }
            return .checkConfig(path: rest.first)
        default:
            throw UsageError("unknown command '\(first)'; run zaoan --help")
        }
    }

    /// systemd-style durations: `300` (seconds), `90s`, `500ms`, `5min`, `1h`, `1h30min`.
    /// Finite and not negative (`inf`, `nan`, `1e400` are not durations); the caller checks
    /// the range.
    static func parseDuration(_ text: String) -> Double? {
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

    private static func parseServe(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        let valued: Set = ["--socket", "--config", "--city", "--timezone", "--language", "--exit-idle-time"]
        try eachOption(arguments, of: "serve", valued: valued, flags: ["--verbose", "-v"]) { (name, value) throws(UsageError) in
            switch (name, value) {
            case (_, nil): options.verbose = true
            case ("--socket", let value?): options.socket = value
            case ("--config", let value?): options.config = value
            case ("--city", let value?): options.overrides.city = value
            case ("--timezone", let value?): options.overrides.timezone = value
            case ("--exit-idle-time", let value?):
                guard let seconds = parseDuration(value) else {
                    throw UsageError("--exit-idle-time takes a duration like 300, 90s, 5min or 1h, not '\(value)'")
                }
                guard seconds >= Server.minimumExitIdleTime else {
                    throw UsageError("--exit-idle-time must be at least \(Server.minimumExitIdleTime)s: each exit costs a socket trigger, and systemd fails the socket past 20 in 2 s")
                }
                guard seconds <= Server.maximumExitIdleTime else {
                    throw UsageError("--exit-idle-time must be at most \(Int(Server.maximumExitIdleTime / 86_400)) days; to never exit when idle, leave the option out")
                }
                options.exitIdleTime = seconds
            case (_, let value?):  // --language
                guard Language(rawValue: value) != nil else { throw UsageError("--language must be zh or en, not '\(value)'") }
                options.overrides.language = value
            }
        }
        return options
    }

    /// Walks `--name VALUE` / `--name=VALUE` options (and `flags`, which take none), calling
    /// `take` with each; anything else is a usage error naming the command.
    private static func eachOption(
        _ arguments: [String], of command: String, valued: Set<String>, flags: Set<String> = [],
        _ take: (String, String?) throws(UsageError) -> Void
    ) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) {
                try take(argument, nil)
                index += 1
                continue
            }
            guard valued.contains(name) else {
                throw UsageError("unknown option '\(argument)' for \(command); run zaoan --help")
            }
            let (value, consumed) = try self.value(of: name, in: arguments, at: index)
            try take(name, value)
            index += consumed
        }
    }

    /// `[--socket PATH] [--format FMT] [--timeout DURATION] [--] REQUEST...`, options in any
    /// order before the request.
    private static func parseClient(_ arguments: [String], command: String, example: String) throws(UsageError) -> ClientOptions {
        var options = ClientOptions(words: [])
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard ["--socket", "--format", "--timeout"].contains(name) else {
                throw UsageError("unknown option '\(argument)' for \(command); run zaoan --help")
            }
            let (value, consumed) = try value(of: name, in: arguments, at: index)
            switch name {
            case "--socket":
                options.socket = value
            case "--format":
                guard let format = OutputFormat(rawValue: value.lowercased()) else {
                    throw UsageError("--format must be \(OutputFormat.names), not '\(value)'")
                }
                options.format = format
            default:
                guard let seconds = parseDuration(value), ClientLimits.timeoutRange.contains(seconds) else {
                    throw UsageError("--timeout takes a duration from 1ms to 1h, like 100ms, 2s or 0.5, not '\(value)'")
                }
                options.timeout = seconds
            }
            index += consumed
        }
        options.words = Array(arguments[index...])
        guard !options.words.isEmpty else { throw UsageError("\(command) needs a request, e.g. \(example)") }
        do {
            _ = try RequestWords.line(options.words)
        } catch {
            throw UsageError(error.description)
        }
        return options
    }

    private static func parseBar(_ arguments: [String]) throws(UsageError) -> BarOptions {
        var options = BarOptions()
        try eachOption(arguments, of: "bar", valued: ["--socket", "--config"]) { name, value in
            if name == "--socket" { options.socket = value } else { options.config = value }
        }
        return options
    }

    /// `--name VALUE` or `--name=VALUE`. Returns the value and how many arguments it used.
    /// Every option's value is a non-empty word on one line.
    private static func value(of name: String, in arguments: [String], at index: Int) throws(UsageError) -> (String, Int) {
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
