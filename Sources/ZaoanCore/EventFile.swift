import ZaoanRecurrence
import ZaoanTime

/// The text of the iCalendar file (RFC 5545) `event add` writes into a vdir folder: one
/// VCALENDAR holding one VEVENT, as khal, vdirsyncer and CalDAV servers expect a vdir's
/// files to be. Pure: the server writes the bytes (`CalendarWriter`).
///
/// - Times: DTSTAMP in UTC; DTSTART and DTEND as the configured zone's wall clock with its
///   TZID and a VTIMEZONE made from the zone's yearly rule (`YearlyZoneRule`), so every
///   instance of a repeating event keeps its wall clock across DST; or in UTC (`…Z`) when
///   the zone has no such rule (UTC itself, a zone whose rules changed lately, a fixed offset
///   such as `GMT+0800`), which is the same instant, and what a reader without
///   VTIMEZONE support reads right too.
/// - TEXT values (SUMMARY, LOCATION, DESCRIPTION) escaped as §3.3.11 says (`\\`, `\;`,
///   `\,`, `\n`); every line folded at 75 octets (§3.1), never inside a UTF-8 sequence;
///   CRLF line ends.
/// - Marked as zaoan's by its PRODID and its UID (`EventUID`): `event rm` removes nothing else.
public struct EventFile: Equatable, Sendable {
    /// The PRODID `event add` writes, and the prefix `event rm` looks for.
    public static let productID = "-//zaoan//event add//EN"
    public static let productPrefix = "-//zaoan//"

    /// How the times are written.
    public enum Zone: Equatable, Sendable {
        /// `DTSTART:20261201T120000Z`.
        case utc
        /// `DTSTART;TZID=NAME:20261201T200000`, the zone's VTIMEZONE in the file.
        case named(String, ZoneInfo, YearlyZoneRule)
    }

    public var uid: String
    /// DTSTAMP: when it was written (Unix seconds).
    public var stamp: Int64
    public var start: Int64
    public var end: Int64?
    public var zone: Zone
    public var title: String
    public var location: String?
    public var description: String?
    /// The RRULE value, as `RecurrenceRule` writes it.
    public var rule: String?
    /// Alarms counted from the start (`alarm=-10m`): a VALARM each, ACTION:DISPLAY.
    public var alarms: [Alarm]

    public init(uid: String, stamp: Int64, start: Int64, end: Int64? = nil, zone: Zone = .utc, title: String,
                location: String? = nil, description: String? = nil, rule: String? = nil, alarms: [Alarm] = []) {
        self.uid = uid
        self.stamp = stamp
        self.start = start
        self.end = end
        self.zone = zone
        self.title = title
        self.location = location
        self.description = description
        self.rule = rule
        self.alarms = alarms
    }

    /// The zone to write `zoneName`'s times in: its rule from the year before `start` on, if
    /// it has one the file can say (see `Zone`).
    public static func zone(named zoneName: String, info: ZoneInfo, start: Int64) -> Zone {
        guard zoneName != "UTC", zoneName != "Etc/UTC", ZoneName.isValid(zoneName), ZaoanTime.Zone.fixedOffset(named: zoneName) == nil else { return .utc }
        let year = CivilCalendar.civil(daysSince1970: CivilCalendar.floorDivide(Int(start), 86_400)).year
        guard let rule = info.yearlyRule(from: year - 1) else { return .utc }
        return .named(zoneName, info, rule)
    }

