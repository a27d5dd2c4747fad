import CSystemd
import Glibc

/// What a socket-activated service owes systemd: idle exit, the watchdog, and a status line.
extension Server {
    /// Idle exit is refused below this: each exit costs a socket trigger on the next
    /// connection, and systemd fails the socket past 20 triggers in 2 s (TriggerLimitBurst=).
    public static let minimumExitIdleTime = 0.5

    func startLifecycleTimers(listener: Listener) throws(SystemError) {
        if let idle = options.exitIdleTime {
            if listener.isActivated {
                if idle < 3 {
                    Log.warning("--exit-idle-time \(idle)s is short: each exit and restart counts against systemd's StartLimitBurst= (5 starts in 10 s by default); use a few minutes in production")
                }
                idleTimer = try MonotonicTimer(loop: loop) { [unowned self] in self.idleExpired() }
                idleTimer?.arm(after: idle, repeating: false)
            } else {
                Log.warning("--exit-idle-time applies only under socket activation (nobody would start zaoan again); ignoring it")
            }
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
        "serving on \(listeningOn): \(connections.count) connections, \(watches.count) watches, \(responder.schedule.count) live rooms"
    }

    /// Connections, watches or rooms changed: publish a new status within a second, at most
    /// once a second, so a busy service does not send a datagram per request.
    func statusChanged() {
        guard let statusTimer, !statusTimer.armed else { return }
        statusTimer.arm(after: 1, repeating: false)
    }

    /// The last connection closed.
    func becameIdle() {
        guard let idle = options.exitIdleTime, let idleTimer else { return }
        idleTimer.arm(after: idle, repeating: false)
    }

    /// No connection for the idle time: stop accepting and exit. Connections still queued on
    /// the listening socket stay there; systemd holds the socket and starts zaoan again for
    /// them, so none is lost or reset.
    private func idleExpired() {
        guard connections.isEmpty, watches.count == 0, shutdownDeadline == nil, let listener else { return }
        stopReason = "exited after \(options.exitIdleTime ?? 0) s with no clients (the next connection starts zaoan again)"
        notify(.stopping)
        shutdownDeadline = monotonicNow
        if !acceptPaused { loop.unregister(listener.fd) }
        loop.stop()
    }
}

extension Server {
    /// The gid of `admin_group`, looked up when asked (groups can change while zaoan runs).
    var adminGroupID: gid_t? {
        guard let name = responder.settings.adminGroup, let group = getgrnam(name) else { return nil }
        return group.pointee.gr_gid
    }
}
