import ZaoanTime

/// A recurrence rule (RFC 5545 §3.3.10) as its parts, read by zaoan's own reader: what the
/// engine (`RuleIterator`) expands. Reading keeps what is valid: a part the reader does not
/// know, or a value out of its range, is left out and named in `RuleParts.Reading.problems`
/// (once), and the rest of the rule stands, as the peers (python-dateutil,
/// recurring_ical_events, Thunderbird) keep such rules; only a rule without a FREQ is
/// refused.
public struct RuleParts: Hashable, Sendable {
    /// Shortest period first, so that `frequency < .daily` means "within a day".
    public enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public var name: String {
            switch self {
            case .secondly: "SECONDLY"
            case .minutely: "MINUTELY"
            case .hourly: "HOURLY"
            case .daily: "DAILY"
            case .weekly: "WEEKLY"
            case .monthly: "MONTHLY"
            case .yearly: "YEARLY"
            }
        }

        public init?(name: String) {
            guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = found
        }

        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// UNTIL as written.
    public enum Until: Hashable, Sendable {
        /// A DATE: the series ends with that local day.
        case day(CivilDay)
        /// A UTC time (`...Z`), as RFC 5545 asks when DTSTART has a zone.
        case utc(LocalDateTime)
        /// A floating time: read in the series' own zone.
        case wall(LocalDateTime)
    }

    /// A BYDAY entry: a weekday (0 Sunday ... 6 Saturday, as `CivilCalendar.weekday`) and,
    /// in MONTHLY and YEARLY rules, which one of the month or year (1 the first, -1 the
    /// last; 0 every one).
    public struct Weekday: Hashable, Sendable, Comparable {
        public var ordinal: Int
        public var day: Int

        public init(ordinal: Int = 0, day: Int) {
            self.ordinal = ordinal
            self.day = day
        }

        public static func < (a: Weekday, b: Weekday) -> Bool { (a.ordinal, a.day) < (b.ordinal, b.day) }
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: Until?
    /// WKST: the first day of the week (0 Sunday ... 6 Saturday); Monday unless given.
    public var weekStart = 1
    public var seconds: [Int] = []
    public var minutes: [Int] = []
    public var hours: [Int] = []
    public var weekdays: [Weekday] = []
    public var monthDays: [Int] = []
    public var yearDays: [Int] = []
    public var weekNumbers: [Int] = []
    public var months: [Int] = []
    public var setPositions: [Int] = []
    /// RSCALE (RFC 7529): the calendar the rule counts in; nil when not written (Gregorian).
    public var scale: Scale?
    /// SKIP (RFC 7529): what becomes of an instance on a day or leap month that does not exist.
    public var skip = Skip.omit
    /// BYMONTH's leap months (`5L`: the leap month after month 5), in the Chinese calendar.
    public var leapMonths: [Int] = []

    /// The calendars zaoan repeats by.
    public enum Scale: String, Hashable, Sendable, CaseIterable {
        case gregorian = "GREGORIAN"
        /// The Chinese calendar, as ZaoanAlmanac computes it (`ChineseCalendar`).
        case chinese = "CHINESE"
    }

    /// RFC 7529 §4.1: an instance on a day that does not exist (the 30th of a 29-day month,
    /// February 29 in a common year, a leap month the year has not) is left out (OMIT), moved
    /// to the day or month before (BACKWARD), or to the first day of the next (FORWARD).
    public enum Skip: String, Hashable, Sendable, CaseIterable {
        case omit = "OMIT", backward = "BACKWARD", forward = "FORWARD"
    }

    /// Whether the rule counts in the Chinese calendar's years and months.
    public var isChinese: Bool { scale == .chinese }

    public init(frequency: Frequency) { self.frequency = frequency }

    /// The largest INTERVAL read: far beyond any use (a period of 1,000,000 years still
    /// fits), small enough that period arithmetic in 64 bits cannot overflow.
    public static let maxInterval = 1_000_000_000
    /// The largest COUNT read.
    public static let maxCount = 1_000_000_000

