import ZaoanCore

/// `watch events`: one JSON line to every subscriber the second a room occurrence or a
/// calendar event becomes `soon`, goes `live` or has `ended` — a stream of moments, not a
/// state, so nothing is sent on subscribing. The timer is armed for the next moment only
/// (no wake-ups in between, however long that is), and again whenever rooms or events
/// change; moments already passed when they change are not replayed, but a room or event
/// that appears already soon is said soon at once. "Now" is the loop
/// turn's (`LoopClock`), the instant requests and watches of the turn are answered for.
final class EventStream {
    private var subscribers: [ObjectIdentifier: Channel] = [:]
    private var timer: WallClockTimer!
    private let responder: Responder
    private let clock: LoopClock
    /// Moments up to this second have been sent.
    private var sentThrough = 0
    /// The occurrences (ID and start) in the rotation when the stream began or the rotation
    /// last changed while it ran: one that is new at a change and already soon is said soon
    /// at once (`Responder.newlySoon`) — a room added inside the window, a calendar event
    /// read. Kept only while someone listens: no work at start or for a service without
    /// subscribers.
    private var known: Set<String> = []
    /// Told the last second of a firing that sent an alarm (the group commit saves it).
    var alarmsSent: (Int) -> Void = { _ in }

    init(loop: EventLoop, responder: Responder, clock: LoopClock) throws(SystemError) {
        self.responder = responder
        self.clock = clock
        timer = try WallClockTimer(loop: loop) { [unowned self] _ in self.fire() }
    }

    var count: Int { subscribers.count }

    /// - Parameter replayingAfter: the moments after this second that the stream has sent
    ///   already (up to `sentThrough`; later ones come with everybody's) are sent first, as
    ///   one firing (`EventFiring`): what a subscriber that was cut, or restarted, missed.
    func add(_ connection: Channel, replayingAfter since: Int? = nil) {
        if subscribers.isEmpty {
            sentThrough = clock.unixSeconds
            known = responder.occurrenceKeys(at: sentThrough)
        }
        subscribers[ObjectIdentifier(connection)] = connection
        if let since, since < sentThrough {
            let missed = EventFiring(responder.transitions(after: since, through: sentThrough))
            if !missed.shown.isEmpty {
                connection.sendFrame(responder.eventReply(missed), keepAll: true)
                if missed.hasAlarm { alarmsSent(sentThrough) }
            }
        }
        arm()
    }

    func remove(_ connection: Channel) {
        guard subscribers.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
        if subscribers.isEmpty {
            timer.disarm()
            known = []
        }
    }

    /// Rooms or events changed: the next moment may be another one, and what has just
    /// appeared inside the soon window is said soon now (it will never pass its soon moment).
    func scheduleChanged() {
        guard !subscribers.isEmpty else { return }
        let now = clock.unixSeconds
        let appeared = responder.newlySoon(known: known, now: now)
        known = responder.occurrenceKeys(at: now)
        if !appeared.isEmpty {
            let frame = responder.eventReply(EventFiring(appeared))
            for connection in subscribers.values { connection.sendFrame(frame, keepAll: true) }
        }
        arm()
    }

    private func arm() {
        guard !subscribers.isEmpty else { return }
        if let next = responder.nextTransition(after: sentThrough) {
            timer.arm(at: next)
        } else {
            timer.disarm()
        }
    }

    /// Sends the moments since the last firing: at most `EventFiring.linesInFull` in full,
    /// then a line per phase saying how many more, rendered once and written to every
    /// subscriber as one frame. Frames are queued behind each other (every moment counts),
    /// under the output limits every answer has: a subscriber that does not read is closed
    /// as any slow reader is, and learns what it missed with `since=` when it comes back.
    private func fire() {
        let now = clock.unixSeconds
        if now > sentThrough {
            let firing = EventFiring(responder.transitions(after: sentThrough, through: now))
            sentThrough = now
            if !firing.shown.isEmpty {
                let frame = responder.eventReply(firing)
                for connection in subscribers.values { connection.sendFrame(frame, keepAll: true) }
                if firing.hasAlarm { alarmsSent(now) }
            }
        }
        arm()
    }
}
