import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem
import ZaoanText

/// `zaoan watch [--format FMT] REQUEST`: copies the service's `watch` stream to stdout, line
/// by line, for bars that run a command and read its output (waybar, i3blocks, polybar).
///
/// It never exits on its own while the request is good: when the service is not running,
/// does not answer within --timeout, or the connection drops, it prints one line saying so
/// (in the chosen format, so the bar shows it instead of choking on it) and reconnects,
/// every 2 s at most (--retry-after), until the stream is back. A request the service refuses is
/// different: retrying cannot help, so the error goes to stderr with exit status 1.
///
/// What it prints is filtered (`ClientOutput`): whatever is on the other end of the
/// socket, no control byte reaches the terminal or bar, and a bar format passes only the
/// fields zaoan writes.
///
/// Clicks: a watch of a ticker, clock, countdown or status opens its end of the click channel
/// (`ClickInbox`), where `zaoan click` (waybar's on-click) writes built-in actions. A step
/// (`next`, `next-format`, `next-zone`, ...) changes the request as `zaoan bar` changes a
/// block's (`BarBlock.apply`, with the config's `bar_clock_formats` and `bar_clock_zones`)
/// and watches it anew at once, so the bar's next line shows it; `open-link` opens the link
/// of what it shows (`LinkOpener`). The state is the process's: a new watch starts from
/// the request it was given.
struct WatchCommand {
    let options: ClientOptions
    let socketPath: String
    var environment: [String: String] = [:]

    /// What a click changed: the block as it is now (nil until the first click: the request
    /// stays exactly what the command line says).
    private final class Clicked {
        var block: BarBlock?
    }

