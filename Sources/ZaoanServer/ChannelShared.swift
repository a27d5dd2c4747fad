import CLinux
import ZaoanCore

/// The service's one notion of now, read once per loop turn (when epoll returns, and again for
/// the connections held to its second part, `TurnBudget`): requests,
/// watch renderings, the event stream and every time limit of the turn use the same instant.
final class LoopClock {
    let source: TimeSource
    /// Seconds on the monotonic clock: deadlines and limits.
    private(set) var monotonic: Double
    /// The wall clock: what answers and watches are rendered for.
    private(set) var wall: Instant

    init(source: TimeSource) {
        self.source = source
        monotonic = Posix.monotonicSeconds()
        wall = source.now
    }

    /// When epoll returns, and when the connections held for a turn's second part are served.
    func read() {
        monotonic = Posix.monotonicSeconds()
        wall = source.now
    }

    /// The wall clock in whole Unix seconds, rounded down.
    var unixSeconds: Int { wall.unixSeconds }
}

/// What every channel shares: the loop, the one read buffer, the output limits in force,
/// the turn's clock, the channels closed in this turn (closed at its end) and the sweeper
/// to start when a time limit begins to run.
final class ChannelShared {
    let loop: EventLoop
    let clock: LoopClock
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where the answers to one read's lines are gathered before their one `send`
    /// (`Channel.readInput`): used by one channel at a time, within one call.
    let answerBuffer: UnsafeMutableRawBufferPointer
    /// The settings' output limits, kept here so that channels read them without copying
    /// the settings on every answer.
    var outputLimits: OutputLimits
    /// Channels marked closed in this turn, in order.
    var closing: [Channel] = []
    /// Arms the sweeper, once a second, if it is not.
    var sweeper: MonotonicTimer?
    /// The loop time a turn spends answering, and the channels waiting for the next turn.
    let turn: TurnBudget
    /// The unread answers of each account, over its connections.
    var accounts = Accounts()
    /// Requests refused unrendered for their account's unread answers (`stats`:
    /// `refused_unread_backlog`).
    var refusedForBacklog = 0
    /// Unread answers dropped by closes since memory was last given back.
    private var dropped = 0
    /// Given back to the system once this much unread output was dropped: the allocator
    /// keeps freed memory for reuse, and 500 MB of answers nobody read would stay with the
    /// service after their connections are gone.
    static let trimAfterDropping = 4 << 20

    init(loop: EventLoop, clock: LoopClock, outputLimits: OutputLimits) {
        self.loop = loop
        self.clock = clock
        turn = TurnBudget(clock: clock)
        self.outputLimits = outputLimits
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        answerBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: OutputQueue.blockSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        answerBuffer.deallocate()
    }

    /// A closed channel dropped `bytes` of answers it never wrote.
    func droppedOutput(_ bytes: Int) { dropped += bytes }

    /// The end of a turn: after large unread answers were dropped, the memory they held goes
    /// back to the system (`malloc_trim`, about a millisecond; at most once a turn).
    func giveBackMemoryIfDue() {
        guard dropped >= Self.trimAfterDropping else { return }
        dropped = 0
        _ = malloc_trim(0)  // whether anything was given back: nothing to do either way
    }

    /// A time limit runs for some channel: the sweeper looks once a second.
    func sweepSoon() {
        if let sweeper, !sweeper.armed { sweeper.arm(after: 1, repeating: true) }
    }
}
