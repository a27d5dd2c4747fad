import ZaoanCore

/// How much loop time one turn spends answering, whatever the requests cost: the fairness
/// Redis gets by counting bytes, counted here in time, because a request's cost is not its
/// size (a `time` pattern in the Chinese calendar, a `schedule` over a large calendar, a
/// watched clock in a new zone each cost far more than their bytes).
///
/// A channel that has answered a line after the turn's `seconds` were spent stops taking
/// lines (`Channel.pauseForTurn`) and waits here; at the end of the turn each waiting
/// channel, oldest first, takes its next lines on a budget of its own, at least one line
/// each, so nobody starves and a client that has just connected is answered in the next
/// turn, after at most one budget's work. Watch renderings of a tick obey it too
/// (`WatchHub`): what a tick cannot render within the budget is rendered in the next turns.
final class TurnBudget {
    /// Loop time for the lines of one turn's events, and again for the waiting channels.
    static let seconds = 0.004

    private let clock: LoopClock
    /// When the part of the turn being counted began (monotonic seconds).
    private var since: Double
    private var waiting: [Channel] = []
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

    var hasWaiting: Bool { !waiting.isEmpty }

    func wait(_ channel: Channel) {
        waiting.append(channel)
        held += 1
    }

    /// Watch renderings of a tick were left for the next turn.
    func renderingsHeld() { held += 1 }

    /// The end of a turn: the channels that waited take their lines, oldest first, on a
    /// budget of their own. Those that spend it wait again. Returns whether some wait.
    func resumeWaiting() -> Bool {
        guard !waiting.isEmpty else { return false }
        let ready = waiting
        waiting.removeAll(keepingCapacity: true)
        since = Posix.monotonicSeconds()
        for channel in ready { channel.resumeAfterTurn() }
        return !waiting.isEmpty
    }
}
