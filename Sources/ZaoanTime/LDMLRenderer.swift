/// Renders a read `LDMLPattern` for an instant in a tz zone (`ZoneInfo`, TZif) in one of the
/// eight languages, with CLDR 47's words (LDMLWords+CLDR.swift) and ICU's rules for each
/// field, so that the answer is what ICU's DateFormatter gives with the same CLDR data
/// (LDMLDifferentialTests compares the two). The calendar is the proleptic Gregorian one for
/// every date, as the service sets ICU's. Total: every instant the zone reader takes renders.
package enum LDMLRenderer {
    /// The pattern for `instant` (Unix seconds) plus `nanoseconds` (held to 0..<1e9) in
    /// `zone`. The instant is taken to the nearest millisecond first, as ICU takes a
    /// Foundation `Date` (so 59.9996 s is the next second); `S` then truncates the
    /// milliseconds to its width and pads past three digits with zeros, as ICU does.
    /// - Parameter zoneIdentifier: the zone's tz name (`Asia/Shanghai`), which zone names
    ///   (`z`, `v`, `V`) need; nil for a fixed-offset zone without one, whose names are then
    ///   the localized GMT format, as ICU's for a `GMT+08:00` zone.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               zoneIdentifier: String? = nil, language: LDMLLanguage) -> String {
        var bytes: [UInt8] = []
        render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone, zoneIdentifier: zoneIdentifier,
               language: language, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, appended to `out` as UTF-8. A pattern of numbers and literals (a clock,
    /// `HH:mm:ss`) is written as digits straight into `out`, without looking up the
    /// language's words or the zone's names.
    package static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int = 0, zone: ZoneInfo,
                               zoneIdentifier: String? = nil, language: LDMLLanguage, into out: inout [UInt8]) {
        let time = localFields(instant: instant, nanoseconds: nanoseconds, zone: zone)
        if appendNumbers(pattern, time, to: &out) { return }
        let names = pattern.namesZones
        append(pattern, Context(pattern, time: time, zone: zone, zoneIdentifier: zoneIdentifier, words: LDMLWords.words(for: language),
                                zoneWords: names ? LDMLZoneWords.words(for: language) : .unused, zoneData: names ? .cldr : .unused), to: &out)
    }

    static func render(_ pattern: LDMLPattern, instant: Int, nanoseconds: Int, zone: ZoneInfo, zoneIdentifier: String?,
                       words: LDMLWords, zoneWords: LDMLZoneWords, zoneData: LDMLZoneData) -> String {
        let time = localFields(instant: instant, nanoseconds: nanoseconds, zone: zone)
        var bytes: [UInt8] = []
        append(pattern, Context(pattern, time: time, zone: zone, zoneIdentifier: zoneIdentifier, words: words,
                                zoneWords: zoneWords, zoneData: zoneData), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The pattern, if it holds only literals and numbers: true; else false, `out` as it was.
    private static func appendNumbers(_ pattern: LDMLPattern, _ time: LocalFields, to out: inout [UInt8]) -> Bool {
        let start = out.count
        for piece in pattern.pieces {
            switch piece {
            case .literal(let literal): out += literal.utf8
            case .field(let field, let width):
                guard let number = number(field, width: width, time) else {
                    out.removeSubrange(start...)
                    return false
                }
                appendPadded(number.value, number.width, to: &out)
            }
        }
        return true
    }

    private static func append(_ pattern: LDMLPattern, _ context: Context, to out: inout [UInt8]) {
        for piece in pattern.pieces {
            switch piece {
            case .literal(let literal): out += literal.utf8
            case .field(let field, let width): out += render(field, width: width, context).utf8
            }
        }
    }

    /// A field that is a number and nothing else, with the width it is padded to; nil for
    /// the rest (names, zones, weeks, fractions, day periods).
    static func number(_ field: LDMLPattern.Field, width: Int, _ time: LocalFields) -> (value: Int, width: Int)? {
        switch field {
        case .year, .cyclicYear:  // ICU writes `U` as `y` where a calendar has no cyclic names
            let year = time.year > 0 ? time.year : 1 - time.year
            return width == 2 ? (year % 100, 2) : (year, width)
        case .quarter, .standaloneQuarter: return width <= 2 ? ((time.month - 1) / 3 + 1, width) : nil
        case .month, .standaloneMonth: return width <= 2 ? (time.month, width) : nil
        case .day: return (time.day, width)
        case .dayOfYear: return (time.dayOfYear, width)
        case .hour12: return (time.hour % 12 == 0 ? 12 : time.hour % 12, width)
        case .hour23: return (time.hour, width)
        case .hour11: return (time.hour % 12, width)
        case .hour24: return (time.hour == 0 ? 24 : time.hour, width)
        case .minute: return (time.minute, width)
        case .second: return (time.second, width)
        case .relatedYear: return (time.year, width)  // the proleptic year: 0 is 1 BC
        default: return nil
        }
    }

    /// The wall-clock fields of `instant` plus `nanoseconds` in `zone`, the instant taken to
    /// the nearest millisecond first (shared with LDMLChineseRenderer).
    static func localFields(instant: Int, nanoseconds: Int, zone: ZoneInfo) -> LocalFields {
        var milliseconds = (min(max(nanoseconds, 0), 999_999_999) + 500_000) / 1_000_000
        var instant = instant
        if milliseconds == 1_000, instant < Int.max {
            instant += 1
            milliseconds = 0
        }
        milliseconds = min(milliseconds, 999)
        let offset = WallClock.offset(zone, at: instant)
        let (local, overflow) = instant.addingReportingOverflow(offset)
        return LocalFields(local: overflow ? instant : local, instant: instant, offset: offset, milliseconds: milliseconds)
    }

    /// What a field may need: the wall clock, the language's words, the pattern (`b` and
    /// `B` look at its other fields) and the zone's names.
    struct Context {
        let time: LocalFields
        let words: LDMLWords
        let pattern: LDMLPattern
        let zone: ZoneNaming

        /// The context of one rendering: the zone's names are those at the instant `time`
        /// was taken at (shared with LDMLChineseRenderer, whose non-date fields are these).
        init(_ pattern: LDMLPattern, time: LocalFields, zone: ZoneInfo, zoneIdentifier: String?, words: LDMLWords,
             zoneWords: LDMLZoneWords, zoneData: LDMLZoneData) {
            (self.time, self.words, self.pattern) = (time, words, pattern)
            self.zone = ZoneNaming(zone: zone, identifier: zoneIdentifier, instant: time.instant, offset: time.offset,
                                   words: zoneWords, data: zoneData, gmt: words)
        }
    }

    /// The wall-clock fields of one instant (`instant`, already taken to the millisecond).
    struct LocalFields {
        let year: Int, month: Int, day: Int, dayOfYear: Int, weekday: Int
        let hour: Int, minute: Int, second: Int, milliseconds: Int, offset: Int, instant: Int

        init(local: Int, instant: Int, offset: Int, milliseconds: Int) {
            let days = CivilCalendar.floorDivide(local, 86_400)
            let date = CivilCalendar.civil(daysSince1970: days)
            (year, month, day) = (date.year, date.month, date.day)
            dayOfYear = days - CivilCalendar.saturatingDays(year: date.year, month: 1, day: 1) + 1
            weekday = CivilCalendar.weekday(daysSince1970: days)
            // Not local - days * 86_400: within a day of Int.min that product overflows.
            let seconds = CivilCalendar.floorModulo(local, 86_400)
            (hour, minute, second) = (seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
            self.milliseconds = milliseconds
            self.offset = offset
            self.instant = instant
        }
    }

    static func render(_ field: LDMLPattern.Field, width: Int, _ context: Context) -> String {
        let (time, words) = (context.time, context.words)
        if let number = number(field, width: width, time) { return padded(number.value, number.width) }
        switch field {
        case .era: return name(words.eras, time.year > 0 ? 1 : 0, width: width)
        case .quarter, .standaloneQuarter:
            return name(field == .quarter ? words.quarters : words.standaloneQuarters, (time.month - 1) / 3, width: width)
        case .month, .standaloneMonth:
            return name(field == .month ? words.months : words.standaloneMonths, time.month - 1, width: width)
        case .weekday: return name(words.weekdays, time.weekday, width: max(width, 3))
        case .localWeekday, .standaloneLocalWeekday:
            let local = (time.weekday - words.firstWeekday + 7) % 7 + 1
            if field == .localWeekday, width <= 2 { return padded(local, width) }
            if field == .standaloneLocalWeekday, width <= 2 { return padded(local, 1) }
            return name(field == .localWeekday ? words.weekdays : words.standaloneWeekdays, time.weekday, width: width)
        case .dayPeriod: return name(words.dayPeriods, time.hour < 12 ? 0 : 1, width: width)
        case .year, .cyclicYear, .day, .dayOfYear, .hour12, .hour23, .hour11, .hour24, .minute, .second, .relatedYear:
            return ""  // numbers, written by `number` above
        case .fraction:
            let value = width == 1 ? time.milliseconds / 100 : width == 2 ? time.milliseconds / 10 : time.milliseconds
            return padded(value, min(width, 3)) + String(repeating: "0", count: max(0, width - 3))
        case .zoneRFC:
            switch width {
            case 1...3: return ZoneOffset.iso(time.offset, utcIndicator: false, short: false, extended: false, seconds: true)
            case 4: return ZoneOffset.localizedGMT(time.offset, long: true, words)
            default: return ZoneOffset.iso(time.offset, utcIndicator: true, short: false, extended: true, seconds: true)
            }
        case .zoneISO, .zoneISOWithZ:
            return ZoneOffset.iso(time.offset, utcIndicator: field == .zoneISOWithZ, short: width == 1,
                                  extended: width == 3 || width == 5, seconds: width >= 4)
        case .zoneGMT:
            return ZoneOffset.localizedGMT(time.offset, long: width == 4, words)
        case .zoneSpecific: return context.zone.specific(long: width == 4)
        case .zoneGeneric: return context.zone.generic(long: width == 4)
        case .zoneID: return width == 2 ? context.zone.identifierText : width == 3 ? context.zone.exemplarCity : context.zone.genericLocationOrGMT
        case .weekYear, .weekOfYear, .weekOfMonth: return week(field, width: width, time, words)
        case .noonPeriod, .flexibleDayPeriod: return dayPeriod(field, width: width, context)
        }
    }

    /// Widths 1–3 abbreviated, 4 wide, 5 narrow, 6 short (the weekdays' only).
    static func name(_ names: LDMLWords.Names, _ index: Int, width: Int) -> String {
        let list = switch width {
        case ...3: names.abbreviated
        case 4: names.wide
        case 5: names.narrow
        default: names.short.isEmpty ? names.abbreviated : names.short
        }
        return list.indices.contains(index) ? list[index] : ""
    }

    /// `value` in ASCII digits, zero-padded to `width`; a negative value keeps its sign first.
    static func padded(_ value: Int, _ width: Int) -> String {
        var bytes: [UInt8] = []
        appendPadded(value, width, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, appended to `out`.
    static func appendPadded(_ value: Int, _ width: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        // The largest power of ten not above the value (10^18 at most: no overflow).
        var divisor: UInt = 1
        var digits = 1
        while magnitude / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        if width > digits { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}

/// A zone's offset written as ISO 8601 (`Z`, `x`, `X`) and as the localized GMT format (`O`,
/// `ZZZZ`), by ICU's rules: seconds only where the form takes them and they are not zero,
/// dropped (not rounded) where it does not, and no minus sign on what shows as zero.
enum ZoneOffset {
    static func iso(_ offset: Int, utcIndicator: Bool, short: Bool, extended: Bool, seconds: Bool) -> String {
        let magnitude = offset.magnitude
        if utcIndicator, magnitude < 1 || (!seconds && magnitude < 60) { return "Z" }
        let (hours, minutes, rest) = (magnitude / 3_600, magnitude % 3_600 / 60, seconds ? magnitude % 60 : 0)
        let sign = offset < 0 && (hours != 0 || minutes != 0 || rest != 0) ? "-" : "+"
        var text = sign + LDMLRenderer.padded(Int(hours), 2)
        if !short || minutes != 0 {
            text += (extended ? ":" : "") + LDMLRenderer.padded(Int(minutes), 2)
        }
        if rest != 0 { text += (extended ? ":" : "") + LDMLRenderer.padded(Int(rest), 2) }
        return text
    }

    /// CLDR's gmtFormat around hourFormat `+HH:mm;-HH:mm` (every one of the eight languages'):
    /// long `GMT+05:30`, short `GMT+5:30`, `GMT-8`; seconds when not zero; the bare prefix at 0.
    static func localizedGMT(_ offset: Int, long: Bool, _ words: LDMLWords) -> String {
        guard offset != 0 else { return words.gmtPrefix + words.gmtSuffix }
        let magnitude = offset.magnitude
        let (hours, minutes, rest) = (Int(magnitude / 3_600), Int(magnitude % 3_600 / 60), Int(magnitude % 60))
        var text = (offset < 0 ? words.gmtMinus : "+") + LDMLRenderer.padded(hours, long ? 2 : 1)
        if long || minutes != 0 || rest != 0 { text += ":" + LDMLRenderer.padded(minutes, 2) }
        if rest != 0 { text += ":" + LDMLRenderer.padded(rest, 2) }
        return words.gmtPrefix + text + words.gmtSuffix
    }
}
