import CLinux
import Glibc
import ZaoanClient
import ZaoanCommandLine
import ZaoanProtocol
import ZaoanSystem
import ZaoanText

/// `zaoan bar`: an i3bar/swaybar `status_command`. The blocks of `bar_blocks` are watched
/// together on one connection (`watch --format=i3bar blocks A ; B ; ...`): the service
/// writes one status line whenever any block changes. When the service runs as this user
/// (or root) and stdout is the bar's pipe, the bar hands the pipe over with the request
/// (SCM_RIGHTS) and the service writes the lines into it itself: the bar process then
/// sleeps until a click, a signal or the service going away. Otherwise it relays each line,
/// waking once for all the blocks of a second. One thread polls the socket, stdin (click
/// events), a signalfd and stdout's hangup.
///
/// If the service is down, the bar says so once (in the first block; the others are left
/// out) and reconnects every 2 s (--retry-after); it never exits on its own. What the service sends is
/// filtered: only the block fields zaoan writes pass, with `markup` as zaoan's config says
/// (`i3bar_markup`) and the text made safe for it. SIGURG (i3bar's stop_signal, sent when
/// the bar is hidden) closes the watch, so nothing wakes for a hidden bar; SIGCONT watches
/// again and writes the current line as soon as the service answers.
final class BarCommand {
    private let config: BarConfig
    private let socketPath: String
    private let blocks: [BarBlock]
    private var paused = false
    /// The service writes the status lines into the bar's pipe itself (see `handOver`).
    private var handedOver = false
    /// The pipe was passed with the current connection's request: only then may the service
    /// answer that it took it.
    private var passedPipe = false
    private var stdinOpen = true
    private var clickFramer = LineFramer(lineLimit: BarCommand.maxClickLine)
    /// The one watch connection, and its state.
    private var stream: ServiceConnection?
    /// Until the service has answered on this connection: the deadline for it.
    private var answerBy: Deadline?
    /// The current connection has delivered a line, so the service accepted the request.
    private var answered = false
    /// The service refused the request (it closes such a connection).
    private var refused = false
    private var retryAt: Double?
    private var backoff: Backoff

    /// A request the service refused is tried again this much later (a room may be added).
    static let refusedRetry = 10.0

    init(config: BarConfig, socketPath: String, retryAfter: Double = ClientLimits.defaultRetryAfter) {
        backoff = Backoff(limit: retryAfter)
        self.config = config
        self.socketPath = socketPath
        blocks = config.blocks.enumerated().map { BarBlock(index: $0.offset, entry: $0.element, clockFormats: config.clockFormats) }
    }