    /// The day names of BYDAY and WKST, Sunday first.
    static let dayNames = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// What reading a rule gave: the parts (nil if the rule has no usable FREQ) and each
    /// part or value left out, said once.
    public struct Reading: Sendable {
        public var parts: RuleParts?
        public var problems: [String] = []
    }

    /// Reads an RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE`); names are read in any case.
    public static func read(_ text: String) -> Reading {
        var reading = Reading()
        let pieces = text.split(separator: ";", omittingEmptySubsequences: true)
        var named: [(name: String, value: Substring)] = []
        for piece in pieces {
            guard let equals = piece.firstIndex(of: "=") else {
                reading.problems.append("'\(SafeName.short(String(piece)))' is not NAME=VALUE; left out")
                continue
            }
            let name = piece[..<equals].uppercased()
            if named.contains(where: { $0.name == name }) {
                reading.problems.append("\(SafeName.short(name)) is given twice; the first is kept")
                continue
            }
            named.append((name, piece[piece.index(after: equals)...]))
        }
        guard let frequencyValue = named.first(where: { $0.name == "FREQ" })?.value else {
            reading.problems.append("the rule has no FREQ")
            return reading
        }
        var parts: RuleParts
        if frequencyValue.uppercased() == Self.lunarYearly {
            // Written by some Chinese calendar apps; RFC 7529 says it this way.
            parts = RuleParts(frequency: .yearly)
            parts.scale = .chinese
            reading.problems.append("FREQ=LUNAR_YEARLY is no RFC 5545 frequency; read as RSCALE=CHINESE;FREQ=YEARLY")
        } else if let frequency = Frequency(name: frequencyValue.uppercased()) {
            parts = RuleParts(frequency: frequency)
        } else {
            reading.problems.append("FREQ=\(SafeName.short(String(frequencyValue))) is not a frequency; use SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY")
            return reading
        }
        // RSCALE first: it says how BYMONTH's values read.
        if let scaleValue = named.first(where: { $0.name == "RSCALE" })?.value {
            guard let scale = Scale(rawValue: scaleValue.uppercased()) else {
                reading.problems.append("RSCALE=\(SafeName.short(String(scaleValue))): zaoan repeats by the Gregorian and the Chinese calendar (RSCALE=GREGORIAN or CHINESE) only")
                return reading
            }
            if parts.scale == nil || scale == .chinese { parts.scale = scale }
        }
        for (name, value) in named where name != "FREQ" && name != "RSCALE" {
            if let problem = parts.take(name, value) { reading.problems.append(problem) }
        }
        if parts.skip != .omit, parts.scale == nil {
            parts.scale = .gregorian
            reading.problems.append("SKIP=\(parts.skip.rawValue) without RSCALE (RFC 7529 §4.1 asks for both); read as RSCALE=GREGORIAN")
        }
        if parts.isChinese {
            if !parts.weekNumbers.isEmpty {
                parts.weekNumbers = []
                reading.problems.append("BYWEEKNO has no meaning in the Chinese calendar; left out")
            }
            if parts.frequency < .monthly, !(parts.months.isEmpty && parts.leapMonths.isEmpty && parts.monthDays.isEmpty && parts.yearDays.isEmpty) {
                reading.problems.append("FREQ=\(parts.frequency.name) with BYMONTH, BYMONTHDAY or BYYEARDAY of the Chinese calendar: zaoan counts Chinese months and days in FREQ=YEARLY and MONTHLY rules only")
                return reading
            }
        }
        reading.parts = parts
        return reading
    }

    /// The frequency some apps write for a yearly rule of the Chinese calendar.
    static let lunarYearly = "LUNAR_YEARLY"

