import CSystemd
import CLinux
import Foundation
import Glibc
import ZaoanCore

/// The service: one event loop that owns the listener, every connection, the responder and
/// the counters. Nothing here is shared with another thread, so nothing needs a lock.
///
/// Accepting and per-user limits: Server+Accept.swift. Rights, room changes and their group
/// commit: Server+Changes.swift. Lifecycle, idle exit, watchdog: Server+Lifecycle.swift.
public final class Server {
    public struct Options: Sendable {
        public var socketPath: String?
        public var config: ConfigSource
        public var environment: [String: String]
        public var stateDirectory: String
        /// Under socket activation: exit after this many seconds with no connections.
        public var exitIdleTime: Double?
        /// What `version` answers.
        public var versionText = Version.describe(commit: nil)
        public init(socketPath: String?, config: ConfigSource, environment: [String: String],
                    stateDirectory: String? = nil, exitIdleTime: Double? = nil) {
            self.socketPath = socketPath
            self.exitIdleTime = exitIdleTime
            self.config = config
            self.environment = environment
            self.stateDirectory = stateDirectory ?? StateStore.defaultDirectory(environment: environment)
        }
    }

    /// How long shutdown waits for answers still being written.
    static let shutdownGrace = 2.0

    let loop: EventLoop
    let readBuffer: UnsafeMutableRawBufferPointer
    let options: Options
    let responder: Responder
    var listener: Listener?
    var listenerHandler: ListenerHandler?
    var connections: [Int32: Connection] = [:]
    /// The settings' output limits, kept here so that connections read them without copying
    /// the settings on every answer.
    private(set) var outputLimits: OutputLimits
    /// Open connections by the peer's uid (-1 when the kernel did not say).
    var connectionsByUID: [Int64: Int] = [:]
    var counters: ServerCounters
    var lifecycle = Lifecycle.starting
    private var signals: SignalHandler?
    var sweeper: MonotonicTimer?
    private(set) var watches: WatchHub!
    /// The config's calendars, while it names any.
    var calendars: CalendarFeed?
    /// What the settings in force could not use of the config file (`stats`, the status
    /// line): set at start, cleared by a reload, which takes only a good file.
    var configProblems: [ConfigError] = []
    /// `watch events` subscribers and the timer for the next phase change.
    private(set) var events: EventStream!
    let store: StateStore
    /// This process's hold on the state directory (`Server.serve` takes it before the state
    /// is read); the socket is written into it once it is open.
    var stateLock: StateLock?
    /// Room changes read in this loop turn, saved together after it (group commit).
    var pendingChanges: [(request: Request, connection: Connection)] = []
    /// Connections whose changes were answered, to take their next lines on the next turn.
    var resumeQueue: [Connection] = []
    /// The changes being saved now, their answers so far, and the rooms they make.
    var savingBatch: (batch: [(request: Request, connection: Connection)], answers: [Reply?], schedule: LiveSchedule, expanding: ReaderJob?)?
    /// Recurring rooms' occurrences, expanded off the loop.
    var rooms: RoomExpander!
    var saver: StateSaver!
    var refusals: RefusalLog!
    /// `admin_group`'s gid, resolved at start and at reload (`groupID(named:)`).
    private(set) var adminGroupID: gid_t?
    var acceptPaused = false
    var idleTimer: MonotonicTimer?
    var watchdogTimer: MonotonicTimer?
    var statusTimer: MonotonicTimer?
    var listeningOn = ""
    let clock: TimeSource
    var monotonicNow: Double
    /// The wall clock when epoll last returned: the time requests read in this batch are
    /// answered for (one clock read per batch, not per request).
    private(set) var wallNow: Date

