/// The POSIX TZ string at the end of a TZif file (RFC 8536 §3.3), which says what the zone
/// does after its last listed transition: `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`, `<+0545>-5:45`, `EST5EDT,M3.2.0,M11.1.0`.
///
/// Parsed strictly (a malformed rule makes the file malformed) and evaluated the way glibc's
/// `__tz_compute` does, since `date` is what zaoan's answers are compared with: each instant
/// is looked up with the start and end of daylight time in its own UTC year.
package struct PosixTimeZoneRule: Equatable, Sendable {
    /// A day of the year on which daylight time starts or ends.
    enum Day: Equatable, Sendable {
        /// `Jn`: day 1...365, February 29 never counted (day 60 is always March 1).
        case julianSkippingLeapDay(Int)
        /// `n`: day 0...365, February 29 counted in leap years.
        case dayOfYear(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
        case weekdayOfMonth(month: Int, week: Int, weekday: Int)
    }

    /// When daylight time starts and ends, and what it is.
    struct Daylight: Equatable, Sendable {
        let type: LocalTimeType
        let start: Day
        /// Seconds after local (standard) midnight of `start`; -167 h ... 167 h.
        let startTime: Int
        let end: Day
        /// Seconds after local (daylight) midnight of `end`; -167 h ... 167 h.
        let endTime: Int
    }

    let standard: LocalTimeType
    /// nil for zones without daylight time (`<+0545>-5:45`, `UTC0`).
    let daylight: Daylight?

    /// The local time type in effect at `unixSeconds` (seconds since 1970 UTC, within
    /// ±`BrokenDownTime.maxUnixSeconds`).
    func localTime(at unixSeconds: Int) -> LocalTimeType {
        guard let daylight else { return standard }
        let year = CivilCalendar.civil(daysSince1970: CivilCalendar.floorDivide(unixSeconds, 86_400)).year
        let (start, end) = changes(inYear: year, daylight: daylight)
        // Southern hemisphere: daylight time spans the new year.
        let isDaylight = start > end ? (unixSeconds < end || unixSeconds >= start) : (unixSeconds >= start && unixSeconds < end)
        return isDaylight ? daylight.type : standard
    }

    /// The instants (UTC seconds) at which daylight time starts and ends in `year`; nil
    /// without daylight time.
    func changes(inYear year: Int) -> (start: Int, end: Int)? {
        daylight.map { changes(inYear: year, daylight: $0) }
    }

    private func changes(inYear year: Int, daylight: Daylight) -> (start: Int, end: Int) {
        let newYear = CivilCalendar.saturatingDays(year: year, month: 1, day: 1)
        let start = (newYear + Self.dayOffset(daylight.start, year: year)) * 86_400 + daylight.startTime - standard.utcOffset
        let end = (newYear + Self.dayOffset(daylight.end, year: year)) * 86_400 + daylight.endTime - daylight.type.utcOffset
        return (start, end)
    }

    /// Days from January 1 of `year` to `day`.
    static func dayOffset(_ day: Day, year: Int) -> Int {
        switch day {
        case .julianSkippingLeapDay(let number):
            return number - 1 + (number >= 60 && CivilCalendar.isLeap(year) ? 1 : 0)
        case .dayOfYear(let number):
            return number
        case .weekdayOfMonth(let month, let week, let weekday):
            let first = CivilCalendar.saturatingDays(year: year, month: month, day: 1)
            var dayOfMonth = weekday - CivilCalendar.weekday(daysSince1970: first)  // from 0
            if dayOfMonth < 0 { dayOfMonth += 7 }
            let length = CivilCalendar.daysInMonth(year: year, month: month)
            for _ in 1..<week where dayOfMonth + 7 < length {
                dayOfMonth += 7
            }
            return first - CivilCalendar.saturatingDays(year: year, month: 1, day: 1) + dayOfMonth
        }
    }
}

extension PosixTimeZoneRule {
    /// Parses a TZ string (ASCII bytes, without the footer's newlines).
    init(parsing text: [UInt8]) throws(ZoneInfoError) {
        var scanner = RuleScanner(bytes: text)
        let standardName = try scanner.name()
        let standardOffset = try scanner.offset(maxHours: 24)
        standard = LocalTimeType(utcOffset: -standardOffset, isDST: false, abbreviation: standardName)
        if scanner.isAtEnd {
            daylight = nil
            return
        }
        let daylightName = try scanner.name()
        var daylightOffset = standard.utcOffset + 3600
        if let next = scanner.peek, next != UInt8(ascii: ",") {
            daylightOffset = -(try scanner.offset(maxHours: 24))
        }
        let type = LocalTimeType(utcOffset: daylightOffset, isDST: true, abbreviation: daylightName)
        if scanner.isAtEnd {
            // No rule: POSIX leaves it to the implementation; glibc uses the US rule.
            daylight = Daylight(type: type, start: .weekdayOfMonth(month: 3, week: 2, weekday: 0), startTime: 7200,
                                end: .weekdayOfMonth(month: 11, week: 1, weekday: 0), endTime: 7200)
            return
        }
        try scanner.expect(",")
        let start = try scanner.day()
        let startTime = try scanner.timeOfDay()
        try scanner.expect(",")
        let end = try scanner.day()
        let endTime = try scanner.timeOfDay()
        guard scanner.isAtEnd else { throw ZoneInfoError("the TZ string '\(scanner.text)' has text after its rule") }
        daylight = Daylight(type: type, start: start, startTime: startTime, end: end, endTime: endTime)
    }
}

/// Reads a TZ string from left to right.
private struct RuleScanner {
    let bytes: [UInt8]
    var position = 0

    var text: String { String(decoding: bytes.prefix(64), as: UTF8.self) }
    var isAtEnd: Bool { position == bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func expect(_ character: Unicode.Scalar) throws(ZoneInfoError) {
        guard peek == UInt8(ascii: character) else {
            throw ZoneInfoError("the TZ string '\(text)' lacks '\(character)' at offset \(position)")
        }
        position += 1
    }

    /// `CET` (3 or more letters) or `<+0545>` (3 or more letters, digits, + and -).
    mutating func name() throws(ZoneInfoError) -> String {
        let quoted = peek == UInt8(ascii: "<")
        if quoted { position += 1 }
        let start = position
        while let byte = peek, Self.isLetter(byte) || (quoted && (Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))) {
            position += 1
        }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        if quoted { try expect(">") }
        guard name.utf8.count >= 3 else { throw ZoneInfoError("the TZ string '\(text)' has a zone name shorter than 3 characters") }
        return name
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (POSIX offsets count west as positive).
    mutating func offset(maxHours: Int) throws(ZoneInfoError) -> Int {
        var sign = 1
        if peek == UInt8(ascii: "+") {
            position += 1
        } else if peek == UInt8(ascii: "-") {
            sign = -1
            position += 1
        }
        let hours = try number(maxDigits: 3)
        var seconds = hours * 3600
        if peek == UInt8(ascii: ":") {
            position += 1
            let minutes = try number(maxDigits: 2)
            guard minutes <= 59 else { throw ZoneInfoError("the TZ string '\(text)' has minutes past 59") }
            seconds += minutes * 60
            if peek == UInt8(ascii: ":") {
                position += 1
                let secs = try number(maxDigits: 2)
                guard secs <= 59 else { throw ZoneInfoError("the TZ string '\(text)' has seconds past 59") }
                seconds += secs
            }
        }
        guard hours <= maxHours else { throw ZoneInfoError("the TZ string '\(text)' has an hour past \(maxHours)") }
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`.
    mutating func day() throws(ZoneInfoError) -> PosixTimeZoneRule.Day {
        if peek == UInt8(ascii: "J") {
            position += 1
            let number = try number(maxDigits: 3)
            guard (1...365).contains(number) else { throw ZoneInfoError("the TZ string '\(text)' has J\(number), not J1...J365") }
            return .julianSkippingLeapDay(number)
        }
        if peek == UInt8(ascii: "M") {
            position += 1
            let month = try number(maxDigits: 2)
            try expect(".")
            let week = try number(maxDigits: 1)
            try expect(".")
            let weekday = try number(maxDigits: 1)
            guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                throw ZoneInfoError("the TZ string '\(text)' has M\(month).\(week).\(weekday), out of range")
            }
            return .weekdayOfMonth(month: month, week: week, weekday: weekday)
        }
        let number = try number(maxDigits: 3)
        guard number <= 365 else { throw ZoneInfoError("the TZ string '\(text)' has day \(number), not 0...365") }
        return .dayOfYear(number)
    }

    /// `/[+-]hh[:mm[:ss]]` (hours up to 167, RFC 8536's extension), or 02:00 when absent.
    mutating func timeOfDay() throws(ZoneInfoError) -> Int {
        guard peek == UInt8(ascii: "/") else { return 7200 }
        position += 1
        return try offset(maxHours: 167)
    }

    private mutating func number(maxDigits: Int) throws(ZoneInfoError) -> Int {
        var value = 0
        var digits = 0
        while let byte = peek, Self.isDigit(byte), digits < maxDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw ZoneInfoError("the TZ string '\(text)' lacks a number at offset \(position)") }
        if let byte = peek, Self.isDigit(byte) { throw ZoneInfoError("the TZ string '\(text)' has a number that is too long") }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
