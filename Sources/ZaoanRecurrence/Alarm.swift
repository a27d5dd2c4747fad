/// An alarm of a calendar event (a VALARM, RFC 5545 §3.6.6) or of a room (`alarm=-5m`): when
/// it is due relative to each occurrence, and how often it repeats.
///
/// The same value travels from the calendar reader process to the service (`wire`), into
/// the state file for rooms, and through the config's default alarms (`init(offset:)`), so
/// it has one text form, read back with the same checks whoever wrote it.
public struct Alarm: Hashable, Sendable {
    /// What the trigger is counted from.
    public enum Anchor: Hashable, Sendable {
        /// `seconds` after the occurrence's start (negative: before), TRIGGER's default.
        case start
        /// `seconds` after its end (TRIGGER;RELATED=END).
        case end
        /// At the Unix second `seconds` (TRIGGER;VALUE=DATE-TIME), whatever the occurrence.
        case absolute
    }

    public let anchor: Anchor
    public let seconds: Int64
    /// More firings after the first (REPEAT), each `interval` seconds after the one before.
    public let repeats: Int
    public let interval: Int64
    /// RFC 9074's ACKNOWLEDGED (Unix seconds): firings due at or before it are done.
    public let acknowledged: Int64?

    /// Leads and lags of at most a week: an occurrence is known only within the calendar
    /// window (`calendar_window_hours`, at most 744 h), so a longer lead could not be kept.
    public static let maxOffsetSeconds: Int64 = 7 * 86_400
    /// REPEAT at most 20, at least a minute apart: a reminder that nags, not a flood.
    public static let maxRepeats = 20
    public static let minimumInterval: Int64 = 60
    /// Alarms kept per event or room (the rest are left out, said once).
    public static let maxPerEvent = 8

    /// Why an alarm cannot be kept, in the words of the user's input.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String