    /// - Throws: when the loop cannot be made, or the state directory is unsafe.
    public init(options: Options, settings: Settings, clock: TimeSource = SystemTimeSource()) throws(SystemError) {
        self.options = options
        self.clock = clock
        self.loop = try EventLoop()
        self.readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.store = StateStore(directory: options.stateDirectory)
        let loaded = try store.load(now: clock.now)
        for problem in loaded.problems { Log.error(problem, event: .stateProblem) }
        self.responder = Responder(settings: settings, schedule: loaded.schedule)
        self.outputLimits = settings.outputLimits
        self.adminGroupID = Self.groupID(named: settings.adminGroup)
        self.responder.versionText = options.versionText
        self.counters = ServerCounters(startedAt: clock.now)
        self.monotonicNow = Posix.monotonicSeconds()
        self.wallNow = clock.now
        self.watches = try WatchHub(loop: loop, render: { [unowned self] request in
            self.responder.answer(request, now: self.clock.now, counters: self.statistics)
        }, period: { [unowned self] request in
            self.responder.changePeriod(request, now: self.clock.now)
        })
        self.events = try EventStream(loop: loop, responder: responder, clock: clock)
        self.refusals = try RefusalLog(loop: loop)
        self.saver = try StateSaver(store: store, loop: loop) { [unowned self] result in self.saveFinished(result) }
        self.rooms = try RoomExpander(loop: loop, responder: responder, clock: clock) { [unowned self] in
            self.events.scheduleChanged()
            self.watches.refresh()
            self.statusChanged()
        }
    }

    deinit { readBuffer.deallocate() }

    /// Serves until SIGTERM or SIGINT. Returns the process exit status.
    public func run() throws(SystemError) -> Int32 {
        Log.ignoreBrokenPipes()
        raiseDescriptorLimit()
        signals = try SignalHandler(server: self, signals: serviceSignals)
        let listener = try openListener()
        self.listener = listener
        let handler = ListenerHandler(server: self)
        listenerHandler = handler
        try loop.register(listener.fd, events: EventLoop.readable, handler: handler)
        sweeper = try MonotonicTimer(loop: loop) { [unowned self] in self.sweep() }
        try startLifecycleTimers(listener: listener)
        rooms.expandAtStart()
        try followCalendars(responder.settings)

        let settings = responder.settings
        listeningOn = listener.description
        stateLock?.record(socket: listener.description)
        lifecycle = .serving
        logConfigProblems()
        Log.info("serving on \(listener.description); city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue), \(responder.schedule.count) live rooms"
                    + (configProblems.isEmpty ? "" : "; \(configProblems.count) config problem\(configProblems.count == 1 ? "" : "s") (see above)"),
                 event: .started)
        notify(.ready, .status(statusLine))
        loop.run(afterWake: { [unowned self] in
            self.monotonicNow = Posix.monotonicSeconds()
            self.wallNow = self.clock.now
        }, afterBatch: { [unowned self] in
            self.finishTurn()
        })
        listener.close()
        saver.stop()
        rooms.stop()
        calendars?.stop()
        refusals.flush(all: true)
        let reason = lifecycle.stopReason
        lifecycle = .stopped
        Log.info("\(reason); answered \(Log.counted(counters.requests, "request"))", event: reason.hasPrefix("exited after") ? .idleExit : .stopped)
        return 0
    }

