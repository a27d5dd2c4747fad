
/// Parses the times users write: an instant with an offset (`2026-12-01T20:00+08:00`, `...Z`),
/// a local date-time in the configured zone (`2026-12-01 20:00`), a time of day (`20:00`),
/// a relative time (`+90m`, `-1h30m`, `2d`) or Unix seconds (`@1764590400`).
public enum TimeExpression {
    /// Which way a bare time of day leans: `20:00` is the next 20:00 for a start time,
    /// the last one for `ago`.
    public enum Lean: Sendable { case future, past }

    /// A parsed time, and the wall-clock time it was read from when that was not simply one
    /// instant (skipped or shown twice by a change of the clocks).
    public struct Resolved: Sendable {
        public var date: Instant
        /// Local seconds as written, when the zone's clocks skipped or repeated them.
        public var ambiguousWallClock: Int?
    }

    /// - Parameter window: where the result must lie (`AcceptedTimes`); outside it is
    ///   `ERR bad-argument` naming the range.
    public static func parse(_ text: String, now: Instant, zone: Zone, lean: Lean,
                             within window: AcceptedTimes.Window = AcceptedTimes.instant) throws(ProtocolError) -> Instant {
        try resolve(text, now: now, zone: zone, lean: lean, within: window).date
    }

    /// `parse`, saying also whether a change of the clocks made the wall-clock time ambiguous.
    public static func resolve(_ text: String, now: Instant, zone: Zone, lean: Lean,
                               within window: AcceptedTimes.Window = AcceptedTimes.instant) throws(ProtocolError) -> Resolved {
        let resolved = try parseUnchecked(text, now: now, zone: zone, lean: lean)
        guard window.contains(resolved.date) else {
            throw ProtocolError(.badArgument, "'\(RequestParser.shorten(text))' is outside the accepted times, \(window.description)")
        }
        return resolved
    }

    private static func parseUnchecked(_ text: String, now: Instant, zone: Zone, lean: Lean) throws(ProtocolError) -> Resolved {
        // Spaces (Unicode's Zs: ' ', no-break and ideographic spaces ...) and tabs either side.
        var view = Substring(text).unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        while let first = view.first, isSpace(first) { view.removeFirst() }
        while let last = view.last, isSpace(last) { view.removeLast() }
        let trimmed = String(view)
        let bad = ProtocolError(.badArgument, "'\(RequestParser.shorten(trimmed))' is not a time; use 2026-12-01T20:00+08:00, 2026-12-01 20:00, 20:00, +90m or @UNIX-SECONDS")
        guard let first = trimmed.first else { throw bad }
        if first == "@" {
            guard let seconds = Int(trimmed.dropFirst()) else { throw bad }
            guard AcceptedTimes.instant.contains(seconds) else {
                throw ProtocolError(.badArgument, "'\(RequestParser.shorten(trimmed))' is outside the accepted times, \(AcceptedTimes.instant.description)")
            }
            return Resolved(date: Instant(secondsSince1970: Double(seconds)))
        }
        if first == "+" || first == "-" || (first.isNumber && trimmed.last.map({ "dhms".contains($0) }) == true) {
            guard let offset = try relativeSeconds(trimmed) else { throw bad }
            return Resolved(date: Instant(secondsSince1970: (now.secondsSince1970 + Double(offset)).rounded(.down)))
        }
        if let (hour, minute, second) = timeOfDay(Substring(trimmed)) {
            return nearest(hour * 3600 + minute * 60 + second, now: now, zone: zone, lean: lean)
        }
        guard let resolved = dateTime(trimmed, zone: zone) else { throw bad }
        return resolved
    }

    /// A time of day (seconds after midnight) as the next such time after `now` (future)
    /// or the most recent one not after it (past), counting both passes through an hour
    /// the clocks repeat, and a skipped time as moved forward by the gap.
    static func nearest(_ secondOfDay: Int, now: Instant, zone: Zone, lean: Lean) -> Resolved {
        let nowSeconds = now.unixSeconds
        let localNow = WallClock.local(nowSeconds, in: zone)
        let today = CivilCalendar.floorDivide(localNow, 86_400)
        var best: (instant: Int, local: Int, resolution: WallClock.Resolution)?
        for day in (today - 1)...(today + 1) {
            let local = day * 86_400 + secondOfDay
            let resolution = WallClock.resolve(local, in: zone)
            for instant in resolution.instants {
                let fits = lean == .future ? instant > nowSeconds : instant <= nowSeconds
                guard fits else { continue }
                if let current = best, lean == .future ? current.instant <= instant : current.instant >= instant { continue }
                best = (instant, local, resolution)
            }
        }
        // Three days hold at least one fitting instant: a day has at most one change of the clocks.
        guard let best else { return Resolved(date: now) }
        let ambiguous: Int?
        if case .unique = best.resolution { ambiguous = nil } else { ambiguous = best.local }
        return Resolved(date: Instant(secondsSince1970: Double(best.instant)), ambiguousWallClock: ambiguous)
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
    static func timeOfDay(_ text: Substring) -> (Int, Int, Int)? { RoomLimits.timeOfDay(text) }

    /// `YYYY-MM-DD[T| ]HH:MM[:SS][Z|±HH:MM|±HHMM|±HH]`, proleptic Gregorian; without an
    /// offset, local to `zone`: the first of two instants in an hour the clocks repeat, and
    /// a time the clocks skip moved forward by the gap.
    static func dateTime(_ text: String, zone: Zone) -> Resolved? {
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
        var fixedOffset: Int?
        if index < characters.count {
            guard let offset = offsetSeconds(String(characters[index...])) else { return nil }
            fixedOffset = offset
        }
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60 else { return nil }  // 2026-02-30 is refused
        let local = WallClock.localSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if let fixedOffset {
            return Resolved(date: Instant(secondsSince1970: Double(local - fixedOffset)))
        }
        let resolution = WallClock.resolve(local, in: zone)
        let ambiguous: Int?
        if case .unique = resolution { ambiguous = nil } else { ambiguous = local }
        return Resolved(date: Instant(secondsSince1970: Double(resolution.first)), ambiguousWallClock: ambiguous)
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
