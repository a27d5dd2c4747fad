import CSystemd
import CLinux
import Glibc
import ZaoanCore

/// The service: it wires together the event loop, the listener, the connection table and
/// its sessions, the dispatcher, the group commit, the watches and the event stream, and
/// counts what `stats` reports. Nothing here is shared with another thread, so nothing
/// needs a lock.
///
/// A request, end to end: `Channel` (bytes, lines, limits) → `Session` (what a line means
/// for this connection) → `Dispatcher` (what the request does) → `Responder` (the answer)
/// → `Channel` (bytes out). Accepting: Server+Accept.swift. Room changes: `GroupCommit`.
/// Lifecycle, idle exit, watchdog: Server+Lifecycle.swift.
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
    let options: Options
    /// The gazetteer file, if the config source reads one: its first failure is logged at
    /// the end of a turn (looked at once here, not cast at every turn).
    private let gazetteerFile: GazetteerFile?
    let responder: Responder
    /// The loop turn's instant, for requests, watches and time limits alike.
    let clock: LoopClock
    let shared: ChannelShared
    let table: ConnectionTable
    let dispatcher: Dispatcher
    var listener: Listener?
    var listenerHandler: ListenerHandler?
    var counters: ServerCounters
    var lifecycle = Lifecycle.starting
    private var signals: SignalHandler?
    var sweeper: MonotonicTimer?
    let watches: WatchHub
    /// The config's calendars, while it names any.
    var calendars: CalendarFeed?
    /// The machine's zone, once the settings have left the zone to it (`Server+SystemZone.swift`).
    var systemZone: SystemZoneFollower?
    var systemZoneUnavailable = false
    /// What the settings in force could not use of the config file (`stats`, the status
    /// line): set at start, cleared by a reload, which takes only a good file.
    var configProblems: [ConfigError] = []
    /// Why the last reload was refused (the status line), until a reload takes a file.
    var refusedReload: ConfigError?
    /// `watch events` subscribers and the timer for the next phase change.
    let events: EventStream
    let store: StateStore
    /// This process's hold on the state directory (`Server.serve` takes it before the state
    /// is read); the socket is written into it once it is open.
    var stateLock: StateLock?
    let commit: GroupCommit
    /// Recurring rooms' occurrences, expanded off the loop.
    let rooms: RoomExpander
    let refusals: RefusalLog
    /// The Chinese calendar's years, computed off the loop.
    let almanac: AlmanacPreparer
    /// `reload` and SIGHUP: the config read off the loop.
    let reloader: SettingsReloader
    /// `event add`, `event rm`: calendar files written off the loop.
    let calendarWriter: CalendarWriter
    var idleTimer: MonotonicTimer?
    /// The file this process runs, taken at start: an idle service looks whether an
    /// upgrade or removal replaced it (Server+Lifecycle.swift).
    var runningBinary: RunningBinary?
    var watchdogTimer: MonotonicTimer?
    var statusTimer: MonotonicTimer?
    var listeningOn = ""

    /// - Throws: when the loop cannot be made, or the state directory is unsafe.
    public init(options: Options, settings: Settings, clock source: TimeSource = SystemTimeSource()) throws(SystemError) {
        self.options = options
        self.gazetteerFile = options.config.gazetteer as? GazetteerFile
        self.loop = try EventLoop()
        let clock = LoopClock(source: source)
        self.clock = clock
        self.shared = ChannelShared(loop: loop, clock: clock, outputLimits: settings.outputLimits)
        self.table = ConnectionTable(shared: shared)
        table.slots = ConnectionTable.Slots(settings)
        self.store = StateStore(directory: options.stateDirectory)
        let loaded = try store.load(now: clock.wall)
        for problem in loaded.problems { Log.error(problem, event: .stateProblem) }
        self.responder = Responder(settings: settings, schedule: loaded.schedule)
        self.responder.versionText = options.versionText
        self.responder.noteStart(now: clock.unixSeconds)
        self.counters = ServerCounters(startedAt: clock.wall)
        // Four parts report back to the server (the watch hub renders with its figures, the
        // room expander and the group commit say the rooms changed, the reloader hands over
        // what it read) through closures made before the server is whole: they reach it
        // through `built`, set once every part exists and before the loop runs, so it is
        // never nil when they are called (the fallbacks after `??` only satisfy the types).
        // Unowned, not weak: a weak reference gives the server a side table, through which
        // every later retain and release of it would go (two a loop turn, at the least).
        unowned var built: Server? = nil
        let responder = self.responder
        self.watches = try WatchHub(loop: loop, budget: shared.turn, render: { request, line in
            let now = clock.wall
            return line?.render(at: now) ?? responder.answer(request, now: now, counters: built?.statistics ?? ServiceFigures(startedAt: now))
        }, compile: { request in
            responder.watchedLine(request)
        }, period: { request in
            responder.changePeriod(request, now: clock.wall)
        })
        self.events = try EventStream(loop: loop, responder: responder, clock: clock)
        self.refusals = try RefusalLog(loop: loop)
        self.almanac = try AlmanacPreparer(loop: loop, responder: responder)
        self.rooms = try RoomExpander(loop: loop, responder: responder, clock: source) { built?.roomsChanged() }
        self.commit = try GroupCommit(responder: responder, rooms: rooms, store: store, loop: loop, clock: clock) { built?.roomsChanged() }
        self.dispatcher = Dispatcher(responder: responder, clock: clock, loop: loop, watches: watches, events: events,
                                     commit: commit, refusals: refusals, adminGroupID: Dispatcher.groupID(named: settings.adminGroup))
        self.reloader = try SettingsReloader(loop: loop, source: options.config, began: { built?.notify(.reloading) },
                                             apply: { read in built?.applyReloaded(read) ?? .error(ProtocolError(.busy, "the service is stopping")) })
        self.calendarWriter = try CalendarWriter(loop: loop)
        built = self
        events.alarmsSent = { [commit] second in commit.alarmsSent(through: second) }
        dispatcher.statistics = { [unowned self] in self.statistics }
        dispatcher.reload = { [reloader] session in reloader.reload(for: .session(session)) }
        dispatcher.writeCalendar = { [calendarWriter] write, session in calendarWriter.write(write, for: session) }
        dispatcher.statusChanged = { [unowned self] in self.statusChanged() }
        table.closed = { [unowned self] session in self.sessionClosed(session) }
    }

    /// Rooms or calendar events changed: the event stream, the watches and the status follow.
    func roomsChanged() {
        events.scheduleChanged()
        watches.refresh()
        statusChanged()
    }

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
        shared.sweeper = sweeper
        try startLifecycleTimers(listener: listener)
        let followed = followSystemZone(responder.settings)
        if followed.zone.identifier != responder.settings.zone.identifier { responder.apply(followed) }
        rooms.expandAtStart()
        almanac.prepareIfUsed(by: responder, now: clock.wall)
        try followCalendars(responder.settings)

        let settings = responder.settings
        listeningOn = listener.description
        stateLock?.record(socket: listener.description)
        lifecycle = .serving(accepting: true)
        logConfigProblems()
        Log.info("serving on \(listener.description); city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue), \(responder.schedule.count) live rooms"
                    + (configProblems.isEmpty ? "" : "; \(configProblems.count) config problem\(configProblems.count == 1 ? "" : "s") (see above)"),
                 event: .started)
        notify(.ready, .status(statusLine))
        serveUntilStopped()
        listener.close()
        commit.stop()
        rooms.stop()
        almanac.stop()
        reloader.stop()
        calendarWriter.stop()
        calendars?.stop()
        refusals.flush(all: true)
        let ending = lifecycle
        lifecycle = .stopped
        let line = "\(ending.stopReason); answered \(Log.counted(dispatcher.requests, "request"))"
        switch ending {
        case .idleExiting(_, _?): Log.notice(line, event: .idleExit)  // the binary was replaced or removed
        case .idleExiting: Log.info(line, event: .idleExit)
        default: Log.info(line, event: .stopped)
        }
        return 0
    }

    /// max_connections needs as many descriptors; the soft limit is often 1024. Raise it to
    /// the hard limit, which needs no privilege.
    private func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            Log.warning("could not raise the open-file limit: \(syscallFailure("setrlimit"))")
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

    /// The loop: a turn for each wake-up, until it is stopped. A function of its own, apart
    /// from the start above (which reads the settings): RequestPathAccessTests reads it as
    /// one of the functions every request runs through.
    @inline(never)
    private func serveUntilStopped() {
        // The closures do not escape the loop, which runs inside this method: they borrow
        // `self` (unowned, each turn would retain it twice through the unowned count).
        loop.run(afterWake: {
            self.clock.read()
        }, afterUntimed: {
            self.shared.turn.loopWorkDone()
        }, afterBatch: {
            self.finishTurn()
        })
    }

    /// The end of a loop turn: sessions answered in the turn take their next lines, the
    /// changes read so far are committed (unless a save is still in flight: they wait for the
    /// next one), a batch of watch updates is written, and the channels closed in the turn
    /// are closed. Returns whether work is left for the next turn (the loop then polls
    /// instead of sleeping).
    func finishTurn() -> Bool {
        let resumeWaiting = commit.finishTurn()
        let linesWaiting = shared.turn.resumeWaiting()
        let moreRenders = watches.renderDue()
        let moreUpdates = watches.deliver()
        table.finishClosing()
        if let why = gazetteerFile?.takeUnlogged() {
            Log.warning("\(why); cities neither built in nor in \"cities\" are unknown")
        }
        shared.giveBackMemoryIfDue()
        return resumeWaiting || linesWaiting || moreRenders || moreUpdates
    }

    // MARK: - Time and signals

    /// Once a second while some connection has a time limit running: enforce the shutdown
    /// deadline, close connections past a limit. Watchers that keep up have none, so a bar
    /// alone does not wake the service for the sweeper: it is disarmed until a connection
    /// needs it again (`ChannelShared.sweepSoon`).
    private func sweep() {
        defer {
            if case .serving(accepting: true) = lifecycle, !table.needsSweeping { sweeper?.disarm() }
        }
        if case .draining(_, let deadline) = lifecycle, clock.monotonic >= deadline {
            loop.stop()
            return
        }
        resumeAccepting()
        table.expire(now: clock.monotonic, Session.Timeouts(responder.settings))
    }

    func received(signal: Int32) {
        switch signal {
        case SIGHUP:
            reloader.reload(for: .signal)
        default:
            beginShutdown(reason: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    func notify(_ states: Systemd.NotifyState...) {
        for state in states {
            do { try Systemd.notify(state) } catch { Log.warning("\(error)") }
        }
    }
}

/// Accepts on the listening socket.
final class ListenerHandler: EventHandler {
    unowned let server: Server
    init(server: Server) { self.server = server }
    func handle(events: UInt32) { server.acceptConnections() }
}