    func run() -> Never {
        StandardOutput.ignoreBrokenPipe()
        let signals: Descriptor
        do {
            signals = try Signals.descriptor(for: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            printError(error.description)
            exit(1)
        }
        // `watch events` is a stream of moments: the service sends nothing until one comes,
        // so only connecting and sending are held to --timeout.
        let eventStream = (try? RequestParser.parse("watch " + options.requestLine))?.kind == .watchEvents  // a line that does not parse gets the service's error
        let format = options.format ?? .plain
        let instance = options.words.first?.lowercased() ?? "zaoan"
        var backoff = Backoff(limit: options.retryAfter)
        var outageReported = false
        let clicked = Clicked()
        let inbox = eventStream ? nil : openInbox()
        // The moment of the last event line printed: a stream that comes back after it was
        // cut (a slow reader, a restart) asks for what it missed since then.
        var lastMoment: String?
        var requestLine: String {
            if let lastMoment { return "watch " + options.requestLine(for: "events since=" + lastMoment) }
            return "watch " + options.requestLine(for: clicked.block?.requestLine ?? options.wordsLine)
        }

        /// Takes the clicks waiting; returns whether the request changed.
        func takeClicks() -> Bool {
            guard let inbox else { return false }
            let words = inbox.read()
            guard !words.isEmpty else { return false }
            return apply(words, to: clicked)
        }

        /// Says once per outage that the service is away; `problem` goes to the tooltip and stderr.
        func reportOutage(_ problem: String) {
            guard !outageReported else { return }
            outageReported = true
            StandardOutput.write(StatusLine.serviceDown(problem, format: format, instance: instance) + "\n")
            printError(problem.split(separator: "\n").joined(separator: " ") + " Retrying every \(ClientError.seconds(backoff.limit)).")
        }

        /// Waits `seconds`, leaving early only to exit on a signal or a vanished reader.
        func pause(_ seconds: Double) {
            let deadline = Posix.monotonicSeconds() + seconds
            while true {
                let left = deadline - Posix.monotonicSeconds()
                if left <= 0 { return }
                var entries = [pollfd(fd: signals.rawValue, events: Int16(POLLIN), revents: 0), StandardOutput.hangupEntry,
                               pollfd(fd: inbox?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
                pollDescriptors(&entries, timeout: left)
                exitIfAsked(entries, signals: signals)
                // While the service is away a click changes what the next connection asks.
                if entries[2].revents != 0 { _ = takeClicks() }
            }
        }

        while true {
            let connection: ServiceConnection
            // The service must accept and answer within --timeout; after the first answer a
            // watch may be quiet for as long as its text stays the same.
            var firstAnswerBy: Deadline? = Deadline(after: options.timeout)
            do {
                connection = try ServiceConnection(path: socketPath, deadline: firstAnswerBy!)
                try connection.send(requestLine, deadline: firstAnswerBy!)
            } catch {
                reportOutage(error.description)
                pause(backoff.delay())
                continue
            }
            var open = true
            var problem: String?
            var changed = false
            while open {
                var entries = [
                    pollfd(fd: signals.rawValue, events: Int16(POLLIN), revents: 0),
                    StandardOutput.hangupEntry,
                    pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: inbox?.fd ?? -1, events: Int16(POLLIN), revents: 0),
                ]
                pollDescriptors(&entries, timeout: eventStream ? nil : firstAnswerBy.map { max(0, $0.remaining) })
                exitIfAsked(entries, signals: signals)
                if entries[3].revents != 0, takeClicks() {
                    changed = true  // the new request is watched at once, on a new connection
                    break
                }
                if !eventStream, let deadline = firstAnswerBy, deadline.hasPassed, entries[2].revents == 0 {
                    problem = ClientError.timedOut(path: socketPath, seconds: options.timeout, waitingFor: "answer").description
                    break
                }
                guard entries[2].revents != 0 else { continue }
                let lines: [String]
                do {
                    (lines, open) = try connection.readLines()
                } catch {
                    problem = error.description
                    break
                }
                for line in lines {
                    if firstAnswerBy != nil, line.hasPrefix("ERR ") {
                        if line.hasPrefix("ERR busy ") {
                            problem = "the zaoan service at \(socketPath) is busy: \(line.dropFirst(9))"
                            open = false
                            break
                        }
                        printError(line)
                        exit(1)
                    }
                    firstAnswerBy = nil
                    outageReported = false
                    backoff.reset()
                    if eventStream, let moment = Self.moment(of: line) { lastMoment = moment }
                    StandardOutput.write(output(line, format: format, instance: instance) + "\n")
                }
            }
            connection.close()
            if changed { continue }
            reportOutage(problem ?? "the zaoan service at \(socketPath) closed the connection; it stopped or is restarting; retrying.\n"
                         + ClientError.startHint(for: socketPath))
            pause(backoff.delay())
        }
    }

    /// The `at` of an event line (`"at":"2026-12-01T08:00:00+08:00"`), if it has one that
    /// reads as a time: what the next connection asks `since=` for.
    static func moment(of line: String) -> String? {
        let bytes = Array(line.utf8)
        let key = Array(#""at":""#.utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }).map({ $0 + key.count }),
              let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let value = bytes[start..<end]
        let allowed = Set("0123456789TZ:+-.".utf8)
        guard (1...Request.maxSinceBytes).contains(value.count), value.allSatisfy(allowed.contains) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    // MARK: - Clicks

    /// The watch's end of the click channel, for a block a built-in click action can change
    /// (the ticker, a clock, a countdown or the status); nil when the user has no runtime
    /// folder, or (clicks do not reach it, said on stderr) when the folder cannot be used.
    private func openInbox() -> ClickInbox? {
        let kind = BarBlock(index: 0, entry: options.wordsLine, clockFormats: BarConfig.defaultClockFormats).kind
        guard BarClicks.blocksWithActions.contains(kind) else { return nil }
        do {
            return try ClickInbox.open(block: kind, environment: environment)
        } catch {
            printError("clicks will not reach this watch: \(error.description)")
            return nil
        }
    }

    /// Carries out the action words a click wrote; returns whether the request changed.
    /// The config is read at each click (it has the formats and zones a click cycles, and
    /// the link opener), so an edit applies from the next click on.
    private func apply(_ words: [String], to clicked: Clicked) -> Bool {
        let config: BarConfig
        do {
            config = try BarConfig.load(path: options.config, environment: environment)
        } catch {
            printError("ignoring a click: \(error.description)")
            return false
        }
        let block = clicked.block ?? BarBlock(index: 0, entry: options.wordsLine, clockFormats: config.clockFormats)
        var changed = false
        for word in words {
            guard let action = ClickAction(word: word) else {
                printError("ignoring '\(RequestParser.shorten(word))' from the click channel: not an action")
                continue
            }
            if action.opensLink {
                if let request = block.linkRequest { LinkOpener.open(action, shownBy: request, socketPath: socketPath, config: config) }
            } else if block.apply(action, clockFormats: config.clockFormats, zones: config.clockZones) {
                clicked.block = block
                changed = true
            }
        }
        return changed
    }

    /// A line of the stream as it goes to stdout, filtered. An error while watching (a
    /// watched room was removed, say) reaches a JSON-reading bar as a status object it can show.
    private func output(_ line: String, format: OutputFormat, instance: String) -> String {
        if line.hasPrefix("ERR "), format == .json || format == .i3bar {
            return StatusLine.error(String(line.dropFirst(4)), format: format, instance: instance)
        }
        return ClientOutput.line(line, format: format)
            ?? StatusLine.error("the service sent something that is not a \(format.rawValue) line", format: format, instance: instance)
    }

    private func exitIfAsked(_ entries: [pollfd], signals: borrowing Descriptor) {
        if entries[0].revents != 0, !Signals.read(signals).isEmpty { exit(0) }
        if StandardOutput.readerIsGone(entries[1]) { exit(0) }
    }
}

/// The lines zaoan writes itself, in place of an answer, in each output format.
enum StatusLine {
    /// The service cannot be reached: plain `zaoan: service not running`, a waybar object
    /// with class `error` and the details in its tooltip, or an i3bar block.
    static func serviceDown(_ problem: String, format: OutputFormat, instance: String) -> String {
        switch format {
        case .plain, .tmux, .polybar:
            return "zaoan: service not running"
        case .json:
            return waybar(text: "zaoan ⚠", tooltip: problem)
        case .i3bar:
            return i3barBlock(instance: instance, fullText: "zaoan: service not running", shortText: "zaoan ⚠")
        }
    }

    /// An `ERR` line while watching, for a bar that reads JSON.
    static func error(_ message: String, format: OutputFormat, instance: String) -> String {
        switch format {
        case .plain, .tmux, .polybar:
            return format.escaped(SafeText.visible("ERR " + message))
        case .json:
            return waybar(text: "zaoan ⚠", tooltip: message)
        case .i3bar:
            return i3barBlock(instance: instance, fullText: "zaoan: " + message, shortText: "zaoan ⚠")
        }
    }

    static func waybar(text: String, tooltip: String) -> String {
        func escape(_ value: String) -> String { SafeText.pango(SafeText.visibleLines(value)) }
        return WaybarObject(text: escape(text), tooltip: escape(tooltip), state: "error").encoded
    }

    static func i3barBlock(instance: String, fullText: String, shortText: String) -> String {
        I3barBlock(instance: instance, fullText: SafeText.visible(fullText), shortText: SafeText.visible(shortText), pango: false).encoded
    }
}
