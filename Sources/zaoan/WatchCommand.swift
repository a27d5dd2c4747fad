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
struct WatchCommand {
    let options: ClientOptions
    let socketPath: String

    func run() -> Never {
        StandardOutput.ignoreBrokenPipe()
        let signals: Int32
        do {
            signals = try Signals.descriptor(for: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            printError(error.description)
            exit(1)
        }
        let requestLine = "watch " + options.requestLine
        // `watch events` is a stream of moments: the service sends nothing until one comes,
        // so only connecting and sending are held to --timeout.
        let eventStream = (try? RequestParser.parse(requestLine)) == .watchEvents  // a line that does not parse gets the service's error
        let format = options.format ?? .plain
        let instance = options.words.first?.lowercased() ?? "zaoan"
        var backoff = Backoff(limit: options.retryAfter)
        var outageReported = false

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
                var entries = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0), StandardOutput.hangupEntry]
                pollDescriptors(&entries, timeout: left)
                exitIfAsked(entries, signals: signals)
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
            while open {
                var entries = [
                    pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                    StandardOutput.hangupEntry,
                    pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0),
                ]
                pollDescriptors(&entries, timeout: eventStream ? nil : firstAnswerBy.map { max(0, $0.remaining) })
                exitIfAsked(entries, signals: signals)
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
                    StandardOutput.write(output(line, format: format, instance: instance) + "\n")
                }
            }
            connection.close()
            reportOutage(problem ?? "the zaoan service at \(socketPath) closed the connection; it stopped or is restarting.\n"
                         + "If it does not come back, start it with `zaoan serve`, or as a user service with `systemctl --user enable --now zaoan.socket`.")
            pause(backoff.delay())
        }
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

    private func exitIfAsked(_ entries: [pollfd], signals: Int32) {
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
