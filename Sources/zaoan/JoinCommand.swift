import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

/// `zaoan join [--socket PATH] [--config FILE] [countdown [ID] | ticker [SKIP] | status]`:
/// opens the meeting link of the live or next event (or of what the request shows), as a
/// bar click opens a link: the service's `join` answer, checked against `bar_url_schemes`,
/// given to `bar_url_opener` (`LinkOpener`).
///
/// Exit status: 0 once the opener is started, 1 when nothing shown has a meeting link, the
/// link is refused or the opener cannot be started, 2 when the service cannot be reached,
/// 64 for bad arguments, 78 for a bad config.
struct JoinCommand {
    let options: JoinOptions
    let environment: [String: String]

    func run() -> Never {
        let config: BarConfig
        do {
            config = try BarConfig.load(path: options.config, environment: environment)
        } catch {
            fail(error.description, status: 78)  // EX_CONFIG
        }
        let socketPath: String
        do {
            socketPath = try ServiceSocket.locate(explicit: options.socket, environment: environment)
        } catch {
            fail(error.description, status: error.exitStatus)
        }
        switch LinkOpener.ask(options.line, socketPath: socketPath) {
        case .failure(let failure):
            fail(failure.description, status: failure.description.hasPrefix("ERR ") ? 1 : 2)
        case .success(nil):
            fail("nothing \(options.words.isEmpty ? "live or next" : "it shows") has a meeting link", status: 1)
        case .success(let link?):
            exit(LinkOpener.open(link, config: config, what: "the meeting link") ? 0 : 1)
        }
    }
}

struct JoinOptions: Equatable {
    var socket: String?
    var config: String?
    /// What shows the event (`countdown ID`, `ticker 2`, `status`); none: the live or next.
    var words: [String] = []
    /// The request sent: `join` and the words, quoted as the protocol reads them.
    var line = "join"

    /// `[--socket PATH] [--config FILE] [--] [REQUEST...]`, options before the request.
    static func parse(_ arguments: [String]) throws(UsageError) -> JoinOptions {
        let (values, words) = try Arguments.leadingOptions(arguments, of: "join", valued: ["--socket", "--config"])
        var options = JoinOptions(socket: values["--socket"], config: values["--config"], words: words)
        do {
            options.line = try RequestWords.line(["join"] + words)
        } catch {
            throw UsageError(error.description)
        }
        return options
    }
}
