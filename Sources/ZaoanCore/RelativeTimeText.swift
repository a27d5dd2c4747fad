/// `ago`'s answer: how far an instant is from now, as `5分钟前` / `3 hours ago` / `in 2 days`
/// (the words of every language: `RelativeTimeWords`).
///
/// One rule both ways, depending on nothing but the two instants (not the process's zone, not
/// the configured one): the distance is counted in whole units of fixed length, rounded
/// down, in the largest unit that fits at least once —
///
/// | distance | unit |
/// |---|---|
/// | under 10 s | the word for now: `刚刚` / `just now` |
/// | under 1 minute | seconds |
/// | under 1 hour | minutes |
/// | under 1 day (86,400 s) | hours |
/// | under 1 week | days |
/// | under 1 month (30.436875 days, a Gregorian year / 12) | weeks |
/// | under 1 year (365.2425 days) | months |
/// | from 1 year on | years |
///
/// So 10 days is `1 week ago` and `in 1 week`, 60 days `1 month` both ways, 364 days
/// `11 months` both ways: the same magnitude reads the same in the past and the future.
public enum RelativeTimeText {
    /// Below this many seconds either way, the answer is the word for now.
    public static let nowThreshold = 10

    public enum Unit: Int, CaseIterable, Sendable {
        case second, minute, hour, day, week, month, year

        /// The unit's length in seconds.
        public var seconds: Int {
            switch self {
            case .second: return 1
            case .minute: return 60
            case .hour: return 3_600
            case .day: return 86_400
            case .week: return 604_800
            case .month: return 2_629_746  // 365.2425 days / 12
            case .year: return 31_556_952  // 365.2425 days
            }
        }
    }

    /// The text for `target` seen from `now`, both in Unix seconds (any Int: the distance
    /// is computed without overflow).
    public static func describe(_ target: Int, from now: Int, language: Language) -> String {
        let (difference, overflow) = target.subtractingReportingOverflow(now)
        let future = overflow ? target > now : difference > 0
        let distance = overflow ? UInt.max : difference.magnitude
        guard distance >= UInt(nowThreshold) else { return RelativeTimeWords.now(language) }
        let unit = Unit.allCases.last { distance >= UInt($0.seconds) } ?? .second
        let count = distance / UInt(unit.seconds)
        return RelativeTimeWords.phrase(count, unit, future: future, language: language)
    }
}
