import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanText

/// What the command line asks for. `parse` is hand-written so tests can call it directly.
enum Command: Equatable {
    /// `zaoan serve` and `zaoan check-config`: the service's, run by `zaoan-server` (see
    /// `ServerHandOff`), which parses their options itself.
    case server
    /// `zaoan ask`: one request, one answer.
    case ask(ClientOptions)
    /// `zaoan watch`: a request's answer now and on every change, for bars that run commands.
    case watch(ClientOptions)
    /// `zaoan bar`: an i3bar/swaybar status_command.
    case bar(BarOptions)
    /// `zaoan click`: a bar module's click, for the watches showing it (waybar's on-click).
    case click(ClickOptions)
    /// `zaoan join`: opens the meeting link of the live or next event.
    case join(JoinOptions)
    /// `zaoan cal`: the month's grid in a terminal.
    case cal(ClientOptions)
    case help
    case version
}

/// What `ask` and `watch` send, and where.
struct ClientOptions: Equatable {
    var socket: String?
    /// nil: the service's default, plain text.
    var format: OutputFormat?
    var words: [String]
    /// How long to wait for the service (ask: the whole answer; watch: the first one).
    var timeout = ClientLimits.defaultTimeout
    /// watch: the longest wait between attempts to reach a service that is down.
    var retryAfter = ClientLimits.defaultRetryAfter
    /// watch: the config file whose `bar_clicks`, `bar_clock_formats` and `bar_clock_zones`
    /// the clicks it gets follow (nil: the service's default file).
    var config: String?

    /// The request line: the words (see `RequestWords.line`; `parse` has refused words it
    /// cannot send) behind `--format=FMT`.
    var requestLine: String {
        requestLine(for: (try? RequestWords.line(words)) ?? "")  // parse already refused words that cannot be sent
    }

    /// The words as one line (see `requestLine`), without the format.
    var wordsLine: String { (try? RequestWords.line(words)) ?? "" }  // parse already refused words that cannot be sent

    /// `request` behind `--format=FMT` (a watch whose clicks changed its request).
    func requestLine(for request: String) -> String {
        guard let format, format != .plain else { return request }
        return "--format=\(format.rawValue) " + request
    }
}

struct BarOptions: Equatable {
    var socket: String?
    var config: String?
    /// The longest wait between attempts to reach a service that is down.
    var retryAfter = ClientLimits.defaultRetryAfter
}

