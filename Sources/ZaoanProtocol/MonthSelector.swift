/// Which month `month` shows: this one, `YYYY-MM`, or `+N`/`-N` months from this one.
///
/// Bounded where the almanac is verified (1901-01 to 2100-12: its lunar dates and solar terms
/// are checked against two independent almanacs over those years) and a step to 1,200 months
/// (a hundred years) either way; the Responder checks that a step lands inside the years.
public enum MonthSelector: Hashable, Sendable {
    case this
    case absolute(year: Int, month: Int)
    case relative(Int)

    public static let years = 1901...2100
    public static let maxStep = 1_200

    /// Reads `2026-12`, `+3` or `-1`.
    public init(word: String) throws(ProtocolError) {
        let shown = RequestParser.shorten(word)
        let bytes = Array(word.utf8)
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let digits = word.dropFirst()
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCIIDigit), let step = Int(digits) else {
                throw ProtocolError(.badArgument, "month \(shown): a step is +N or -N months, e.g. month +1")
            }
            guard step <= Self.maxStep else {
                throw ProtocolError(.badArgument, "month \(shown): a step is at most \(Self.maxStep) months (a hundred years) either way")
            }
            self = step == 0 ? .this : .relative(sign == UInt8(ascii: "-") ? -step : step)
            return
        }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...6).contains(parts[0].count), parts[1].count == 2,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
              let year = Int(parts[0]), let month = Int(parts[1]) else {
            throw ProtocolError(.badArgument, "month \(shown): give YYYY-MM, +N or -N, e.g. month 2027-02 or month +1")
        }
        guard (1...12).contains(month) else {
            throw ProtocolError(.badArgument, "month \(shown): the month is 01 to 12, e.g. month \(year)-12")
        }
        guard Self.years.contains(year) else {
            throw ProtocolError(.badArgument, "month \(shown): the year is \(Self.years.lowerBound) to \(Self.years.upperBound), the years zaoan's Chinese calendar is verified for")
        }
        self = .absolute(year: year, month: month)
    }

    /// The word that reads back as this selector.
    public var word: String {
        switch self {
        case .this: return "0"
        case .absolute(let year, let month): return "\(year)-\(month < 10 ? "0" : "")\(month)"
        case .relative(let step): return step > 0 ? "+\(step)" : "\(step)"
        }
    }

    /// This selector moved by `step` months (a bar's wheel): nil past the bounds.
    public func stepped(by step: Int) -> MonthSelector? {
        switch self {
        case .this, .relative:
            let current: Int
            if case .relative(let steps) = self { current = steps } else { current = 0 }
            let next = current + step
            guard abs(next) <= Self.maxStep else { return nil }
            return next == 0 ? .this : .relative(next)
        case .absolute(let year, let month):
            let index = year * 12 + (month - 1) + step
            guard Self.years.contains(index / 12) else { return nil }
            return .absolute(year: index / 12, month: index % 12 + 1)
        }
    }

    /// The year and month shown when this month is `year`-`month`, or an error when it falls
    /// outside the years.
    public func resolved(thisYear year: Int, month: Int) throws(ProtocolError) -> (year: Int, month: Int) {
        switch self {
        case .this: return (year, month)
        case .absolute(let year, let month): return (year, month)
        case .relative(let step):
            let index = year * 12 + (month - 1) + step
            let (shownYear, shownMonth) = (index / 12, index % 12 + 1)
            guard Self.years.contains(shownYear) else {
                throw ProtocolError(.badArgument, "month \(word) is \(shownYear)-\(shownMonth < 10 ? "0" : "")\(shownMonth), outside \(Self.years.lowerBound)-01 to \(Self.years.upperBound)-12, the years zaoan's Chinese calendar is verified for")
            }
            return (shownYear, shownMonth)
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
