import ZaoanCore

/// Every `watch`, grouped by request: each tick renders each distinct request once and
/// writes the answer to its watchers only when it changed. 1,000 clients watching
/// `countdown` cost one render and 1,000 writes.
///
/// A watch belongs to its session: the session holds a `WatchHub.Ticket`, and ending the
/// watch or closing the connection returns it; frames go to the session's `Channel`. With no tickets out, or only for answers the
/// clock cannot change (`version`, `help`: re-rendered on reload), the wall-clock timer is
/// disarmed and the service sleeps.
///
/// A tick's updates are written `deliveriesPerTurn` at a time, one batch per loop turn
/// (`deliver`), so a thousand watchers updated on the second do not hold up, for the whole
/// burst, a ping that arrives in the middle of it.
final class WatchHub {
    /// The watchers of one request. A reference, so that a tick holds its groups without
    /// looking each up again by its request: hashing a request was a large part of a bar's
    /// tick (docs/benchmarks.md, "A watched line compiled").
    private final class Group {
        let request: Request
        var last: Reply?
        /// The request compiled for its ticks (a bar line of clocks), or nil: rendered the
        /// ordinary way. Compiled again on `refresh`.
        var line: WatchedLine?
        /// In a plain array, so that a tick hands the whole list to `deliveries` without a
        /// per-watcher step (the array is shared, not copied, until a watcher comes or goes).
        var watchers: [Channel] = []
        /// Each watcher's place in `watchers`, for removal by swapping in the last one.
        var places: [ObjectIdentifier: Int] = [:]
        /// How often the answer can change with the clock, in seconds: 1, 60, or 0 for never.
        var period: Int
        /// False once its last watcher left and it was dropped: a rendering of the tick still
        /// pending for it is skipped.
        var watched = true

        init(request: Request, line: WatchedLine?, period: Int) {
            self.request = request
            self.line = line
            self.period = period
        }

        /// Whether it was added (false: it already watched this request).
        func insert(_ channel: Channel) -> Bool {
            let key = ObjectIdentifier(channel)
            guard places[key] == nil else { return false }
            let place = watchers.count
            changeOutOfPlace(self, \.places, placeholder: [:]) { $0[key] = place }
            changeOutOfPlace(self, \.watchers) { $0.append(channel) }
            return true
        }

        /// Whether it was there.
        func remove(_ channel: Channel) -> Bool {
            guard let place = changeOutOfPlace(self, \.places, placeholder: [:], { $0.removeValue(forKey: ObjectIdentifier(channel)) }) else { return false }
            // The last watcher takes the place of the one that leaves.
            let moved: Channel? = changeOutOfPlace(self, \.watchers) { watchers in
                let last = watchers.removeLast()
                guard place < watchers.count else { return nil }
                watchers[place] = last
                return last
            }
            if let moved { changeOutOfPlace(self, \.places, placeholder: [:]) { $0[ObjectIdentifier(moved)] = place } }
            return true
        }
    }

    /// Proof of a registered watch; returned with `remove`. A reference, so that the
    /// session's state holding it is copied with a retain, not a copy of the request.
    final class Ticket {
        let request: Request
        let account: Int64
        init(request: Request, account: Int64) {
            self.request = request
            self.account = account
        }
    }

    /// Distinct requests one account (uid) may watch at once. Each is rendered on every tick
    /// that can change it, so this bounds what one account makes every tick cost; watching a
    /// request that is watched already (by anyone) costs no rendering and is not limited.
    static let distinctPerAccount = 32

    /// For each account, the requests it watches and how many of its watches each has.
    private var watchedBy: [Int64: [Request: Int]] = [:]
    /// Groups of the last tick still to be rendered (`renderDue`), within the turn's budget.
    private var unrendered: [Group] = []
    private let budget: TurnBudget