enum Options {
    static let usage = """
        zaoan \(Version.number) — greetings, clocks and countdowns for shell prompts and status bars

        Usage:
          zaoan serve [--socket PATH] [--config FILE] [--city NAME] [--timezone IANA-ID]
                      [--language TAG] [--exit-idle-time DURATION] [--verbose]
          zaoan ask [--socket PATH] [--format FMT] [--timeout DURATION] REQUEST...
          zaoan watch [--socket PATH] [--format FMT] [--timeout DURATION] [--retry-after DURATION]
                      [--config FILE] REQUEST...
          zaoan bar [--socket PATH] [--config FILE] [--retry-after DURATION]
          zaoan click [--config FILE] BLOCK BUTTON
          zaoan join [--socket PATH] [--config FILE] [countdown [ID] | ticker [SKIP] | status]
          zaoan cal [--socket PATH] [--timeout DURATION] [YYYY-MM|+N|-N] [@ZONE]
          zaoan check-config [FILE]
          zaoan --help | --version

        Commands:
          serve         run the service (zaoan-server, beside zaoan or in ../libexec/zaoan)
          ask           send one request and print the answer; an ERR answer goes to
                        stderr with exit status 1; exit status 2 if the service is not
                        running or has not answered within --timeout (default 5s)
          watch         print the answer now and a new line whenever it changes, forever;
                        if the service stops, print one line saying so and reconnect every 2 s
                        (--retry-after)
          bar           an i3bar/swaybar status_command (bar { status_command zaoan bar }):
                        the blocks of the config's bar_blocks; click the ticker to advance it,
                        click a clock to cycle bar_clock_formats (bar_clicks binds others)
          click         a click on a bar module (waybar's on-click): BUTTON (left, middle,
                        right, wheel-up, wheel-down) on BLOCK (ticker, time, status, ...)
                        does what bar_clicks says; a step goes to every zaoan watch of BLOCK
                        you run, a command is run from here
          join          open the meeting link (Zoom, Meet, Teams, ...) of the live or next
                        event with bar_url_opener, as a bar click opens a link
          cal           print the month as a grid (week numbers, lunar days, holidays,
                        days with events), in colour on a terminal: a bar's popup
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

        --retry-after DURATION (default 2s, 50ms to 1h): while the service is down, watch and
        bar try to reach it again after 0.5 s, then twice as long each time, up to this.

        Examples:
          zaoan serve                        listen on $XDG_RUNTIME_DIR/zaoan.sock
          zaoan ask greeting                 早安·北京
          zaoan ask time %H:%M:%S
          zaoan ask --format json status     for waybar's return-type json
          zaoan watch time HH:mm:ss          a new line every second
          zaoan watch --format=json status   a waybar custom module that never polls
          echo greeting | nc -U "$XDG_RUNTIME_DIR/zaoan.sock"

        Send `help` to the service for the list of requests; see man zaoan, man zaoan.conf and
        docs/protocol.md (installed by the package in /usr/share/doc/zaoan/docs/).

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .help }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help", "help": return .help
        case "-V", "--version", "version": return .version
        case "serve", "check-config": return .server
        case "ask": return .ask(try parseClient(rest, command: "ask", example: "zaoan ask greeting"))
        case "watch": return .watch(try parseClient(rest, command: "watch", example: "zaoan watch time HH:mm:ss"))
        case "bar": return .bar(try parseBar(rest))
        case "click": return .click(try parseClick(rest))
        case "join": return .join(try JoinOptions.parse(rest))
        case "cal":
            let split = CalCommand.optionCount(rest)
            var options = try parseClient(Array(rest[..<split]) + ["--", "month"] + Array(rest[split...]), command: "cal", example: "zaoan cal +1")
            options.format = .json
            return .cal(options)
        default:
            throw UsageError("unknown command '\(first)'\(suggestion(for: first).map { " (did you mean '\($0)'?)" } ?? ""); run zaoan --help")
        }
    }

    /// The client's commands, for suggestions.
    static let commands = ["ask", "watch", "bar", "click", "join", "cal", "serve", "check-config", "help", "version"]

    /// What a mistyped command most likely meant: one of the client's (`wacth` → `watch`),
    /// or a request sent with ask (`greting` → `zaoan ask greeting`, `greeting` too).
    static func suggestion(for word: String) -> String? {
        if let command = Spelling.suggestion(for: word, among: commands) { return "zaoan \(command)" }
        // Only whether the word is a request matters; why it is not is the next line's business.
        if (try? RequestParser.parse(word)) != nil { return "zaoan ask \(word)" }
        return RequestParser.suggestion(for: word).map { "zaoan ask \($0)" }
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
            let name = Arguments.optionName(argument)
            guard ["--socket", "--format", "--timeout"].contains(name) || (command == "watch" && ["--retry-after", "--config"].contains(name)) else {
                throw UsageError("unknown option '\(argument)' for \(command); run zaoan --help")
            }
            let (value, consumed) = try Arguments.value(of: name, in: arguments, at: index)
            switch name {
            case "--socket":
                options.socket = value
            case "--format":
                guard let format = OutputFormat(rawValue: value.lowercased()) else {
                    throw UsageError("--format must be \(OutputFormat.names), not '\(value)'")
                }
                options.format = format
            case "--retry-after":
                options.retryAfter = try retryAfter(value)
            case "--config":
                options.config = value
            default:
                guard let seconds = Arguments.parseDuration(value), ClientLimits.timeoutRange.contains(seconds) else {
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
        try Arguments.eachOption(arguments, of: "bar", valued: ["--socket", "--config", "--retry-after"]) { (name, value) throws(UsageError) in
            switch name {
            case "--socket": options.socket = value
            case "--config": options.config = value
            default: options.retryAfter = try retryAfter(value ?? "")
            }
        }
        return options
    }

    /// `[--config FILE] BLOCK... BUTTON`: the block's request word may be two words (`live list`).
    private static func parseClick(_ arguments: [String]) throws(UsageError) -> ClickOptions {
        let (values, words) = try Arguments.leadingOptions(arguments, of: "click", valued: ["--config"])
        let config = values["--config"]
        guard words.count >= 2, let last = words.last else {
            throw UsageError("click needs a block and a button, e.g. zaoan click ticker left")
        }
        guard let button = ClickButton(word: last) else {
            throw UsageError("'\(RequestParser.shorten(last))' is not a button; use \(ClickButton.names.joined(separator: ", ")) or 1 to 5")
        }
        let block = words.dropLast().map { $0.lowercased() }.joined(separator: " ")
        guard BarClicks.blockWords.contains(block) else {
            let hint = Spelling.suggestion(for: block, among: BarClicks.blockWords).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError("'\(RequestParser.shorten(block))' is not a block a bar can show\(hint); name it by its request word: \(BarClicks.blockWords.joined(separator: ", "))")
        }
        return ClickOptions(config: config, block: block, button: button)
    }

    private static func retryAfter(_ value: String) throws(UsageError) -> Double {
        guard let seconds = Arguments.parseDuration(value), ClientLimits.retryAfterRange.contains(seconds) else {
            throw UsageError("--retry-after takes a duration from 50ms to 1h, like 500ms, 2s or 10, not '\(value)'")
        }
        return seconds
    }
}
