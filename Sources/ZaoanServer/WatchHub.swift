import ZaoanCore

/// Every `watch`, grouped by request: each tick renders each distinct request once and
/// writes the answer to its watchers only when it changed. 1,000 clients watching
/// `countdown` cost one render and 1,000 writes.
///
/// A watch's timer belongs to its connection: the connection holds a `WatchHub.Ticket`,
/// and closing the connection returns it. With no tickets out, the wall-clock timer is
/// disarmed and the service sleeps.
final class WatchHub {
    private struct Group {
        var last: Reply?
        var watchers: [ObjectIdentifier: Connection] = [:]
    }

    /// Proof of a registered watch; returned with `remove`.
    struct Ticket {
        let request: Request
    }

    private var groups: [Request: Group] = [:]
    private(set) var count = 0
    /// How often the wall clock was set under a watch.
    private(set) var clockChanges = 0
    private let timer: WallClockTimer
    private let render: (Request) -> Reply

    init(loop: EventLoop, render: @escaping (Request) -> Reply) throws(SystemError) {
        self.render = render
        var tick: ((Bool) -> Void)?
        timer = try WallClockTimer(loop: loop) { clockWasSet in tick?(clockWasSet) }
        tick = { [unowned self] clockWasSet in self.tick(clockWasSet: clockWasSet) }
    }

    /// Registers a watch and returns the first answer to send.
    func add(_ connection: Connection, request: Request) -> (Ticket, Reply) {
        var group = groups[request] ?? Group()
        let reply = group.last ?? render(request)
        group.last = reply
        group.watchers[ObjectIdentifier(connection)] = connection
        groups[request] = group
        count += 1
        if !timer.armed { timer.arm() }
        return (Ticket(request: request), reply)
    }

    func remove(_ connection: Connection, ticket: Ticket) {
        guard var group = groups[ticket.request],
              group.watchers.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        count -= 1
        groups[ticket.request] = group.watchers.isEmpty ? nil : group
        if count == 0 { timer.disarm() }
    }

    /// Re-renders now, e.g. after live rooms changed.
    func refresh() { tick(clockWasSet: false) }

    /// Ends every watch (shutdown). Connections close themselves as their output drains.
    func removeAll() {
        groups.removeAll()
        count = 0
        timer.disarm()
    }

    private func tick(clockWasSet: Bool) {
        if clockWasSet { clockChanges += 1 }
        for (request, group) in groups {
            let reply = render(request)
            if reply == group.last { continue }  // nothing is sent while the text is unchanged
            groups[request]?.last = reply
            for connection in group.watchers.values {
                connection.sendFrame(reply)
            }
        }
    }
}
