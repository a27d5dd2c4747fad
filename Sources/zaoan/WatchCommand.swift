import Glibc
import ZaoanCore
import ZaoanServer

/// `zaoan watch [--format FMT] REQUEST`: copies the service's `watch` stream to stdout, line
/// by line, for bars that run a command and read its output (waybar, i3blocks, polybar).
///
/// It never exits on its own while the request is good: when the service is not running or
/// the connection drops, it prints one line saying so (in the chosen format, so the bar
/// shows it instead of choking on it) and reconnects, every 2 s at most, until the stream
/// is back. A request the service refuses is different: retrying cannot help, so the error
/// goes to stderr with exit status 1.
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
        let format = options.format ?? .plain
        let instance = (try? RequestParser.parse(Client.requestLine(options.words)))??.commandWord ?? "zaoan"
        var backoff = Backoff()
        var outageReported = false

        /// Says once per outage that the service is away; `problem` goes to the tooltip and stderr.
        func reportOutage(_ problem: String) {
            guard !outageReported else { return }
            outageReported = true
            StandardOutput.write(StatusLine.serviceDown(problem, format: format, instance: instance) + "\n")
            printError(problem.replacingOccurrences(of: "\n", with: " ") + " Retrying every \(Int(Backoff.limit)) s.")
        }

        /// Waits `seconds`, leaving early only to exit on a signal or a vanished reader.
        func pause(_ seconds: Double) {
            let deadline = monotonicSeconds() + seconds
            while true {
                let left = deadline - monotonicSeconds()
                if left <= 0 { return }
                var entries = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0), StandardOutput.hangupEntry]
                pollDescriptors(&entries, timeout: left)
                exitIfAsked(entries, signals: signals)
            }
        }

        while true {
            let stream: WatchStream
            do {
                stream = try WatchStream(socketPath: socketPath, requestLine: requestLine)
            } catch {
                reportOutage(error.description)
                pause(backoff.delay())
                continue
            }
            var isFirstLine = true
            var open = true
            var refusedAsBusy = false
            while open {
                var entries = [
                    pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                    StandardOutput.hangupEntry,
                    pollfd(fd: stream.fd, events: Int16(POLLIN), revents: 0),
                ]
                pollDescriptors(&entries, timeout: nil)
                exitIfAsked(entries, signals: signals)
                guard entries[2].revents != 0 else { continue }
                let (lines, stillOpen) = stream.readLines()
                open = stillOpen
                for line in lines {
                    if isFirstLine, line.hasPrefix("ERR ") {
                        if line.hasPrefix("ERR busy ") {
                            refusedAsBusy = true  // full for now: like an outage, try again
                            open = false
                            break
                        }
                        printError(line)
                        exit(1)
                    }
                    isFirstLine = false
                    outageReported = false
                    backoff.reset()
                    StandardOutput.write(output(line, format: format, instance: instance) + "\n")
                }
            }
            stream.close()
            if refusedAsBusy {
                reportOutage("the zaoan service at \(socketPath) is busy (max_connections reached).")
            } else {
                reportOutage("the zaoan service at \(socketPath) closed the connection; it stopped or is restarting.\n"
                             + "If it does not come back, start it with `zaoan serve`, or as a user service with `systemctl --user enable --now zaoan.socket`.")
            }
            pause(backoff.delay())
        }
    }

    /// A line of the stream as it goes to stdout. An error while watching (a watched room
    /// was removed, say) reaches a JSON-reading bar as a status object it can show.
    private func output(_ line: String, format: OutputFormat, instance: String) -> String {
        guard format != .plain, line.hasPrefix("ERR ") else { return line }
        return StatusLine.error(String(line.dropFirst(4)), format: format, instance: instance)
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
        case .plain:
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
        case .plain:
            return "ERR " + message
        case .json:
            return waybar(text: "zaoan ⚠", tooltip: message)
        case .i3bar:
            return i3barBlock(instance: instance, fullText: "zaoan: " + message, shortText: "zaoan ⚠")
        }
    }

    static func waybar(text: String, tooltip: String) -> String {
        func field(_ value: String) -> String { SafeText.jsonString(SafeText.pango(SafeText.visibleLines(value))) }
        return #"{"text":\#(field(text)),"tooltip":\#(field(tooltip)),"class":"error","alt":"error"}"#
    }

    static func i3barBlock(instance: String, fullText: String, shortText: String) -> String {
        func field(_ value: String) -> String { SafeText.jsonString(SafeText.visible(value)) }
        return #"{"name":"zaoan","instance":\#(field(instance)),"full_text":\#(field(fullText)),"short_text":\#(field(shortText)),"urgent":false,"markup":"none"}"#
    }
}
