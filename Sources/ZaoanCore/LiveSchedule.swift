
/// Every live room, keyed by ID. A value: the server persists a changed copy before it
/// takes its place, so an acknowledged change is always on disk.
public struct LiveSchedule: Equatable, Sendable {
    public private(set) var rooms: [String: LiveRoom] = [:]
    /// The rooms by start, then ID, kept in order as rooms come and go (countdowns, the
    /// ticker and `live list` read it every second; sorting a thousand rooms each time was
    /// a measurable part of the loop's work).
    public private(set) var sorted: [LiveRoom] = []
    /// Snoozed and dismissed alarms, and how far alarms have been sent: saved with the rooms.
    public internal(set) var reminders = Reminders()
    /// `privacy on`: every answer and stream shows a neutral word for titles and leaves out
    /// places, descriptions and links (`PrivacyMask`); saved, so it lasts until `privacy off`.
    public internal(set) var privacy = false

    public init(rooms: [LiveRoom] = []) {
        for room in rooms { self.rooms[room.id] = room }
        sorted = self.rooms.values.sorted(by: Self.inOrder)
    }

    /// By start, then ID, so every listing and the ticker agree on the order.
    static func inOrder(_ a: LiveRoom, _ b: LiveRoom) -> Bool {
        (a.start, a.id) < (b.start, b.id)
    }

    public static func == (a: LiveSchedule, b: LiveSchedule) -> Bool { a.rooms == b.rooms && a.reminders == b.reminders && a.privacy == b.privacy }

    public var count: Int { rooms.count }

    /// `watch events` sent the alarms due up to `second` (saved, so a restart does not
    /// send them again).
    public mutating func noteAlarmsSent(through second: Int) {
        reminders.noteSent(through: second)
    }

    /// Adds a room, replacing one with the same ID.
    /// - Throws: `full` when a new ID would pass `limit`.
    public mutating func upsert(_ room: LiveRoom, limit: Int) throws(ProtocolError) {
        if rooms[room.id] == nil && rooms.count >= limit {
            throw ProtocolError(.full, "there are already \(limit) live rooms (max_rooms); remove some with live rm ID")
        }
        insertLoaded(room)
    }

    /// Adds a room read from the state file (already checked; `max_rooms` applies to adds).
    mutating func insertLoaded(_ room: LiveRoom) {
        if let old = rooms.updateValue(room, forKey: room.id) { removeFromOrder(old) }
        // Binary search for the place: the order is (start, id).
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if Self.inOrder(sorted[middle], room) { low = middle + 1 } else { high = middle }
        }
        sorted.insert(room, at: low)
    }

    private mutating func removeFromOrder(_ room: LiveRoom) {
        if let index = sorted.firstIndex(where: { $0.id == room.id }) { sorted.remove(at: index) }
    }

    /// Drops every room that has ended (a recurring room stays: it comes again).
    public mutating func removeEnded(now: Instant, defaultDuration: Int) {
        sorted.removeAll { $0.repeatRule == nil && RoomPhase(room: $0, now: now, defaultDuration: defaultDuration).isOver }
        rooms = Dictionary(uniqueKeysWithValues: sorted.map { ($0.id, $0) })
    }

    @discardableResult
    public mutating func remove(id: String) -> Bool {
        guard let old = rooms.removeValue(forKey: id) else { return false }
        removeFromOrder(old)
        return true
    }

    /// Of rooms in order (the Responder's rooms and calendar events, `Responder.rotation`):
    /// the one live now (the earliest started), else the next to start.
    static func featured(in sorted: [LiveRoom], now: Instant, defaultDuration: Int) -> (room: LiveRoom, phase: RoomPhase)? {
        var next: (LiveRoom, RoomPhase)?
        for room in sorted {
            let phase = RoomPhase(room: room, now: now, defaultDuration: defaultDuration)
            switch phase {
            case .live: return (room, phase)
            case .upcoming: if next == nil { next = (room, phase) }
            case .ended: continue
            }
        }
        return next
    }

    /// Which of `count` items the ticker shows: whole periods since the Unix epoch, modulo
    /// the count. Every client and every restart agree, and after the last comes the first.
    public static func tickerIndex(now: Instant, period: Int, count: Int) -> Int {
        precondition(period > 0 && count > 0)
        let periods = Int(clampingSeconds: now.secondsSince1970 / Double(period))
        return ((periods % count) + count) % count
    }
}
