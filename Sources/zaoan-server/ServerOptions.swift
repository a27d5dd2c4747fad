import ZaoanCommandLine
import ZaoanCore
import ZaoanServer

/// What `zaoan-server` is asked to do: the service's commands, which `zaoan` hands over
/// (`zaoan serve ...` becomes `zaoan-server` with the same argv, argv[0] included).
enum ServerCommand: Equatable {
    case serve(ServeOptions)
    case checkConfig(path: String?)
    case version
    /// Internal: the service's reader process (`ReaderProcess`), never run by hand.
    case calendarReader
}

struct ServeOptions: Equatable {
    var socket: String?
    var config: String?
    var overrides = SettingsOverrides()
    var verbose = false
    var exitIdleTime: Double?
}

enum ServerOptions {
    /// `arguments` without argv[0]: `serve [OPTIONS]` or `check-config [FILE]`.
    static func parse(_ arguments: [String]) throws(UsageError) -> ServerCommand {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "serve":
            return .serve(try parseServe(rest))
        case "check-config":
            guard rest.count <= 1 else { throw UsageError("check-config takes at most one FILE") }
            return .checkConfig(path: rest.first)
        case "-V", "--version", "version":
            return .version
        case "calendar-reader" where rest.isEmpty:
            return .calendarReader
        case let other?:
            throw UsageError("unknown command '\(other)' for zaoan-server, which runs serve and check-config; the clients are zaoan's: run zaoan --help")
        case nil:
            throw UsageError("zaoan-server needs a command, serve or check-config (zaoan serve and zaoan check-config run it); run zaoan --help")
        }
    }

    private static func parseServe(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        let valued: Set = ["--socket", "--config", "--city", "--timezone", "--language", "--exit-idle-time"]
        try Arguments.eachOption(arguments, of: "serve", valued: valued, flags: ["--verbose", "-v"]) { (name, value) throws(UsageError) in
            switch (name, value) {
            case (_, nil): options.verbose = true
            case ("--socket", let value?): options.socket = value
            case ("--config", let value?): options.config = value
            case ("--city", let value?): options.overrides.city = value
            case ("--timezone", let value?): options.overrides.timezone = value
            case ("--exit-idle-time", let value?):
                guard let seconds = Arguments.parseDuration(value) else {
                    throw UsageError("--exit-idle-time takes a duration like 300, 90s, 5min or 1h, not '\(value)'")
                }
                guard seconds >= Server.minimumExitIdleTime else {
                    throw UsageError("--exit-idle-time must be at least \(Server.minimumExitIdleTime)s: each exit costs a socket trigger, and systemd fails the socket past 20 in 2 s")
                }
                guard seconds <= Server.maximumExitIdleTime else {
                    throw UsageError("--exit-idle-time must be at most \(Int(clampingSeconds: Server.maximumExitIdleTime / 86_400)) days; to never exit when idle, leave the option out")
                }
                options.exitIdleTime = seconds
            case (_, let value?):  // --language
                guard Language(tag: value) != nil else {
                    throw UsageError("--language must be one of \(Language.allCases.map(\.rawValue).joined(separator: ", ")) (a region may follow: zh-TW, de-AT), not '\(value)'")
                }
                options.overrides.language = value
            }
        }
        return options
    }
}