    func run() -> Never {
        StandardOutput.ignoreBrokenPipe()
        let signals: Descriptor
        do {
            signals = try Signals.descriptor(for: [SIGTERM, SIGINT, SIGHUP, BarProtocol.stopSignal, BarProtocol.continueSignal])
        } catch {
            printError(error.description)
            exit(1)
        }
        StandardOutput.write(BarProtocol.header + "\n[\n")
        canHandOver = Self.outputIsPipe()
        watch(now: Posix.monotonicSeconds())

        while true {
            var deadline: Double?
            if stream == nil { deadline = retryAt } else if let answerBy { deadline = answerBy.at }
            var entries = [pollfd(fd: signals.rawValue, events: Int16(POLLIN), revents: 0), StandardOutput.hangupEntry,
                           pollfd(fd: stdinOpen ? 0 : -1, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stream?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            pollDescriptors(&entries, timeout: deadline.map { $0 - Posix.monotonicSeconds() })

            if entries[0].revents != 0 {
                for signal in Signals.read(signals) { received(signal) }
            }
            if StandardOutput.readerIsGone(entries[1]) { exit(0) }
            if entries[2].revents != 0 { readClicks() }
            if entries[3].revents != 0 { read() }
            let now = Posix.monotonicSeconds()
            if let stream, let answerBy, answerBy.hasPassed {
                stream.close()
                self.stream = nil
                self.answerBy = nil
                serviceDown(now: now, text: "zaoan: service not answering")
            }
            if stream == nil, let retryAt, retryAt <= now { watch(now: now) }
        }
    }

    // MARK: - The watch

    /// The request for every block: `watch --format=i3bar blocks A ; B ; ...`.
    var requestLine: String {
        "watch --format=i3bar blocks " + blocks.map(\.requestLine).joined(separator: " ; ")
    }

    /// Whether stdout is a pipe the service could write to (i3bar's and swaybar's is).
    private var canHandOver = false

    private static func outputIsPipe() -> Bool {
        var info = stat()
        return fstat(1, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Whether to hand stdout over on this connection: only to a service run by this user
    /// or by root, which could write to this pipe anyway — never to another account's.
    private func handOver(_ connection: ServiceConnection) -> Bool {
        guard canHandOver else { return false }
        var pid: pid_t = 0, uid: uid_t = 0, gid: gid_t = 0
        guard zaoan_peer_credentials(connection.fd, &pid, &uid, &gid) == 0 else { return false }
        return uid == getuid() || uid == 0
    }

    /// (Re)opens the watch. While the service is down the bar says so.
    private func watch(now: Double) {
        stream?.close()
        stream = nil
        answered = false
        refused = false
        handedOver = false
        passedPipe = false
        retryAt = nil
        let deadline = Deadline(after: ClientLimits.defaultTimeout)
        do {
            let connection = try ServiceConnection(path: socketPath, deadline: deadline)
            passedPipe = handOver(connection)
            try connection.send(requestLine, passing: passedPipe ? 1 : nil, deadline: deadline)
            stream = connection
            answerBy = deadline
        } catch {
            serviceDown(now: now)
        }
    }

    /// The service is down, busy or refused: the first block says so, the others are left out.
    private func serviceDown(now: Double, text: String = "zaoan: service down") {
        showMessage(text)
        retryAt = now + backoff.delay()
    }

    private func showMessage(_ text: String) {
        guard let first = blocks.first else { return }
        show([BarProtocol.messageBlock(text, instance: first.instance)] + Array(repeating: nil, count: blocks.count - 1))
    }

    private func read() {
        guard let stream else { return }
        let lines: [String]
        let open: Bool
        do {
            (lines, open) = try stream.readLines()
        } catch {
            printError(error.description)
            stream.close()
            self.stream = nil
            serviceDown(now: Posix.monotonicSeconds())
            return
        }
        // Only the newest status line of a read matters.
        if let line = lines.last {
            if let misfit = misfit(line) {
                printError("protocol error: \(misfit); reconnecting. Is \(socketPath) a zaoan service of the same version?")
                stream.close()
                self.stream = nil
                serviceDown(now: Posix.monotonicSeconds(), text: "zaoan: protocol error, reconnecting")
                return
            }
            if !answered && line == BarProtocol.handedOverAnswer {
                // The service writes to the pipe from now on; the socket stays quiet.
                handedOver = true
                answered = true
                answerBy = nil
                backoff.reset()
                shown = []
            } else if line.hasPrefix("ERR ") {
                if !answered && line.hasPrefix("ERR busy ") {
                    stream.close()
                    self.stream = nil
                    serviceDown(now: Posix.monotonicSeconds(), text: "zaoan: service busy")
                    return
                }
                if !answered { refused = true }
                showMessage("zaoan: " + line.dropFirst(4))
            } else if let parsed = I3barBlock.line(json: line, pango: config.pango, limit: blocks.count), parsed.count == blocks.count {
                answered = true
                answerBy = nil
                backoff.reset()
                show(zip(blocks, parsed).map { block, parsed in
                    parsed.map { BarProtocol.renamed($0, instance: block.instance, pango: config.pango) }
                })
            }
        }
        guard !open else { return }
        self.stream = nil
        handedOver = false  // the output is the bar's again
        let now = Posix.monotonicSeconds()
        if refused {
            retryAt = now + Self.refusedRetry  // keep showing the service's error
        } else {
            serviceDown(now: now)
        }
    }

    /// Why `line` does not fit what this bar sent on the current connection, or nil. A
    /// service that claims a pipe it was not given would leave the bar blank for ever.
    private func misfit(_ line: String) -> String? {
        if handedOver { return "the service sent a line after taking the bar's pipe, where it sends none" }
        guard line == BarProtocol.handedOverAnswer else { return nil }
        if !passedPipe { return "the service answered \"\(line)\", but this bar passed it no pipe" }
        if answered { return "the service answered \"\(line)\" after sending status lines on the socket" }
        return nil
    }

    /// The blocks as they should be shown (nil: left out); written at once if they changed.
    private var shown: [String?] = []
    private func show(_ line: [String?]) {
        guard line != shown else { return }
        shown = line
        writeLine()
    }

    // MARK: - Output and signals

    private func writeLine() {
        guard !paused, !handedOver else { return }  // written on SIGCONT; the service writes
        StandardOutput.write(BarProtocol.statusLine(shown.compactMap { $0 }) + "\n")
    }

    private func received(_ signal: Int32) {
        switch signal {
        case BarProtocol.stopSignal:
            // Hidden: no watch, no retries, so neither the bar nor the service wakes for it.
            paused = true
            stream?.close()
            stream = nil
            handedOver = false
            answerBy = nil
            retryAt = nil
        case BarProtocol.continueSignal:
            guard paused else { return }
            // Shown again: watch anew; the first answer is the current line, written at once.
            paused = false
            shown = []
            watch(now: Posix.monotonicSeconds())
        default:
            exit(0)  // SIGTERM, SIGINT, SIGHUP: the bar is going away
        }
    }

    // MARK: - Clicks

    /// The longest click event kept; a longer line is not a click stream, and is dropped.
    static let maxClickLine = 64 * 1024

    private func readClicks() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        // A failed read of the bar's clicks is handled below as their end.
        let result = try? chunk.withUnsafeMutableBytes { (raw) throws(SystemError) in
            try nonBlockingSyscall("reading click events") { Glibc.read(0, raw.baseAddress, raw.count) }
        }
        guard case .value(let count)? = result else {
            if case .wouldBlock? = result { return }
            stdinOpen = false  // unreadable: no clicks will come
            return
        }
        guard count > 0 else {
            stdinOpen = false  // no clicks will come (stdin is /dev/null, or the bar closed it)
            return
        }
        var clicks: [BarProtocol.Click] = []
        var overflowed = false
        chunk.withUnsafeBytes { raw in
            clickFramer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { frame in
                switch frame {
                case .line(let bytes):
                    if let click = BarProtocol.click(fromLine: String(decoding: bytes, as: UTF8.self)) { clicks.append(click) }
                case .tooLong:
                    overflowed = true
                }
                return true
            }
        }
        // Not a click stream: start again at the next line.
        if overflowed { clickFramer = LineFramer(lineLimit: Self.maxClickLine) }
        for click in clicks { handle(click) }
    }

    private func handle(_ click: BarProtocol.Click) {
        guard click.name == nil || click.name == "zaoan",
              let instance = click.instance,
              let index = instance.split(separator: "-", maxSplits: 1).first.flatMap({ Int($0) }),
              blocks.indices.contains(index), blocks[index].instance == instance else { return }
        let block = blocks[index]
        guard let button = ClickButton(i3bar: click.button ?? 1) else { return }
        let action = config.clicks.action(block: block.kind, button: button)
        switch action {
        case .none:
            return
        case .command(let argv):
            DetachedCommand.spawn(argv, for: "\(ConfigKey.barClicks.name) (\(block.kind), \(button.rawValue))")
        case .openLink, .join:
            guard let request = block.linkRequest else { return }
            LinkOpener.open(action, shownBy: request, socketPath: socketPath, config: config)
        default:
            guard block.apply(action, clockFormats: config.clockFormats, zones: config.clockZones) else { return }
            watch(now: Posix.monotonicSeconds())
        }
    }
}
