import CSystemd
import CLinux
import Foundation
import Glibc
import ZaoanCore

/// The service: one event loop that owns the listener, every connection, the responder and
/// the counters. Nothing here is shared with another thread, so nothing needs a lock.
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

    /// A client whose pending output has not moved for this long is closed.
    static let stuckClientTimeout = 30.0

    /// How long a one-shot connection may take to send its first complete line.
    static let oneShotTimeout = 10.0
    /// How long shutdown waits for answers still being written.
    static let shutdownGrace = 2.0

    let loop: EventLoop
    let readBuffer: UnsafeMutableRawBufferPointer
    let options: Options
    let responder: Responder
    var listener: Listener?
    private var listenerHandler: ListenerHandler?
    var connections: [Int32: Connection] = [:]
    var counters: ServerCounters
    private var signals: SignalHandler?
    private var sweeper: MonotonicTimer?
    private(set) var watches: WatchHub!
    private let store: StateStore
    var acceptPaused = false
    var shutdownDeadline: Double?
    var stopReason = "stopped"
    var idleTimer: MonotonicTimer?
    var watchdogTimer: MonotonicTimer?
    var statusTimer: MonotonicTimer?
    var listeningOn = ""
    private let clock: TimeSource
    private(set) var monotonicNow: Double
    /// The wall clock when epoll last returned: the time requests read in this batch are
    /// answered for (one clock read per batch, not per request).
    private var wallNow: Date

    public init(options: Options, settings: Settings, clock: TimeSource = SystemTimeSource()) throws(SystemError) {
        self.options = options
        self.clock = clock
        self.loop = try EventLoop()
        self.readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.store = StateStore(directory: options.stateDirectory)
        let (schedule, problem) = store.load(now: clock.now)
        if let problem { Log.error(problem) }
        self.responder = Responder(settings: settings, schedule: schedule)
        self.responder.versionText = options.versionText
        self.counters = ServerCounters(startedAt: clock.now)
        self.monotonicNow = Posix.monotonicSeconds()
        self.wallNow = clock.now
        self.watches = try WatchHub(loop: loop) { [unowned self] request in
            self.responder.answer(request, now: self.clock.now, counters: self.statistics)
        }
    }

    deinit { readBuffer.deallocate() }

    /// Serves until SIGTERM or SIGINT. Returns the process exit status.
    public func run() throws(SystemError) -> Int32 {
        raiseDescriptorLimit()
        signals = try SignalHandler(server: self, signals: serviceSignals)
        let listener = try openListener()
        self.listener = listener
        let handler = ListenerHandler(server: self)
        listenerHandler = handler
        try loop.register(listener.fd, events: EventLoop.readable, handler: handler)
        sweeper = try MonotonicTimer(loop: loop) { [unowned self] in self.sweep() }
        try startLifecycleTimers(listener: listener)

        let settings = responder.settings
        listeningOn = listener.description
        Log.info("serving on \(listener.description); city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue), \(responder.schedule.count) live rooms",
                 event: .started)
        notify(.ready, .status(statusLine))
        loop.run { [unowned self] in
            self.monotonicNow = Posix.monotonicSeconds()
            self.wallNow = self.clock.now
        }
        listener.close()
        Log.info("\(stopReason); answered \(counters.requests) requests", event: stopReason.hasPrefix("exited after") ? .idleExit : .stopped)
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
        snapshot.timers = watches.count  // each watch's timer registration
        snapshot.clockChanges = watches.clockChanges
        return snapshot
    }

    /// `live add`, `live rm`, `reload`: only for the service's own user, root and members of
    /// `admin_group`. A room change is answered only once it is on disk.
    func change(_ request: Request, from connection: Connection) -> Reply {
        guard let peer = connection.peer, peer.mayChange(adminGroup: adminGroupID) else {
            let allowed = "the service's own user (uid \(geteuid()))"
                + (responder.settings.adminGroup.map { ", root and members of group \($0)" } ?? " and root")
            let who = connection.peer.map { "pid \($0.pid), uid \($0.uid)" } ?? "an unknown peer"
            Log.notice("refused \(request.commandWord) from \(who): only \(allowed) may change zaoan",
                       event: .refused, fields: ["CLIENT_PID": "\(connection.peer?.pid ?? 0)", "CLIENT_UID": "\(connection.peer?.uid ?? 0)"])
            return .error(ProtocolError(.forbidden, "only \(allowed) may \(request.commandWord)"))
        }
        if case .reload = request { return reload() }
        do {
            let next = try responder.proposedChange(request, now: clock.now)
            do {
                try store.save(next)
            } catch {
                Log.error("could not save the live rooms, change refused: \(error); check that \(store.directory) is writable and the disk not full")
                return .error(ProtocolError(.storage, "could not save the change (\(error)); nothing was changed"))
            }
            responder.commit(next)
            watches.refresh()
            statusChanged()
            return .ok
        } catch {
            return .error(error)
        }
    }

    func connectionClosed(_ connection: Connection) {
        connections.removeValue(forKey: connection.fd)
        if acceptPaused { resumeAccepting() }
        statusChanged()
        if connections.isEmpty {
            sweeper?.disarm()
            if shutdownDeadline != nil { loop.stop() } else { becameIdle() }
        }
    }

    /// Re-reads the config; a bad file is rejected and the settings in force are kept.
    @discardableResult
    func reload() -> Reply {
        do {
            let settings = try options.config.load()
            responder.apply(settings)
            watches.refresh()  // a new language, city or template shows at once, not on the next tick
            Log.info("configuration reloaded from \(options.config.path)")
            return .ok
        } catch {
            Log.error("reload rejected, keeping the previous settings: \(error)")
            return .error(ProtocolError(.badConfig, "\(error); the previous settings stay in force"))
        }
    }

    // MARK: - Accepting

    func acceptConnections() {
        guard let listener, shutdownDeadline == nil else { return }
        monotonicNow = Posix.monotonicSeconds()
        for _ in 0..<64 {
            let fd = zaoan_accept_nonblocking(listener.fd)
            if fd < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    Log.warning("cannot accept more connections (\(SystemError(errno: code, "accept"))); pausing until one closes. Raise LimitNOFILE= or lower max_connections")
                    pauseAccepting()
                }
                return
            }
            guard connections.count < responder.settings.maxConnections else {
                refuseBusy(fd)
                continue
            }
            let connection = Connection(fd: fd, server: self, now: monotonicNow)
            do {
                try loop.register(fd, events: EventLoop.readable, handler: connection)
            } catch {
                Posix.close(fd)
                continue
            }
            connections[fd] = connection
            counters.connectionsTotal += 1
            idleTimer?.disarm()
            statusChanged()
            if connections.count == 1 { sweeper?.arm(after: 1, repeating: true) }
            // The request is usually already there: answer without another trip through epoll.
            connection.readInput()
        }
    }

    private func refuseBusy(_ fd: Int32) {
        let reply = Reply.error(ProtocolError(.busy, "too many connections (max_connections is \(responder.settings.maxConnections)); try again shortly"))
        _ = reply.bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Posix.close(fd)
    }

    private func pauseAccepting() {
        guard let listener, !acceptPaused else { return }
        acceptPaused = true
        loop.unregister(listener.fd)
    }

    private func resumeAccepting() {
        guard let listener, let listenerHandler, acceptPaused, shutdownDeadline == nil else { return }
        acceptPaused = false
        try? loop.register(listener.fd, events: EventLoop.readable, handler: listenerHandler)
    }

    // MARK: - Time and signals

    /// Once a second while connections are open: close idle ones, enforce the shutdown deadline.
    private func sweep() {
        monotonicNow = Posix.monotonicSeconds()
        if let deadline = shutdownDeadline, monotonicNow >= deadline {
            loop.stop()
            return
        }
        let sessionLimit = Double(responder.settings.idleTimeout)
        for connection in Array(connections.values) {
            if connection.hasPendingOutput {
                if monotonicNow - connection.lastOutputProgress >= Self.stuckClientTimeout {
                    Log.notice("closing a client that has not read its answers for \(Int(Self.stuckClientTimeout)) s")
                    connection.close()
                }
            } else if connection.watch != nil {
                continue  // a watcher waits for the server, not the other way round
            } else if connection.mode == .session {
                if monotonicNow - connection.lastActivity >= sessionLimit { connection.close() }
            } else if monotonicNow - connection.acceptedAt >= Self.oneShotTimeout {
                connection.close()  // one-shot: a complete line within 10 s of connecting
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

    /// Stop accepting, let answers in flight be written, then stop (or at the deadline).
    private func beginShutdown(reason: String) {
        guard shutdownDeadline == nil else { return }
        stopReason = "stopped (\(reason))"
        notify(.stopping)
        monotonicNow = Posix.monotonicSeconds()
        shutdownDeadline = monotonicNow + Self.shutdownGrace
        if let listener, !acceptPaused { loop.unregister(listener.fd) }
        watches.removeAll()
        for connection in Array(connections.values) {
            connection.finishSoon()
        }
        if connections.isEmpty { loop.stop() } else { sweeper?.arm(after: 0.1, repeating: true) }
    }

    func notify(_ states: Systemd.NotifyState...) {
        for state in states {
            do { try Systemd.notify(state) } catch { Log.warning("\(error)") }
        }
    }
}

/// Accepts on the listening socket.
private final class ListenerHandler: EventHandler {
    unowned let server: Server
    init(server: Server) { self.server = server }
    func handle(events: UInt32) { server.acceptConnections() }
}