        package init(description: String) { self.description = description }
    }

    /// An alarm as read; `acknowledged` and the repeat are checked here, so every alarm in
    /// the service is within the limits whatever its source.
    public init(anchor: Anchor, seconds: Int64, repeats: Int = 0, interval: Int64 = 0, acknowledged: Int64? = nil) throws(Problem) {
        if anchor != .absolute, abs(seconds) > Self.maxOffsetSeconds {
            throw Problem(description: "a trigger \(Self.text(ofOffset: seconds)) from the \(anchor == .end ? "end" : "start") is more than a week away; at most 7d before or after")
        }
        if anchor == .absolute, !CalendarWindow.instants.contains(seconds) {
            throw Problem(description: "an absolute trigger outside the years a calendar is read for")
        }
        if repeats < 0 || repeats > Self.maxRepeats {
            throw Problem(description: "REPEAT:\(repeats) is not 0 to \(Self.maxRepeats)")
        }
        if repeats > 0, interval < Self.minimumInterval || interval > Self.maxOffsetSeconds {
            throw Problem(description: "a repeat every \(interval) s; the DURATION between repeats must be 1 minute to 7 days")
        }
        self.anchor = anchor
        self.seconds = seconds
        self.repeats = repeats
        self.interval = repeats > 0 ? interval : 0
        self.acknowledged = acknowledged
    }

    /// `-10m`, `-1h30m`, `-2d`, `0`, `+5m`, `90s` (before the start when negative), as the
    /// config's default alarms and `alarm=` write them.
    public init(offset text: String) throws(Problem) {
        guard let seconds = Self.seconds(ofOffset: text) else {
            throw Problem(description: "'\(SafeName.short(text))' is not an alarm offset; write -10m, -1h, -1d, -1h30m or 0 (minus: before the start)")
        }
        try self.init(anchor: .start, seconds: seconds)
    }

    /// The instants it fires for an occurrence from `start` to `end`, in order: the trigger
    /// and its repeats, less those acknowledged.
    public func firings(start: Int64, end: Int64) -> [Int64] {
        let base: Int64
        switch anchor {
        case .start: base = start &+ seconds
        case .end: base = end &+ seconds
        case .absolute: base = seconds
        }
        return (0...repeats).map { base &+ Int64($0) &* interval }.filter { at in acknowledged.map { at > $0 } ?? true }
    }

    /// The text form (`S-600`, `E0`, `A1767225600`, then `*3/300` for three repeats five
    /// minutes apart, `!1767225000` for ACKNOWLEDGED), one word without spaces.
    public var wire: String {
        let anchorLetter: String
        switch anchor {
        case .start: anchorLetter = "S"
        case .end: anchorLetter = "E"
        case .absolute: anchorLetter = "A"
        }
        var text = anchorLetter + String(seconds)
        if repeats > 0 { text += "*\(repeats)/\(interval)" }
        if let acknowledged { text += "!\(acknowledged)" }
        return text
    }

    /// Reads `wire` back; nil for anything else (the text may come from a hostile file).
    public init?(wire text: String) {
        guard text.utf8.count <= 64, let letter = text.first else { return nil }
        let anchor: Anchor
        switch letter {
        case "S": anchor = .start
        case "E": anchor = .end
        case "A": anchor = .absolute
        default: return nil
        }
        var rest = Substring(text.dropFirst())
        var acknowledged: Int64?
        if let bang = rest.firstIndex(of: "!") {
            guard let value = Int64(rest[rest.index(after: bang)...]) else { return nil }
            acknowledged = value
            rest = rest[..<bang]
        }
        var repeats = 0
        var interval: Int64 = 0
        if let star = rest.firstIndex(of: "*") {
            let parts = rest[rest.index(after: star)...].split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let count = Int(parts[0]), let every = Int64(parts[1]) else { return nil }
            repeats = count
            interval = every
            rest = rest[..<star]
        }
        guard let seconds = Int64(rest),
              let alarm = try? Alarm(anchor: anchor, seconds: seconds, repeats: repeats, interval: interval, acknowledged: acknowledged)
        else { return nil }  // out of the limits: the same check as any alarm read
        self = alarm
    }

    /// Several alarms as one field: wire texts joined by `,`; unreadable ones are dropped.
    public static func list(wire text: String) -> [Alarm] {
        text.split(separator: ",").prefix(maxPerEvent).compactMap { Alarm(wire: String($0)) }
    }

    public static func wire(_ alarms: [Alarm]) -> String { alarms.map(\.wire).joined(separator: ",") }

    /// `-1h30m` → -5400; nil unless it is an optional sign then one or more of a number
    /// (at most 6 digits) with `d`, `h`, `m` or `s`, each unit once and in that order, or `0`.
    static func seconds(ofOffset text: String) -> Int64? {
        guard text.utf8.count <= 32 else { return nil }
        var rest = Substring(text)
        var sign: Int64 = 1
        if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
        if rest == "0" { return 0 }
        let units: [(Character, Int64)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        var total: Int64 = 0
        var next = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let value = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, let place = units[next...].firstIndex(where: { $0.0 == unit }) else { return nil }
            total += value * units[place].1
            next = place + 1
            rest = rest.dropFirst()
        }
        return sign * total
    }

    /// A positive duration such as `30s`, `5m`, `1h30m` or `1d` (what `remind snooze`
    /// takes); nil for anything else.
    public static func seconds(ofDuration text: String) -> Int64? {
        guard let first = text.first, first != "-", first != "+", let seconds = seconds(ofOffset: text), seconds > 0 else { return nil }
        return seconds
    }

    /// -5400 → `-1h30m`, as `seconds(ofOffset:)` reads it.
    public static func text(ofOffset seconds: Int64) -> String {
        if seconds == 0 { return "0" }
        var left = seconds.magnitude
        var text = seconds < 0 ? "-" : "+"
        for (unit, size) in [("d", UInt64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where left >= size {
            text += "\(left / size)\(unit)"
            left %= size
        }
        return text
    }
}