    /// The whole file: CRLF lines, folded.
    public var text: String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + Self.productID, "CALSCALE:GREGORIAN"]
        if case .named(let name, _, let rule) = zone { lines += Self.timeZone(name, rule) }
        lines += ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + Self.utcStamp(stamp), "DTSTART" + time(start)]
        if let end { lines.append("DTEND" + time(end)) }
        lines.append("SUMMARY:" + Self.escaped(title))
        if let location, !location.isEmpty { lines.append("LOCATION:" + Self.escaped(location)) }
        if let description, !description.isEmpty { lines.append("DESCRIPTION:" + Self.escaped(description)) }
        if let rule { lines.append("RRULE:" + rule) }
        for alarm in alarms {
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + Self.escaped(title),
                      "TRIGGER:" + Self.duration(alarm.seconds), "END:VALARM"]
        }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map { Self.folded($0) + "\r\n" }.joined()
    }

    /// `;TZID=Europe/Berlin:20261201T200000` or `:20261201T190000Z`, after the property's name.
    private func time(_ instant: Int64) -> String {
        guard case .named(let name, let info, _) = zone else { return ":" + Self.utcStamp(instant) }
        let offset = info.localTime(at: Int(instant)).offset
        return ";TZID=" + name + ":" + Self.wallClock(Int(instant) + offset)
    }

    /// The VTIMEZONE of `rule`: a STANDARD observance alone, or a DAYLIGHT and a STANDARD
    /// repeating yearly (`BYDAY=-1SU`: the last Sunday).
    static func timeZone(_ name: String, _ rule: YearlyZoneRule) -> [String] {
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + name]
        guard let toDaylight = rule.toDaylight, let toStandard = rule.toStandard else {
            let offset = offset(rule.standard.utcOffset)
            return lines + ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + offset, "TZOFFSETTO:" + offset,
                            "TZNAME:" + escaped(rule.standard.abbreviation), "END:STANDARD", "END:VTIMEZONE"]
        }
        let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        for (kind, change) in [("DAYLIGHT", toDaylight), ("STANDARD", toStandard)] {
            lines += ["BEGIN:" + kind, "DTSTART:" + wallClock(change.firstLocalStart),
                      "RRULE:FREQ=YEARLY;BYMONTH=\(change.month);BYDAY=\(change.week)\(days[change.weekday])",
                      "TZOFFSETFROM:" + offset(change.offsetFrom), "TZOFFSETTO:" + offset(change.offsetTo),
                      "TZNAME:" + escaped(change.abbreviation), "END:" + kind]
        }
        return lines + ["END:VTIMEZONE"]
    }

    /// A UTC-OFFSET (§3.3.14): `+0100`, `-0330`, `+053328` (seconds only when there are some).
    static func offset(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        var text = (seconds < 0 ? "-" : "+") + padded(magnitude / 3600, 2) + padded(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += padded(magnitude % 60, 2) }
        return text
    }

    /// `20261201T190000Z`.
    static func utcStamp(_ instant: Int64) -> String { wallClock(Int(instant)) + "Z" }

    /// Local seconds since 1970 as `20261201T200000`: `LocalDateTime.basicText`'s form, for
    /// any year a room may have (a `LocalDateTime` holds only the calendar reader's years).
    static func wallClock(_ localSeconds: Int) -> String {
        let days = CivilCalendar.floorDivide(localSeconds, 86_400)
        let date = CivilCalendar.civil(daysSince1970: days)
        let second = localSeconds - days * 86_400
        return padded(date.year, 4) + padded(date.month, 2) + padded(date.day, 2) + "T"
            + padded(second / 3600, 2) + padded(second / 60 % 60, 2) + padded(second % 60, 2)
    }

    /// A DURATION (§3.3.6) of whole seconds: `-PT10M`, `PT0S`, `-P1DT2H`, `PT90S` → `PT1M30S`.
    static func duration(_ seconds: Int64) -> String {
        var rest = abs(seconds)
        let days = rest / 86_400
        rest %= 86_400
        var text = (seconds < 0 ? "-" : "") + "P" + (days > 0 ? "\(days)D" : "")
        guard rest > 0 || days == 0 else { return text }
        text += "T"
        if rest / 3600 > 0 { text += "\(rest / 3600)H" }
        if rest / 60 % 60 > 0 { text += "\(rest / 60 % 60)M" }
        if rest % 60 > 0 || rest == 0 { text += "\(rest % 60)S" }
        return text
    }

    /// A TEXT value (§3.3.11): backslash, semicolon and comma escaped, a line break as `\n`.
    public static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": break  // a CRLF counts as one break, the LF
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The longest line in octets, CRLF left out (§3.1: "SHOULD NOT be longer than 75 octets").
    public static let maxLineOctets = 75

    /// `line` folded (§3.1): at most 75 octets a line, each continuation after CRLF and one
    /// space (which counts in its 75), cut between UTF-8 sequences, never inside one.
    public static func folded(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > maxLineOctets else { return line }
        var out: [UInt8] = []
        var index = 0
        var budget = maxLineOctets
        while index < bytes.count {
            var cut = min(bytes.count, index + budget)
            // Back up to the start of a UTF-8 sequence (a byte that is not 10xxxxxx).
            while cut < bytes.count, cut > index, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            if index > 0 { out += [0x0D, 0x0A, 0x20] }
            out += bytes[index..<cut]
            index = cut
            budget = maxLineOctets - 1
        }
        return String(decoding: out, as: UTF8.self)
    }

}
