import Foundation

/// Parses the times users write: an instant with an offset (`2026-12-01T20:00+08:00`, `...Z`),
/// a local date-time in the configured zone (`2026-12-01 20:00`), a time of day (`20:00`),
/// a relative time (`+90m`, `-1h30m`, `2d`) or Unix seconds (`@1764590400`).
public enum TimeExpression {
    /// Which way a bare time of day leans: `20:00` is the next 20:00 for a start time,
    /// the last one for `ago`.
    public enum Lean: Sendable { case future, past }

    /// - Parameter window: where the result must lie (`AcceptedTimes`); outside it is
    ///   `ERR bad-argument` naming the range.
    public static func parse(_ text: String, now: Date, zone: TimeZone, lean: Lean,
                             within window: AcceptedTimes.Window = AcceptedTimes.instant) throws(ProtocolError) -> Date {
        let date = try parseUnchecked(text, now: now, zone: zone, lean: lean)
        guard window.contains(date) else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(text))' is outside the accepted times, \(window.description)")
        }
        return date
    }

    private static func parseUnchecked(_ text: String, now: Date, zone: TimeZone, lean: Lean) throws(ProtocolError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bad = ProtocolError(.badArgument, "'\(RequestParser.shorten(trimmed))' is not a time; use 2026-12-01T20:00+08:00, 2026-12-01 20:00, 20:00, +90m or @UNIX-SECONDS")
        guard let first = trimmed.first else { throw bad }
        if first == "@" {
            guard let seconds = Int(trimmed.dropFirst()) else { throw bad }
            guard AcceptedTimes.instant.contains(seconds) else {
                throw ProtocolError(.badArgument, "'\(RequestParser.shorten(trimmed))' is outside the accepted times, \(AcceptedTimes.instant.description)")
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if first == "+" || first == "-" || (first.isNumber && trimmed.last.map({ "dhms".contains($0) }) == true) {
            guard let offset = try relativeSeconds(trimmed) else { throw bad }
            return Date(timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(offset)).rounded(.down))
        }
        if let (hour, minute, second) = timeOfDay(Substring(trimmed)) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            var day = calendar.dateComponents([.year, .month, .day], from: now)
            day.hour = hour
            day.minute = minute
            day.second = second
            guard var date = calendar.date(from: day) else { throw bad }
            if lean == .future && date <= now {
                date = calendar.date(byAdding: .day, value: 1, to: date) ?? date
            } else if lean == .past && date > now {
                date = calendar.date(byAdding: .day, value: -1, to: date) ?? date
            }
            return date
        }
        guard let date = dateTime(trimmed, zone: zone) else { throw bad }
        return date
    }

    /// `+1h30m`, `-90m`, `45s`, `2d` → seconds; nil when it is not such a text.
    /// - Throws: when it is, but longer than `AcceptedTimes.maxOffsetSeconds`.
    static func relativeSeconds(_ text: String) throws(ProtocolError) -> Int? {
        var sign = 1
        var rest = Substring(text)
        if rest.first == "+" { rest = rest.dropFirst() } else if rest.first == "-" { sign = -1; rest = rest.dropFirst() }
        var total = 0
        var number = ""
        var sawUnit = false
        for character in rest {
            if character.isASCII && character.isNumber {
                number.append(character)
                guard number.count <= 9 else { return nil }
                continue
            }
            guard let value = Int(number) else { return nil }
            let scale: Int
            switch character {
            case "d": scale = 86_400
            case "h": scale = 3_600
            case "m": scale = 60
            case "s": scale = 1
            default: return nil
            }
            // value < 10^9 and scale ≤ 86,400, and total stays ≤ the limit: nothing overflows.
            total += value * scale
            guard total <= AcceptedTimes.maxOffsetSeconds else {
                throw ProtocolError(.badArgument, "'\(RequestParser.shorten(text))' is more than 100 years (36525d) away; relative times reach at most 100 years")
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return sign * total
    }

    /// `HH:MM` or `HH:MM:SS`.
    static func timeOfDay(_ text: Substring) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts[0].count == 1 || parts[0].count == 2, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return (hour, minute, second)
    }

    /// `YYYY-MM-DD[T| ]HH:MM[:SS][Z|±HH:MM|±HHMM|±HH]`; without an offset, local to `zone`.
    static func dateTime(_ text: String, zone: TimeZone) -> Date? {
        let characters = Array(text)
        guard characters.count >= 16, characters[4] == "-", characters[7] == "-",
              characters[10] == "T" || characters[10] == " " || characters[10] == "t" else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let slice = characters[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        var index = 16
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              characters[13] == ":", let hour = number(11..<13), let minute = number(14..<16) else { return nil }
        var second = 0
        if characters.count >= 19, characters[16] == ":" {
            guard let value = number(17..<19) else { return nil }
            second = value
            index = 19
        }
        var resolvedZone = zone
        if index < characters.count {
            let suffix = String(characters[index...])
            guard let offset = offsetSeconds(suffix), let fixed = TimeZone(secondsFromGMT: offset) else { return nil }
            resolvedZone = fixed
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        if year < 1600 {
            // Foundation's Gregorian calendar switches to the Julian one before 1582; dates are
            // proleptic Gregorian here (ISO 8601), counted directly.
            guard day <= daysInMonth(year: year, month: month) else { return nil }
            let local = civilDays(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            let guess = Date(timeIntervalSince1970: TimeInterval(local))
            return Date(timeIntervalSince1970: TimeInterval(local - resolvedZone.secondsFromGMT(for: guess)))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = resolvedZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day
        else { return nil }  // 2026-02-30 rolls into March: refuse it
        return date
    }

    /// Days from 1970-01-01 to a proleptic-Gregorian date (H. Hinnant's days_from_civil).
    static func civilDays(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              text.dropFirst().filter({ $0 == ":" }).count <= 1 else { return nil }
        let hours = Int(digits.prefix(2))!
        let minutes = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