    private var groups: [Request: Group] = [:]
    /// Updates rendered and not yet written, oldest first: each answer with the group it
    /// answers and the watchers it goes to, as they were at the tick. A watcher that leaves
    /// the watch is taken out of them (`remove`); one that closed is skipped by its channel.
    private var deliveries: [Delivery] = []
    /// A struct, not a tuple: an array of tuples is copied through the runtime's generic
    /// tuple witness.
    private struct Delivery {
        let group: Group
        let reply: Reply
        var watchers: [Channel]
    }
    /// How far `deliveries` has been written: the batch, and the watcher within it.
    private var deliveredBatches = 0
    private var deliveredInBatch = 0
    static let deliveriesPerTurn = 64
    private(set) var count = 0
    /// How often the wall clock was set under a watch.
    private(set) var clockChanges = 0
    private let timer: WallClockTimer
    private let render: (Request, WatchedLine?) -> Reply
    private let compile: (Request) -> WatchedLine?
    private let period: (Request) -> Int
    /// Groups whose answer can change every second: while there is one, the timer ticks
    /// every second; else every minute while a minute clock or greeting is watched.
    private var secondGroups = 0
    private var minuteGroups = 0

    /// - Parameters:
    ///   - render: the request's answer now, from its compiled line where it has one.
    ///   - compile: the request compiled for its ticks (`Responder.watchedLine`), or nil.
    ///   - period: how often a request's answer can change (1 or 60 seconds, 0 never).
    init(loop: EventLoop, budget: TurnBudget, render: @escaping (Request, WatchedLine?) -> Reply,
         compile: @escaping (Request) -> WatchedLine?, period: @escaping (Request) -> Int) throws(SystemError) {
        self.budget = budget
        self.render = render
        self.compile = compile
        self.period = period
        var tick: ((Bool) -> Void)?
        timer = try WallClockTimer(loop: loop) { clockWasSet in tick?(clockWasSet) }
        tick = { [unowned self] clockWasSet in self.tick(clockWasSet: clockWasSet) }
    }

    /// Registers a watch and returns the first answer to send; nil when `account` watches
    /// `distinctPerAccount` other requests already.
    func add(_ connection: Channel, request: Request, account: Int64) -> (Ticket, Reply)? {
        if watchedBy[account]?[request] == nil, watchedBy[account, default: [:]].count >= Self.distinctPerAccount { return nil }
        watchedBy[account, default: [:]][request, default: 0] += 1
        let group: Group
        if let found = groups[request] {
            group = found
        } else {
            group = Group(request: request, line: compile(request), period: Self.normalized(period(request)))
            group.last = render(request, group.line)
            count(group.period, by: 1)
            groups[request] = group
        }
        if group.insert(connection) { count += 1 }
        let reply = group.last ?? render(request, group.line)
        armTimer()
        return (Ticket(request: request, account: account), reply)
    }

    private static func normalized(_ period: Int) -> Int {
        period == 0 || period == 60 ? period : 1
    }

    private func count(_ period: Int, by step: Int) {
        if period == 1 { secondGroups += step } else if period == 60 { minuteGroups += step }
    }

    /// Every second while something changes by the second, else every minute; off when
    /// nothing the clock changes is watched.
    private func armTimer() {
        guard secondGroups + minuteGroups > 0 else {
            timer.disarm()
            return
        }
        let wanted = secondGroups > 0 ? 1 : 60
        if !timer.armed || timer.period != wanted { timer.arm(period: wanted) }
    }

    func remove(_ connection: Channel, ticket: Ticket) {
        guard let group = groups[ticket.request], group.remove(connection) else { return }
        if let left = watchedBy[ticket.account]?[ticket.request], left > 1 {
            watchedBy[ticket.account]?[ticket.request] = left - 1
        } else {
            watchedBy[ticket.account]?[ticket.request] = nil
            if watchedBy[ticket.account]?.isEmpty == true { watchedBy[ticket.account] = nil }
        }
        forgetPending(connection, of: group)
        count -= 1
        if group.watchers.isEmpty {
            groups[ticket.request] = nil
            group.watched = false
            count(group.period, by: -1)
        }
        armTimer()
    }

