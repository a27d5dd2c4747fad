import Glibc

/// Log lines about what one client was refused or closed for, limited per uid: any user
/// can make the service refuse thousands of requests a second, and must not fill the
/// journal (or stall the loop on a full stderr) with a line each.
///
/// The first `burst` notes of a uid in a `window` are logged as they come; the rest are
/// counted, and when the window ends one line says how many there were
/// ("refused 5234 more requests from uid 65534 in the last 60 s").
final class RefusalLog {
    static let window = 60.0
    static let burst = 5

    private struct Tally {
        var windowStart: Double
        var logged = 0
        var suppressed = 0
    }

    private var tallies: [Int64: Tally] = [:]
    private var timer: MonotonicTimer!

    init(loop: EventLoop) throws(SystemError) {
        timer = try MonotonicTimer(loop: loop) { [unowned self] in self.flush() }
    }

    /// Logs `message` about a client of `uid` (-1: unknown), or counts it if that uid has
    /// had its share of lines in this window.
    func note(uid: Int64, pid: pid_t?, message: String, event: Log.Event?) {
        let now = Posix.monotonicSeconds()
        var tally = tallies[uid] ?? Tally(windowStart: now)
        if now - tally.windowStart >= Self.window {
            report(uid: uid, tally)
            tally = Tally(windowStart: now)
        }
        if tally.logged < Self.burst {
            tally.logged += 1
            let who = uid < 0 ? "a client the kernel did not name" : "pid \(pid.map(String.init) ?? "?"), uid \(uid)"
            var fields: [String: String] = [:]
            if uid >= 0 { fields["CLIENT_UID"] = "\(uid)" }
            if let pid { fields["CLIENT_PID"] = "\(pid)" }
            Log.notice("\(message) (\(who))" + (tally.logged == Self.burst ? "; further ones from this uid are counted and reported once a minute" : ""),
                       event: event, fields: fields)
        } else {
            tally.suppressed += 1
            if !timer.armed { timer.arm(after: Self.window, repeating: false) }
        }
        tallies[uid] = tally
    }

    /// Reports every window that has ended, and at exit every count still held.
    func flush(all: Bool = false) {
        let now = Posix.monotonicSeconds()
        for (uid, tally) in tallies where all || now - tally.windowStart >= Self.window {
            report(uid: uid, tally)
            tallies[uid] = nil
        }
        if tallies.values.contains(where: { $0.suppressed > 0 }) {
            timer.arm(after: Self.window / 4, repeating: false)
        }
    }

    private func report(uid: Int64, _ tally: Tally) {
        guard tally.suppressed > 0 else { return }
        let seconds = Int(clampingSeconds: min(Posix.monotonicSeconds() - tally.windowStart, Self.window * 10))
        let who = uid < 0 ? "clients the kernel did not name" : "uid \(uid)"
        Log.notice("refused or closed \(tally.suppressed) more requests or connections from \(who) in the last \(seconds) s",
                   event: .refused, fields: uid >= 0 ? ["CLIENT_UID": "\(uid)"] : [:])
    }
}
