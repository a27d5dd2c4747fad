/// Formats a number of seconds the way a player shows track length: `02:05`, `1:02:05`.
public enum DurationText {
    public static func format(seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        if hours > 0 {
            return "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))"
        }
        return "\(twoDigits(minutes)):\(twoDigits(rest))"
    }

    /// Parses the argument of `duration`: whole, non-negative seconds.
    public static func parse(_ text: String) throws(ProtocolError) -> Int {
        guard let value = Int(text), value >= 0, value <= 1_000_000_000_000 else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(text))' is not a whole number of seconds from 0 to 10^12")
        }
        return value
    }

    /// `1 hour`, `30 minutes`, `1 hour 30 minutes`: a change of the clocks, in words.
    static func spoken(seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds % 3600 / 60
        var parts: [String] = []
        if hours != 0 { parts.append("\(hours) hour\(hours == 1 ? "" : "s")") }
        if minutes != 0 || hours == 0 { parts.append("\(minutes) minute\(minutes == 1 ? "" : "s")") }
        return parts.joined(separator: " ")
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
