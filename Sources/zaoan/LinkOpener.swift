import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

/// A click on a countdown (or a middle click on the ticker) opens the shown event's link,
/// as i3status-rust's calendar block does: the bar asks the service `url countdown`, checks
/// the answer against `bar_url_schemes` (`BarURL`), and runs `bar_url_opener` with the URL
/// as its last argument (`DetachedCommand`: never through a shell, stdin and stdout on
/// /dev/null, since stdout is i3bar's pipe). The URL cannot start with `-` (it starts with an
/// allowed scheme), so it is never read as an option; `--` is not added because xdg-open
/// refuses it. `join` asks `join countdown` first (the meeting link), and `url` when there
/// is none; `zaoan join` asks `join` alone.
enum LinkOpener {
    /// Opens the link `action` (`open-link` or `join`) finds for what `request` shows.
    /// Problems go to stderr (i3's log), never to the bar.
    static func open(_ action: ClickAction, shownBy request: String, socketPath: String, config: BarConfig) {
        if action == .join {
            switch ask("join " + request, socketPath: socketPath) {
            case .failure(let failure): return printError(failure.description)
            case .success(let link?): _ = open(link, config: config, what: "the meeting link")
            case .success(nil): open(.openLink, shownBy: request, socketPath: socketPath, config: config)
            }
            return
        }
        switch ask("url " + request, socketPath: socketPath) {
        case .failure(let failure): printError(failure.description)
        case .success(let link?): _ = open(link, config: config, what: "the event's link")
        case .success(nil): return  // nothing shown has a link
        }
    }

    /// The link the service answers `line` with; nil for an empty answer (none), a failure
    /// with what to say when it cannot be asked or answers an error.
    static func ask(_ line: String, socketPath: String) -> Result<String?, Failure> {
        let deadline = Deadline(after: 2)
        let answer: String
        do {
            let connection = try ServiceConnection(path: socketPath, deadline: deadline)
            try connection.send(line, deadline: deadline)
            connection.finishSending()
            answer = String(decoding: try connection.readToEnd(deadline: deadline), as: UTF8.self)
        } catch {
            return .failure(Failure("cannot ask for the link: \(error.description)"))
        }
        let link = String(answer.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        if link.hasPrefix("ERR ") { return .failure(Failure(link)) }
        return .success(link.isEmpty ? nil : link)
    }

    /// Runs `bar_url_opener` with `link` if `bar_url_schemes` and `BarURL` allow it; whether
    /// it was started. A refusal says what `what` was.
    static func open(_ link: String, config: BarConfig, what: String) -> Bool {
        switch BarURL.check(link, schemes: config.urlSchemes) {
        case .failure(let refusal):
            printError("not opening \(what): \(refusal.description)")
            return false
        case .success(let checked):
            return DetachedCommand.spawn(config.urlOpener + [checked], for: ConfigKey.barURLOpener.name)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