    /// max_connections needs as many descriptors; the soft limit is often 1024. Raise it to
    /// the hard limit, which needs no privilege.
    private func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            Log.warning("could not raise the open-file limit: \(SystemError(errno: errno, "setrlimit"))")
        }
    }

    private func openListener() throws(SystemError) -> Listener {
        let activated = try Systemd.activatedSockets()
        if !activated.isEmpty {
            guard let chosen = Systemd.pick(activated) else {
                throw SystemError(errno: ENOTSOCK, "systemd passed \(activated.count) descriptor(s) but none is a listening Unix stream socket; check ListenStream= in zaoan.socket")
            }
            return try Listener.activated(fd: chosen.fd, name: chosen.name)
        }
        let resolved = SocketPath.resolve(explicit: options.socketPath, environment: options.environment)
        if let directory = resolved.privateDirectory {
            try SocketPath.preparePrivateDirectory(directory)
        }
        return try Listener.bind(path: resolved.path)
    }

    // MARK: - Called by connections

    func countRequest() { counters.requests += 1 }

    func answer(_ request: Request) -> Reply {
        responder.answer(request, now: wallNow, counters: statistics)
    }

    /// What `stats` reports: the running totals, and the rest read off where it lives.
    private var statistics: ServerCounters {
        var snapshot = counters
        snapshot.connectionsOpen = connections.count
        snapshot.watches = watches.count
        snapshot.timers = TimerCensus.wallClock
        snapshot.serviceTimers = TimerCensus.monotonic
        snapshot.clockChanges = watches.clockChanges
        snapshot.logLinesDropped = Log.droppedLines
        snapshot.configProblems = configProblems.map(\.report)
        if let calendars {
            snapshot.calendarsLoaded = calendars.sourcesLoaded
            snapshot.calendarsWaiting = calendars.sourcesWaiting
            snapshot.calendarsReading = calendars.sourcesReading
            snapshot.calendarProblems = calendars.problems
            snapshot.calendarProblemsNotKept = calendars.problemsNotKept
            snapshot.calendarFilesParsed = calendars.filesParsed
            snapshot.calendarFilesUnchanged = calendars.filesUnchanged
        }
        return snapshot
    }

    func connectionClosed(_ connection: Connection) {
        connections.removeValue(forKey: connection.fd)
        let uid = Self.uidKey(connection.peer)
        if let open = connectionsByUID[uid], open > 1 { connectionsByUID[uid] = open - 1 } else { connectionsByUID[uid] = nil }
        if acceptPaused { resumeAccepting() }
        statusChanged()
        if connections.isEmpty {
            if !acceptPaused { sweeper?.disarm() }
            if case .draining = lifecycle { loop.stop() } else { becameIdle() }
        }
    }

    /// A connection broke a limit and is being closed: count it, and say so in the log.
    func closedForLimit(_ connection: Connection, reason: Connection.CloseReason) {
        let what: String
        switch reason {
        case .outputHardLimit:
            counters.closedOutputLimit += 1
            what = "had more than \(outputLimits.hard) bytes of answers unread (output_hard_limit)"
        case .outputSoftLimit:
            counters.closedSlowReader += 1
            what = "kept more than \(outputLimits.soft) bytes of answers unread for \(outputLimits.softSeconds) s (output_soft_limit)"
        case .stuck:
            counters.closedSlowReader += 1
            what = "read none of its answers for \(responder.settings.stuckClientSeconds) s (stuck_client_seconds)"
        case .partialLine:
            counters.closedPartialLine += 1
            what = "left a line unfinished for \(responder.settings.partialLineSeconds) s (partial_line_seconds)"
        }
        refusals.note(uid: Self.uidKey(connection.peer), pid: connection.peer?.pid,
                      message: "closed a connection that \(what)", event: nil)
    }

    /// Reads the settings' calendars now and follows their changes (inotify).
    func followCalendars(_ settings: Settings) throws(SystemError) {
        if calendars == nil {
            guard !settings.calendars.isEmpty else { return }
            calendars = try CalendarFeed(loop: loop, clock: clock) { [unowned self] events, names in
                self.responder.replaceCalendarEvents(events, calendars: names)
                self.events.scheduleChanged()
                self.watches.refresh()
                self.statusChanged()
            }
        }
        calendars?.configure(calendars: settings.calendars, zone: settings.zone.identifier, windowHours: settings.calendarWindowHours)
    }

    /// Re-reads the config; a bad file is rejected and the settings in force are kept.
    @discardableResult
    func reload() -> Reply {
        do {
            let settings = try options.config.load()
            responder.apply(settings)
            rooms.refresh()  // a new zone moves the rooms' wall clock
            events.scheduleChanged()
            outputLimits = settings.outputLimits
            adminGroupID = Self.groupID(named: settings.adminGroup)
            do {
                try followCalendars(settings)
            } catch {
                Log.error("cannot watch the calendars: \(error); they are read again at the next reload")
            }
            watches.refresh(periodsChanged: true)  // a new language, city or template shows at once, not on the next tick
            if !configProblems.isEmpty {
                configProblems = []
                statusChanged()
            }
            Log.info("configuration reloaded from \(options.config.path)")
            return .ok
        } catch {
            Log.error("reload rejected, keeping the previous settings: \(error)", event: .configRejected)
            return .error(ProtocolError(.badConfig, "\(error); the previous settings stay in force"))
        }
    }

    /// One warning per problem the config had at start, each with its place in structured
    /// fields (journal MESSAGE_ID rejected-config, as for a rejected reload).
    private func logConfigProblems() {
        for problem in configProblems {
            var fields = ["CONFIG_FILE": problem.file ?? options.config.path]
            if let key = problem.key { fields["CONFIG_KEY"] = RequestParser.shorten(key) }
            if let position = problem.position {
                fields["CONFIG_LINE"] = "\(position.line)"
                fields["CONFIG_COLUMN"] = "\(position.column)"
            }
            let serving = problem.fallback == .allDefaults ? "serving with the built-in defaults" : "serving with the rest"
            Log.warning("\(problem.report); \(serving) (zaoan check-config checks the file)", event: .configRejected, fields: fields)
        }
    }

    /// The end of a loop turn: connections answered last turn take their next lines, the
    /// changes read so far are committed (unless a save is still in flight: they wait for the
    /// next one), and a batch of watch updates is written. Returns whether work is left for
    /// the next turn (the loop then polls instead of sleeping).
    func finishTurn() -> Bool {
        if !resumeQueue.isEmpty {
            let ready = resumeQueue
            resumeQueue.removeAll(keepingCapacity: true)
            for connection in ready { connection.resumeAfterCommit() }
        }
        if !saver.busy { startCommit() }
        let moreUpdates = watches.deliver()
        return !resumeQueue.isEmpty || moreUpdates
    }

    // MARK: - Time and signals

    /// Arms the sweeper (once a second) if it is not: a connection has a time limit running.
    func sweepSoon() {
        if let sweeper, !sweeper.armed { sweeper.arm(after: 1, repeating: true) }
    }

    /// Once a second while some connection has a time limit running: enforce the shutdown
    /// deadline, close connections past a limit. Watchers that keep up have none, so a bar
    /// alone does not wake the service for the sweeper: it is disarmed until a connection
    /// needs it again (`sweepSoon`).
    private func sweep() {
        defer {
            if case .serving = lifecycle, !acceptPaused, !connections.values.contains(where: \.needsSweeping) {
                sweeper?.disarm()
            }
        }
        monotonicNow = Posix.monotonicSeconds()
        if case .draining(_, let deadline) = lifecycle, monotonicNow >= deadline {
            loop.stop()
            return
        }
        if acceptPaused { resumeAccepting() }
        let settings = responder.settings
        let sessionLimit = Double(settings.idleTimeout)
        for connection in Array(connections.values) {
            if let since = connection.overSoftLimitSince, monotonicNow - since >= Double(outputLimits.softSeconds) {
                connection.close(for: .outputSoftLimit)
            } else if connection.hasPendingOutput {
                if monotonicNow - connection.lastOutputProgress >= Double(settings.stuckClientSeconds) {
                    connection.close(for: .stuck)
                }
            } else if let since = connection.partialLineSince, monotonicNow - since >= Double(settings.partialLineSeconds) {
                connection.close(for: .partialLine)
            } else if connection.watch != nil {
                continue  // a watcher waits for the server, not the other way round
            } else if connection.mode == .session {
                if monotonicNow - connection.lastActivity >= sessionLimit { connection.close() }
            } else if monotonicNow - connection.acceptedAt >= Double(settings.firstLineSeconds) {
                connection.close()  // one-shot: a complete line within first_line_seconds of connecting
            }
        }
    }

    func received(signal: Int32) {
        switch signal {
        case SIGHUP:
            reload()
        default:
            beginShutdown(reason: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    func notify(_ states: Systemd.NotifyState...) {
        for state in states {
            do { try Systemd.notify(state) } catch { Log.warning("\(error)") }
        }
    }

    /// The key of `connectionsByUID` and the refusal counts: the uid, or -1 for a peer the
    /// kernel did not name (never 0, which would read as root).
    static func uidKey(_ peer: PeerCredentials?) -> Int64 {
        peer.map { Int64($0.uid) } ?? -1
    }
}

/// Accepts on the listening socket.
final class ListenerHandler: EventHandler {
    unowned let server: Server
    init(server: Server) { self.server = server }
    func handle(events: UInt32) { server.acceptConnections() }
}
