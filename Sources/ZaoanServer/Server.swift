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
        public init(socketPath: String?, config: ConfigSource, environment: [String: String]) {
            self.socketPath = socketPath
            self.config = config
            self.environment = environment
        }
    }

    /// How long a one-shot connection may take to send its first complete line.
    static let oneShotTimeout = 10.0
    /// How long shutdown waits for answers still being written.
    static let shutdownGrace = 2.0

    let loop: EventLoop
    let readBuffer: UnsafeMutableRawBufferPointer
    private let options: Options
    private let responder: Responder
    private var listener: Listener?
    private var listenerHandler: ListenerHandler?
    private var connections: [Int32: Connection] = [:]
    private var counters: ServerCounters
    private var signals: SignalHandler?
    private var sweeper: PeriodicTimer?
    private var acceptPaused = false
    private var shutdownDeadline: Double?
    private let clock: TimeSource
    private(set) var monotonicNow: Double

    public init(options: Options, settings: Settings, clock: TimeSource = SystemTimeSource()) throws(SystemError) {
        self.options = options
        self.clock = clock
        self.loop = try EventLoop()
        self.readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.responder = Responder(settings: settings)
        self.counters = ServerCounters(startedAt: clock.now)
        self.monotonicNow = Posix.monotonicSeconds()
    }

    deinit { readBuffer.deallocate() }

    /// Serves until SIGTERM or SIGINT. Returns the process exit status.
    public func run() throws(SystemError) -> Int32 {
        signals = try SignalHandler(server: self, signals: serviceSignals)
        let listener = try openListener()
        self.listener = listener
        let handler = ListenerHandler(server: self)
        listenerHandler = handler
        try loop.register(listener.fd, events: EventLoop.readable, handler: handler)
        sweeper = try PeriodicTimer(loop: loop) { [unowned self] in self.sweep() }

        let settings = responder.settings
        Log.info("serving on \(listener.description) (city \(settings.city), zone \(settings.zone.identifier), language \(settings.language.rawValue))")
        notify(.ready, .status("serving on \(listener.description)"))
        loop.run { }
        listener.close()
        Log.info("stopped after \(counters.requests) requests")
        return 0
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

    var monotonic: Double { monotonicNow }

    func countRequest() { counters.requests += 1 }

    func answer(_ request: Request) -> Reply {
        if case .reload = request { return reload() }
        counters.connectionsOpen = connections.count
        return responder.answer(request, now: clock.now, counters: counters)
    }

    func connectionClosed(_ connection: Connection) {
        connections.removeValue(forKey: connection.fd)
        if acceptPaused { resumeAccepting() }
        if connections.isEmpty {
            sweeper?.disarm()
            if shutdownDeadline != nil { loop.stop() }
        }
    }

    /// Re-reads the config; a bad file is rejected and the settings in force are kept.
    @discardableResult
    func reload() -> Reply {
        do {
            let settings = try options.config.load()
            responder.apply(settings)
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
            if connections.count == 1 { sweeper?.arm() }
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
            let limit = connection.mode == .session ? sessionLimit : Self.oneShotTimeout
            if monotonicNow - connection.lastActivity >= limit && !connection.hasPendingOutput {
                connection.close()
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
        Log.info("stopping (\(reason))")
        notify(.stopping)
        monotonicNow = Posix.monotonicSeconds()
        shutdownDeadline = monotonicNow + Self.shutdownGrace
        if let listener, !acceptPaused { loop.unregister(listener.fd) }
        for connection in Array(connections.values) {
            connection.finishSoon()
        }
        if connections.isEmpty { loop.stop() } else { sweeper?.arm() }
    }

    private func notify(_ states: Systemd.NotifyState...) {
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
