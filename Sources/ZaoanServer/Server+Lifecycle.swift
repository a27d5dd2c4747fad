import CSystemd
import Glibc
import ZaoanCore

/// Where the service is in its life. One value, so that "may we accept?", "is the
/// listener in the loop?", "are we stopping?" and "why did we stop?" are all read off the
/// same place.
enum Lifecycle: Equatable {
    /// Set up, not yet accepting.
    case starting
    /// Answering. `accepting` is false while accepting is paused because the process is out
    /// of descriptors or memory (Server+Accept.swift): the listener is then out of the loop
    /// until a connection closes, or the sweeper runs while some connection's time limit
    /// keeps it armed (`resumeAccepting`).
    case serving(accepting: Bool)
    /// No client for the idle time under socket activation: stopped accepting, exiting now;
    /// `binary` when the file it runs was replaced or removed meanwhile, and what to do.
    case idleExiting(after: Double, binary: String?)
    /// SIGTERM or SIGINT: accepting stopped, answers in flight are written until `deadline`.
    case draining(reason: String, deadline: Double)
    case stopped

    /// The stop message for the log.
    var stopReason: String {
        switch self {
        case .idleExiting(let seconds, nil):
            return "exited after \(seconds) s with no clients (the next connection starts zaoan again)"
        case .idleExiting(let seconds, let binary?):
            return "exited after \(seconds) s with no clients: \(binary)"
        case .draining(let reason, _):
            return "stopped (\(reason))"
        case .starting, .serving, .stopped:
            return "stopped"
        }
    }
}

/// What a socket-activated service owes systemd: idle exit, the watchdog, and a status line.
extension Server {
    /// Idle exit is refused below this: each exit costs a socket trigger on the next
    /// connection, and systemd fails the socket past 20 triggers in 2 s (TriggerLimitBurst=).
    public static let minimumExitIdleTime = 0.5
    /// And refused above this (a year): nobody means more, and timers take whole seconds.
    public static let maximumExitIdleTime = 365.0 * 86_400
    /// Without an idle exit: how long the service must have no clients before it looks
    /// whether its binary was replaced or removed (one `stat` per quiet spell).
    static let binaryCheckIdleTime = 10.0

    func startLifecycleTimers(listener: Listener) throws(SystemError) {
        if let idle = options.exitIdleTime {
            if listener.isActivated {
                if idle < 3 {
                    Log.warning("--exit-idle-time \(idle)s is short: each exit and restart counts against systemd's StartLimitBurst= (5 starts in 10 s by default); use a few minutes in production")
                }
            } else {
                Log.warning("--exit-idle-time applies only under socket activation (nobody would start zaoan again); ignoring it")
            }
        }
        runningBinary = RunningBinary.current()
        if let idle = idleWait {
            idleTimer = try MonotonicTimer(loop: loop) { [unowned self] in self.idleExpired() }
            idleTimer?.arm(after: idle, repeating: false)
        }
        var microseconds: UInt64 = 0
        if sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 {
            // Pinged from the loop itself: a stuck loop stops pinging and systemd restarts it.
            watchdogTimer = try MonotonicTimer(loop: loop) { [unowned self] in self.notify(.watchdog) }
            watchdogTimer?.arm(after: Double(microseconds) / 2e6, repeating: true)
        }
        if getenv("NOTIFY_SOCKET") != nil {
            statusTimer = try MonotonicTimer(loop: loop) { [unowned self] in self.notify(.status(self.statusLine)) }
        }
    }

    /// `systemctl status` shows this.
    var statusLine: String {
        "serving on \(listeningOn): \(table.count) connections, \(watches.count) watches, \(responder.schedule.count) live rooms"
            + configStatus + reloadStatus
    }

