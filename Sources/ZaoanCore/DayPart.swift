/// The part of the day, for bars to style the greeting (waybar class, alt): the part of the
/// greeting-table row in force. The built-in tables name theirs (English has no noon row:
/// "Good afternoon" from 12:00 is `afternoon`); a row of a custom table takes the part its
/// start falls in: [05,11) morning, [11,14) noon, [14,18) afternoon, [18,23) evening,
/// [23,05) night.
public enum DayPart: String, Sendable, CaseIterable {
    case morning, noon, afternoon, evening, night

    public init(hour: Int) {
        switch hour {
        case 5..<11: self = .morning
        case 11..<14: self = .noon
        case 14..<18: self = .afternoon
        case 18..<23: self = .evening
        default: self = .night
        }
    }
}
