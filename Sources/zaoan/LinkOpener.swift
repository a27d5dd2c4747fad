import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem

/// A click on a countdown (or a middle click on the ticker) opens the shown event's link,
/// as i3status-rust's calendar block does: the bar asks the service `url countdown`, checks
/// the answer against `bar_url_schemes` (`BarURL`), and runs `bar_url_opener` with the URL
/// as its last argument — spawned directly, never through a shell, with stdin and stdout on
/// /dev/null (stdout is i3bar's pipe). The URL cannot start with `-` (it starts with an
/// allowed scheme), so it is never read as an option; `--` is not added because xdg-open
/// refuses it. Children are reaped by the kernel (SIGCHLD ignored).
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
            spawn(config.urlOpener + [checked])
        }
    }

    /// Runs `argv` (PATH searched for a bare name) with stdin and stdout on /dev/null.
    static func spawn(_ argv: [String]) {
        signal(SIGCHLD, SIG_IGN)  // no zombies, no waiting
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0], &actions, nil, &arguments, environ)
        if status != 0 {
            printError("cannot run \(argv[0]) (bar_url_opener): \(String(cString: strerror(status)))")
        }
    }
}