    /// `; config: 1 problem, ...` while the settings in force left part of the file aside.
    private var configStatus: String {
        guard let first = configProblems.first else { return "" }
        let count = configProblems.count
        let more = count > 1 ? " and \(count - 1) more" : ""
        return "; config: \(count) problem\(count == 1 ? "" : "s"), defaults in their place (\(Self.statusText(first))\(more); zaoan ask stats lists them)"
    }

    /// `; reload refused, ...` from a refused reload until one takes the file: `systemctl
    /// status` says why even where no journal keeps the error.
    private var reloadStatus: String {
        guard let refusedReload else { return "" }
        return "; reload refused, the previous settings stay (\(Self.statusText(refusedReload)))"
    }

    /// A problem on one line of at most 160 characters, the file by its name rather than
    /// its path: `systemctl status` shows one line.
    private static func statusText(_ problem: ConfigError) -> String {
        let name = problem.file.map { String($0.split(separator: "/").last ?? "") }
        let place = [name, problem.position.map(\.description)].compactMap { $0 }.joined(separator: ":")
        let text = Responder.oneLine((place.isEmpty ? "" : place + ": ") + problem.message)
        guard text.unicodeScalars.count > 160 else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(160))) + "…"
    }

    /// Connections, watches or rooms changed: publish a new status within a second, at most
    /// once a second, so a busy service does not send a datagram per request.
    func statusChanged() {
        guard let statusTimer, !statusTimer.armed else { return }
        statusTimer.arm(after: 1, repeating: false)
    }

    /// How long the service waits with no clients before `idleExpired`: the idle exit time
    /// under socket activation; else, while it knows its binary, `binaryCheckIdleTime`.
    private var idleWait: Double? {
        if let idle = options.exitIdleTime, listener?.isActivated == true { return idle }
        return runningBinary == nil ? nil : Self.binaryCheckIdleTime
    }

    /// The last connection closed.
    func becameIdle() {
        guard let idle = idleWait, let idleTimer else { return }
        idleTimer.arm(after: idle, repeating: false)
    }

    /// No connection for the idle time: stop accepting and exit. Connections still queued on
    /// the listening socket stay there; systemd holds the socket and starts zaoan again for
    /// them, so none is lost or reset.
    ///
    /// Whether the binary was replaced or removed is looked at here, once per quiet spell
    /// (an upgrade or removal: the next start, by systemd, runs the new binary or fails). At
    /// an idle exit that only explains it in the log. Without one, under socket activation,
    /// it is the reason to exit now (else the old code would serve until logout); without
    /// socket activation nobody would start zaoan again, so it says so once and serves on.
    private func idleExpired() {
        guard table.isEmpty, watches.count == 0, case .serving = lifecycle, let listener, let idle = idleWait else { return }
        let change = runningBinary?.change()
        if options.exitIdleTime == nil || !listener.isActivated {
            guard let runningBinary, let change else {
                Log.debug("no clients for \(idle) s; the binary \(runningBinary?.path ?? "?") is unchanged")
                return
            }
            guard listener.isActivated else {
                Log.warning(runningBinary.explainStaying(change))
                self.runningBinary = nil  // said once
                return
            }
        }
        let binary = change.flatMap { runningBinary?.explainExit($0, userManager: options.environment["MANAGERPID"] != nil) }
        if case .serving(accepting: true) = lifecycle { loop.unregister(listener.fd) }
        lifecycle = .idleExiting(after: idle, binary: binary)
        notify(.stopping)
        loop.stop()
    }

    /// Stop accepting, let answers in flight be written, then stop (or at the deadline).
    func beginShutdown(reason: String) {
        guard case .serving = lifecycle else { return }
        notify(.stopping)
        if let listener, case .serving(accepting: true) = lifecycle { loop.unregister(listener.fd) }
        lifecycle = .draining(reason: reason, deadline: clock.monotonic + Self.shutdownGrace)
        watches.removeAll()
        table.finishAll()
        if table.isEmpty { loop.stop() } else { sweeper?.arm(after: 0.1, repeating: true) }
    }
}