    /// Sets the part `name`; returns what was wrong with it (the part or its bad values then
    /// left out).
    private mutating func take(_ name: String, _ value: Substring) -> String? {
        switch name {
        case "INTERVAL":
            guard let number = Self.number(value), (1...Self.maxInterval).contains(number) else {
                return "INTERVAL=\(SafeName.short(String(value))) is not a whole number from 1 to \(Self.maxInterval); 1 is used"
            }
            interval = number
        case "COUNT":
            guard let number = Self.number(value), (1...Self.maxCount).contains(number) else {
                return "COUNT=\(SafeName.short(String(value))) is not a whole number from 1; left out"
            }
            count = number
        case "UNTIL":
            guard let read = Self.until(value) else {
                return "UNTIL=\(SafeName.short(String(value))) is neither a date (20270101) nor a time (20270101T000000Z) within \(CalendarLimits.years.lowerBound)–\(CalendarLimits.years.upperBound); left out"
            }
            until = read
        case "WKST":
            guard let day = Self.dayNames.firstIndex(of: value.uppercased()) else {
                return "WKST=\(SafeName.short(String(value))) is not a day (MO TU WE TH FR SA SU); MO is used"
            }
            weekStart = day
        case "BYDAY":
            var problem: String?
            weekdays = Self.list(value, name: name, problem: &problem) { Self.weekday($0) }
            return problem
        case "BYSECOND": return list(name, value, into: \.seconds, 0...60)
        case "BYMINUTE": return list(name, value, into: \.minutes, 0...59)
        case "BYHOUR": return list(name, value, into: \.hours, 0...23)
        case "BYMONTHDAY": return list(name, value, into: \.monthDays, -31...31)
        case "BYYEARDAY": return list(name, value, into: \.yearDays, -366...366)
        case "BYWEEKNO": return list(name, value, into: \.weekNumbers, -53...53)
        case "BYMONTH": return readMonths(value)
        case "SKIP":
            guard let read = Skip(rawValue: value.uppercased()) else {
                return "SKIP=\(SafeName.short(String(value))) is not OMIT, BACKWARD or FORWARD; OMIT is used"
            }
            skip = read
        case "BYSETPOS": return list(name, value, into: \.setPositions, -366...366)
        default:
            return "\(SafeName.short(name)) is not a part of a recurrence rule; left out"
        }
        return nil
    }

    /// BYMONTH: 1–12, and in the Chinese calendar leap months (`5L`).
    private mutating func readMonths(_ value: Substring) -> String? {
        var problem: String?
        let read = Self.list(value, name: "BYMONTH", problem: &problem) { (text: Substring) -> Int? in
            let leap = isChinese && (text.last == "L" || text.last == "l")
            guard let number = Self.number(leap ? text.dropLast() : text), (1...12).contains(number) else { return nil }
            return leap ? -number : number
        }
        months = read.filter { $0 > 0 }
        leapMonths = read.filter { $0 < 0 }.map { -$0 }.sorted()
        return problem
    }

    private mutating func list(_ name: String, _ value: Substring, into keyPath: WritableKeyPath<RuleParts, [Int]>,
                               _ range: ClosedRange<Int>) -> String? {
        var problem: String?
        self[keyPath: keyPath] = Self.list(value, name: name, problem: &problem) { text in
            // 0 is no day, week or position; a leap second (60) is read as 59.
            guard let number = Self.signedNumber(text), range.contains(number), number != 0 || range.lowerBound == 0 else { return nil }
            return name == "BYSECOND" ? min(number, 59) : number
        }
        return problem
    }

    /// The values of a comma-separated list that `read` accepts, sorted and each once.
    private static func list<T: Comparable & Hashable>(_ value: Substring, name: String, problem: inout String?,
                                                       _ read: (Substring) -> T?) -> [T] {
        var values = Set<T>()
        var bad: [Substring] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            if let read = read(item) { values.insert(read) } else { bad.append(item) }
        }
        if let first = bad.first {
            problem = "\(name)=\(SafeName.short(String(first))) is out of range or not a value of \(name)"
                + (bad.count > 1 ? " (and \(bad.count - 1) more)" : "") + (values.isEmpty ? "; \(name) left out" : "; the rest of \(name) is kept")
        }
        return values.sorted()
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func signedNumber(_ text: Substring) -> Int? {
        if text.first == "-" { return number(text.dropFirst()).map { -$0 } }
        if text.first == "+" { return number(text.dropFirst()) }
        return number(text)
    }

