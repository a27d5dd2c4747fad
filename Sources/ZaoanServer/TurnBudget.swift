import ZaoanCore

/// How much loop time one turn spends answering, whatever the requests cost: the fairness
/// Redis gets by counting bytes, counted here in time, because a request's cost is not its
/// size (a `time` pattern in the Chinese calendar, a `schedule` over a large calendar, a
/// watched clock in a new zone each cost far more than their bytes).
///
/// Once the turn's `seconds` are spent, a connection with lines to answer or bytes to read
/// stops (`Channel.pauseForTurn`) and waits here, in its account's queue. At the end of the
/// turn the waiting connections take their lines on a budget of their own, one connection
/// of each account in turn (round robin over accounts, each account's oldest first), at
/// least one connection a turn: an account that pipelines costly requests on a hundred
/// connections holds up another account's one `ping` by about one of its requests, not a
/// hundred. Watch renderings of a tick obey it too (`WatchHub`): what a tick cannot render
/// within the budget is rendered in the next turns.
final class TurnBudget {
    /// Loop time for one turn's events, and again for the connections that waited.
    static let seconds = 0.004

    private let clock: LoopClock
    /// When the part of the turn being counted began (monotonic seconds).
    private var since: Double
    /// Connections waiting for a later turn, by account (uid), each queue oldest first.
    private var waiting: [Int64: [Channel]] = [:]
    /// Accounts with connections waiting, in the order they are served.
    private var order: [Int64] = []
    /// Times lines or renderings were held for the next turn (`stats`: `held_for_next_turn`).
    private(set) var held = 0

    init(clock: LoopClock) {
        self.clock = clock
        since = clock.monotonic
    }

    /// Whether this part of the turn has spent its budget (reads the monotonic clock).
    var isSpent: Bool {
        Posix.monotonicSeconds() - max(since, clock.monotonic) >= Self.seconds
    }

    func wait(_ channel: Channel) {
        let account = channel.account?.uid ?? -1
        if waiting[account] == nil { order.append(account) }
        waiting[account, default: []].append(channel)
        held += 1
    }

    /// Watch renderings of a tick were left for the next turn.
    func renderingsHeld() { held += 1 }

    /// The end of a turn: the connections that waited take their lines on a budget of their
    /// own, one of each account in turn, until it is spent (at least one connection).
    /// Returns whether some still wait.
    func resumeWaiting() -> Bool {
        guard !order.isEmpty else { return false }
        since = Posix.monotonicSeconds()
        var first = true
        while let account = order.first, first || !isSpent {
            first = false
            order.removeFirst()
            guard var queue = waiting.removeValue(forKey: account), !queue.isEmpty else { continue }
            let channel = queue.removeFirst()
            if !queue.isEmpty {
                // The account's next connection waits behind the other accounts'.
                waiting[account] = queue
                order.append(account)
            }
            channel.resumeAfterTurn()  // may wait again, at the end of its account's queue
        }
        return !order.isEmpty
    }
}
