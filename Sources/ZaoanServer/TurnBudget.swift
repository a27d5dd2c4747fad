import ZaoanCore

/// How much loop time each account's requests may take in one turn, whatever they cost:
/// the fairness Redis gets by counting bytes, counted here in time and per account (uid),
/// because a request's cost is not its size (a `time` pattern in the Chinese calendar, a
/// `schedule` over a large calendar, a watched clock in a new zone each cost far more than
/// their bytes), and because what one account asks must not hold up another's.
///
/// A turn has two parts: the events epoll returned, then the connections that waited. In
/// each part an account may spend `seconds` reading and answering, measured on the
/// monotonic clock: from the latest reading (the turn's wake-up, the end of the handler
/// before) to the end of each read's answers, and before each further line of a read.
/// The loop reads the clock after every handler that does not count its own time
/// (`EventLoop.register(timed:)`), so what came before is never charged to an account.
/// Once its time is spent, a connection of that account with bytes to read or lines to
/// answer waits here, in its account's queue (`Channel.pauseForTurn`). At the end of the
/// turn the waiting connections are served, account after account, each account's oldest
/// first, each account again up to `seconds` (at least one connection each). An account that pipelines
/// costly requests on a hundred connections so holds up another account's `ping` by about
/// `seconds` and one of its requests, never by all of them. Watch renderings of a tick are
/// counted as an account of their own (`watches`): what a tick cannot render within its
/// time is rendered in the next turns.
final class TurnBudget {
    /// Loop time an account may take in each part of a turn.
    static let seconds = 0.002

    private let clock: LoopClock
    /// When the part being counted began (monotonic seconds): a new turn's clock starts the
    /// next part.
    private var partStart: Double
    /// The part being counted: an account's `spent` counts only in the part it was counted in.
    private var part = 0
    /// The account being counted now (its uid), and since when.
    private var current: (uid: Int64, since: Double)?
    /// The latest reading of the monotonic clock: the turn's wake-up, the end of an
    /// account's reading and answering, or the loop's reading after other work.
    private var latest: Double
    /// Accounts with connections waiting, in the order they are served.
    private var order: [Account] = []
    /// The account a tick's watch renderings are counted as.
    let watches = Account(uid: -2)
    /// Times lines or renderings were held for the next turn (`stats`: `held_for_next_turn`).
    private(set) var held = 0

    init(clock: LoopClock) {
        self.clock = clock
        partStart = clock.monotonic
        latest = clock.monotonic
    }

    /// A new turn starts a new part: what accounts spent in the last one no longer counts.
    private func startPartIfNewTurn() {
        if clock.monotonic > partStart {
            partStart = clock.monotonic
            latest = clock.monotonic
            part += 1
        }
    }

    /// `account`'s reading and answering begins now; `end` ends it.
    func begin(_ account: Account) {
        startPartIfNewTurn()
        latest = Posix.monotonicSeconds()
        current = (account.uid, latest)
    }

    /// The same for a handler of the loop, counted from the latest reading: only the loop's
    /// dispatch ran since, as every other handler is followed by a reading (`loopWorkDone`).
    func beginFromLatestReading(_ account: Account) {
        startPartIfNewTurn()
        current = (account.uid, latest)
    }

    /// Work no account is charged for ran on the loop (a handler that does not count its own
    /// time): the next account counts from after it.
    func loopWorkDone() {
        startPartIfNewTurn()
        latest = Posix.monotonicSeconds()
    }

    func end(_ account: Account) {
        guard let (_, since) = current else { return }
        if account.part != part {
            account.part = part
            account.spent = 0
        }
        latest = Posix.monotonicSeconds()
        account.spent += latest - since
        current = nil
    }

    /// Whether `account` has spent its time in this part (reads the monotonic clock).
    func isSpent(_ account: Account) -> Bool {
        startPartIfNewTurn()
        var total = account.part == part ? account.spent : 0
        if let (running, since) = current, running == account.uid { total += Posix.monotonicSeconds() - since }
        return total >= Self.seconds
    }

    func wait(_ channel: Channel) {
        let account = channel.account
        if account.waiting.isEmpty, !order.contains(where: { $0 === account }) { changeOutOfPlace(self, \.order) { $0.append(account) } }
        changeOutOfPlace(account, \.waiting) { $0.append(channel) }
        held += 1
    }

    /// Watch renderings of a tick were left for the next turn.
    func renderingsHeld() { held += 1 }

    /// The end of a turn: the connections that waited take their lines, account after
    /// account, each account up to `seconds` (at least one connection). Returns whether some
    /// still wait.
    func resumeWaiting() -> Bool {
        guard !order.isEmpty else { return false }
        // The second part reads the clock again: a connection held here may have sent its
        // next line after the first part answered the last one (a one-line-at-a-time client
        // on a busy machine), and that line is answered for now, not for the turn's start
        // (`time %s.%N` twice gave the same nanoseconds).
        clock.read()
        partStart = clock.monotonic
        part += 1
        let accounts = order
        order = []
        var stillWaiting: [Account] = []
        for account in accounts {
            var queue = account.waiting
            account.waiting = []
            guard !queue.isEmpty else { continue }
            var first = true
            while !queue.isEmpty, first || !isSpent(account) {
                first = false
                let channel = queue.removeFirst()
                begin(account)
                channel.resumeAfterTurn()  // may wait again: behind the account's others
                end(account)
            }
            queue += account.waiting
            account.waiting = queue
            if !queue.isEmpty { stillWaiting.append(account) }
        }
        // Accounts served this turn keep their place; any that came to wait meanwhile follow.
        order = stillWaiting + order.filter { account in
            !stillWaiting.contains { $0 === account } && !account.waiting.isEmpty
        }
        return !order.isEmpty
    }
}
