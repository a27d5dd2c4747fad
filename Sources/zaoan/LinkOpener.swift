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
/// refuses it.
enum LinkOpener {
    /// Asks the service for the link of what `request` shows and opens it. Problems go to
    /// stderr (i3's log), never to the bar.
    static func open(shownBy request: String, socketPath: String, config: BarConfig) {
        let deadline = Deadline(after: 2)
        let answer: String
        do {
            let connection = try ServiceConnection(path: socketPath, deadline: deadline)
            try connection.send("url " + request, deadline: deadline)
            connection.finishSending()
            answer = String(decoding: try connection.readToEnd(deadline: deadline), as: UTF8.self)
        } catch {
            printError("cannot ask for the link: \(error.description)")
            return
        }
        let url = String(answer.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        guard !url.isEmpty else { return }  // nothing shown has a link
        if url.hasPrefix("ERR ") {
            printError(url)
            return
        }
        switch BarURL.check(url, schemes: config.urlSchemes) {
        case .failure(let refusal):
            printError("not opening the event's link: \(refusal.description)")
        case .success(let checked):
            DetachedCommand.spawn(config.urlOpener + [checked], for: ConfigKey.barURLOpener.name)
        }
    }
}