    /// Takes a watcher that leaves out of the updates not yet written to it: in a session, the
    /// line that ended the watch is answered now, and an update of the old watch must not
    /// follow that answer. Updates wait only in the turns right after a tick, so this is
    /// rarely more than an empty check.
    private func forgetPending(_ connection: Channel, of group: Group) {
        guard deliveredBatches < deliveries.count else { return }
        for batch in deliveredBatches..<deliveries.count where deliveries[batch].group === group {
            let from = batch == deliveredBatches ? deliveredInBatch : 0
            let watchers = deliveries[batch].watchers
            if let place = watchers[from...].firstIndex(where: { $0 === connection }) {
                changeOutOfPlace(self, \.deliveries) { _ = $0[batch].watchers.remove(at: place) }
            }
        }
    }

    /// Compiles and re-renders now, e.g. after live rooms changed. After new settings a
    /// request's period may have changed too (`time_format` gained seconds): `periodsChanged`
    /// checks them again.
    func refresh(periodsChanged: Bool = false) {
        for group in groups.values { group.line = compile(group.request) }
        if periodsChanged {
            secondGroups = 0
            minuteGroups = 0
            for group in groups.values {
                group.period = Self.normalized(period(group.request))
                count(group.period, by: 1)
            }
            armTimer()
        }
        tick(clockWasSet: false)
    }

    /// Ends every watch (shutdown). Connections close themselves as their output drains.
    func removeAll() {
        for group in groups.values { group.watched = false }
        groups.removeAll()
        watchedBy.removeAll()
        unrendered = []
        secondGroups = 0
        minuteGroups = 0
        deliveries = []
        deliveredBatches = 0
        deliveredInBatch = 0
        count = 0
        timer.disarm()
    }

    /// Writes up to `deliveriesPerTurn` pending updates. Returns whether more wait.
    func deliver() -> Bool {
        var budget = Self.deliveriesPerTurn
        while budget > 0, deliveredBatches < deliveries.count {
            let reply = deliveries[deliveredBatches].reply, watchers = deliveries[deliveredBatches].watchers
            let end = min(watchers.count, deliveredInBatch + budget)
            for index in deliveredInBatch..<end {
                watchers[index].sendFrame(reply)  // nothing for a connection closed meanwhile
            }
            budget -= end - deliveredInBatch
            deliveredInBatch = end
            if end == watchers.count {
                deliveredBatches += 1
                deliveredInBatch = 0
            }
        }
        if deliveredBatches == deliveries.count {
            if !deliveries.isEmpty {  // (a turn without a tick costs no copy)
                changeOutOfPlace(self, \.deliveries) { $0.removeAll(keepingCapacity: true) }  // one entry per distinct request
            }
            deliveredBatches = 0
            return false
        }
        return true
    }

    private func tick(clockWasSet: Bool) {
        if clockWasSet { clockChanges += 1 }
        // Updates of the last tick still waiting go out first, in order.
        while deliver() {}
        // What the last tick left unrendered is rendered now, with everything else.
        changeOutOfPlace(self, \.unrendered) {
            $0.removeAll(keepingCapacity: true)
            $0.append(contentsOf: groups.values)
        }
        _ = renderDue()  // what the budget leaves is rendered at the end of the turn
    }

    /// Renders the tick's requests until the turn's loop time is spent (at least one), and
    /// queues each changed answer for its watchers. Returns whether some are left for the
    /// next turn. One account's distinct requests are at most `distinctPerAccount`; the
    /// budget bounds what all of them together hold up the loop in one turn.
    func renderDue() -> Bool {
        guard !unrendered.isEmpty else { return false }
        budget.begin(budget.watches)
        defer { budget.end(budget.watches) }
        while let group = changeOutOfPlace(self, \.unrendered, { $0.popLast() }) {
            guard group.watched else { continue }  // nobody watches it any more
            let reply = render(group.request, group.line)
            if reply != group.last {  // nothing is sent while the text is unchanged
                group.last = reply
                changeOutOfPlace(self, \.deliveries) { $0.append(Delivery(group: group, reply: reply, watchers: group.watchers)) }
            }
            if budget.isSpent(budget.watches) { break }
        }
        if unrendered.isEmpty { return false }
        budget.renderingsHeld()
        return true
    }
}