    /// `MO`, `1MO`, `-2FR`, `+3TU`.
    private static func weekday(_ text: Substring) -> Weekday? {
        guard text.count >= 2, let day = dayNames.firstIndex(of: text.suffix(2).uppercased()) else { return nil }
        let ordinalText = text.dropLast(2)
        if ordinalText.isEmpty { return Weekday(day: day) }
        guard let ordinal = signedNumber(ordinalText), ordinal != 0, (-53...53).contains(ordinal) else { return nil }
        return Weekday(ordinal: ordinal, day: day)
    }

    /// `20270101` (a date), `20270101T093000` (floating) or `20270101T093000Z` (UTC).
    private static func until(_ text: Substring) -> Until? {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = digits(0..<4), let month = digits(4..<6), let dayOfMonth = digits(6..<8),
              let day = CivilDay.inCalendar(year: year, month: month, day: dayOfMonth) else { return nil }
        if bytes.count == 8 { return .day(day) }
        guard bytes.count == 15 || (bytes.count == 16 && (bytes[15] | 0x20) == UInt8(ascii: "z")), (bytes[8] | 0x20) == UInt8(ascii: "t"),
              let hour = digits(9..<11), let minute = digits(11..<13), let second = digits(13..<15),
              let wall = LocalDateTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second) else { return nil }
        return bytes.count == 16 ? .utc(wall) : .wall(wall)
    }

    /// The rule as an RRULE value, parts in RFC 5545's order (what is saved and shown).
    public var text: String {
        var out: [String] = []
        if let scale { out.append("RSCALE=" + scale.rawValue) }
        out.append("FREQ=\(frequency.name)")
        if let until {
            switch until {
            case .day(let day): out.append("UNTIL=" + day.basicText)
            case .utc(let wall): out.append("UNTIL=" + wall.basicText + "Z")
            case .wall(let wall): out.append("UNTIL=" + wall.basicText)
            }
        }
        if let count { out.append("COUNT=\(count)") }
        if interval != 1 { out.append("INTERVAL=\(interval)") }
        func add(_ name: String, _ values: [Int]) {
            if !values.isEmpty { out.append(name + "=" + values.map(String.init).joined(separator: ",")) }
        }
        add("BYSECOND", seconds)
        add("BYMINUTE", minutes)
        add("BYHOUR", hours)
        if !weekdays.isEmpty {
            out.append("BYDAY=" + weekdays.map { ($0.ordinal == 0 ? "" : String($0.ordinal)) + Self.dayNames[$0.day] }.joined(separator: ","))
        }
        add("BYMONTHDAY", monthDays)
        add("BYYEARDAY", yearDays)
        add("BYWEEKNO", weekNumbers)
        let monthTexts = (months.map { ($0, 0) } + leapMonths.map { ($0, 1) }).sorted { $0 < $1 }.map { "\($0.0)" + ($0.1 == 1 ? "L" : "") }
        if !monthTexts.isEmpty { out.append("BYMONTH=" + monthTexts.joined(separator: ",")) }
        add("BYSETPOS", setPositions)
        if weekStart != 1 { out.append("WKST=" + Self.dayNames[weekStart]) }
        if skip != .omit { out.append("SKIP=" + skip.rawValue) }
        return out.joined(separator: ";")
    }

    /// Whether the rule has no part beyond FREQ, INTERVAL, COUNT, UNTIL and WKST, in the
    /// Gregorian calendar: its instances are then the start and every INTERVAL after it.
    public var isPlain: Bool {
        !isChinese && skip == .omit && leapMonths.isEmpty && seconds.isEmpty && minutes.isEmpty && hours.isEmpty && weekdays.isEmpty && monthDays.isEmpty && yearDays.isEmpty
            && weekNumbers.isEmpty && months.isEmpty && setPositions.isEmpty
    }
}
