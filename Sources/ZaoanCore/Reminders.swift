import ZaoanRecurrence

/// What the user did with alarms (`remind snooze`, `remind dismiss`) and how far alarms
/// have been sent: the state of reminders, saved in the state file with the rooms
/// (`LiveSchedule` owns it, so a change is saved before it is answered, like `live add`).
///
/// An alarm instance is one alarm of one occurrence (`ReminderID`); what is kept about it
/// is dropped once its event has ended, so the state stays as small as what is pending.
public struct Reminders: Equatable, Sendable {
    public enum Choice: Equatable, Sendable {
        /// Fires once more at `until` (and its repeats after that), not before.
        case snoozed(until: Int)
        /// Fires no more, repeats included.
        case dismissed
    }

    public struct Entry: Equatable, Sendable {
        public var choice: Choice
        /// When its event ends: the entry is dropped after that.
        public var eventEnd: Int
    }

    public private(set) var entries: [String: Entry] = [:]
    /// Alarms due up to this second have been sent to a `watch events` subscriber: at start,
    /// those due after it whose event has not ended are fired once (`Responder.missedAlarms`).
    public private(set) var sentThrough: Int?

    /// Snoozed or dismissed alarm instances kept at most: more than any calendar window
    /// holds pending (an entry goes when its event ends).
    public static let maxEntries = 10_000

    public init() {}

    /// Notes a choice for alarm `id`, after dropping entries whose events have ended.
    mutating func choose(_ choice: Choice, for id: String, eventEnd: Int, now: Int) throws(ProtocolError) {
        entries = entries.filter { $0.value.eventEnd > now }
        if entries[id] == nil, entries.count >= Self.maxEntries {
            throw ProtocolError(.full, "\(Self.maxEntries) alarms are already snoozed or dismissed; wait for their events to end")
        }
        entries[id] = Entry(choice: choice, eventEnd: eventEnd)
    }

    /// Alarms due up to `second` were sent; what is kept about events ended by then goes.
    mutating func noteSent(through second: Int) {
        sentThrough = max(sentThrough ?? second, second)
        entries = entries.filter { $0.value.eventEnd > second }
    }

    /// An entry read from the state file (checked by `StateFile`).
    mutating func insertLoaded(_ id: String, _ entry: Entry) {
        guard entries.count < Self.maxEntries || entries[id] != nil else { return }
        entries[id] = entry
    }

    mutating func loadSentThrough(_ second: Int) { sentThrough = second }
}

/// The ID of one alarm of one occurrence, as `watch events` and `remind list` give it and
/// `remind snooze`/`dismiss` take it: 12 hex digits of a 64-bit FNV-1a hash of the room's or
/// event's ID, its source, the occurrence's start and the alarm's place among its alarms.
/// The same every time it is computed (across restarts, in every process), with nothing
/// to store; 48 bits make a collision among 10,000 pending alarms about 1 in 60 million.
enum ReminderID {
    static func of(_ room: LiveRoom, start: Int, index: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x0000_0100_0000_01b3
        }
        mix(room.id.utf8)
        mix((room.source ?? "").utf8)
        mix(String(start).utf8)
        mix(String(index).utf8)
        let digits = String(hash & 0xffff_ffff_ffff, radix: 16)
        return String(repeating: "0", count: RoomLimits.alarmIDLength - digits.count) + digits
    }
}
