import ZaoanCore

/// Every `watch`, grouped by request: each tick renders each distinct request once and
/// writes the answer to its watchers only when it changed. 1,000 clients watching
/// `countdown` cost one render and 1,000 writes.
///
/// A watch's timer belongs to its connection: the connection holds a `WatchHub.Ticket`,
/// and closing the connection returns it. With no tickets out, the wall-clock timer is
/// disarmed and the service sleeps.
///
/// A tick's updates are written `deliveriesPerTurn` at a time, one batch per loop turn
/// (`deliver`), so a thousand watchers updated on the second do not hold up, for the whole
/// burst, a ping that arrives in the middle of it.
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
    /// Updates rendered and not yet written, oldest first.
    private var deliveries: [(connection: Connection, reply: Reply)] = []
    private var delivered = 0
    static let deliveriesPerTurn = 64
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
        deliveries.removeAll()
        delivered = 0
        count = 0
        timer.disarm()
    }

    /// Writes up to `deliveriesPerTurn` pending updates. Returns whether more wait.
    func deliver() -> Bool {
        let end = min(deliveries.count, delivered + Self.deliveriesPerTurn)
        while delivered < end {
            let (connection, reply) = deliveries[delivered]
            delivered += 1
            connection.sendFrame(reply)  // nothing for a connection closed meanwhile
        }
        if delivered == deliveries.count {
            deliveries.removeAll(keepingCapacity: deliveries.count < 4096)
            delivered = 0
            return false
        }
        return true
    }

    private func tick(clockWasSet: Bool) {
        if clockWasSet { clockChanges += 1 }
        // Updates of the last tick still waiting go out first, in order.
        while deliver() {}
        for (request, group) in groups {
            let reply = render(request)
            if reply == group.last { continue }  // nothing is sent while the text is unchanged
            groups[request]?.last = reply
            for connection in group.watchers.values {
                deliveries.append((connection, reply))
            }
        }
    }
}
