import CICal
import Testing
import ZaoanTime
@testable import ZaoanCalendar
@testable import ZaoanRecurrence

/// VTIMEZONEs written the way calendar programs write them, read through the real reader
/// (libical's parser, `ZoneComponent`), and the system's zones to hold them against.
enum ZoneText {
    /// One observance's lines: `kind` STANDARD or DAYLIGHT.
    static func observance(_ kind: String, _ start: String, from: String, to: String, name: String? = nil,
                           rule: String? = nil, rdates: [String] = []) -> String {
        var lines = ["BEGIN:\(kind)", "DTSTART:\(start)"]
        if let rule { lines.append("RRULE:\(rule)") }
        lines += rdates.map { "RDATE:\($0)" }
        lines += ["TZOFFSETFROM:\(from)", "TZOFFSETTO:\(to)"]
        if let name { lines.append("TZNAME:\(name)") }
        lines.append("END:\(kind)")
        return lines.joined(separator: "\r\n")
    }

    /// A VCALENDAR holding the VTIMEZONE `tzid` with `observances`, and one event in it.
    static func calendar(_ tzid: String, _ observances: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan tests//zones//EN", "BEGIN:VTIMEZONE", "TZID:\(tzid)"]
            + observances
            + ["END:VTIMEZONE", "BEGIN:VEVENT", "UID:in-zone@example.org", "DTSTART;TZID=\(tzid):20260105T090000",
               "SUMMARY:In the zone", "END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// The calendar's VTIMEZONE as the document reader reads it (nil: it defines no zone).
    static func zone(_ text: String) throws -> CalendarZone? {
        let parsed = try CalendarParser.parse(Array(text.utf8))
        defer { for root in parsed.roots { icalcomponent_free(root) } }
        let root = try #require(parsed.roots.first)
        let component = try #require(icalcomponent_get_first_component(root, ICAL_VTIMEZONE_COMPONENT))
        return ZoneComponent.zone(component)
    }

    /// The observances the reader hands the engine.
    static func observances(_ text: String) throws -> [ZoneObservance] {
        let parsed = try CalendarParser.parse(Array(text.utf8))
        defer { for root in parsed.roots { icalcomponent_free(root) } }
        let root = try #require(parsed.roots.first)
        let component = try #require(icalcomponent_get_first_component(root, ICAL_VTIMEZONE_COMPONENT))
        return ZoneComponent.observances(of: component)
    }

    static func rules(of zone: CalendarZone) throws -> EmbeddedZoneRules {
        guard case .embedded(let rules) = zone.rules else {
            Issue.record("\(zone.name) is not an embedded zone")
            throw ZoneTextFailure()
        }
        return rules
    }

    /// `+0530`, `-0400`, `+124500`.
    static func offset(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        var text = (seconds < 0 ? "-" : "+") + two(magnitude / 3600) + two(magnitude / 60 % 60)
        if magnitude % 60 != 0 { text += two(magnitude % 60) }
        return text
    }

    /// `19700329T020000` (`utc`: with Z).
    static func stamp(_ seconds: Int64, utc: Bool = false) -> String {
        let days = Int(seconds.floorDivided(by: 86_400))
        let date = CivilCalendar.civil(daysSince1970: days)
        let second = Int(seconds - Int64(days) * 86_400)
        return String(date.year) + two(date.month) + two(date.day) + "T" + two(second / 3600) + two(second / 60 % 60) + two(second % 60) + (utc ? "Z" : "")
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

struct ZoneTextFailure: Error {}

/// A system zone (`ZoneInfoStore`, the time engine of the rest of zaoan) as the oracle.
struct SystemZone {
    let name: String
    let info: ZoneInfo

    init(_ name: String) throws {
        self.name = name
        info = try ZoneInfoStore.shared.zoneInfo(named: name)
    }

    func offset(at instant: Int64) -> Int { info.localTimeType(at: Int(instant)).utcOffset }
    func abbreviation(at instant: Int64) -> String { info.localTimeType(at: Int(instant)).abbreviation }

    /// Every instant in [from, to) at which the offset changes: a sample a day, then halving.
    func transitions(from: Int64, to: Int64) -> [Int64] {
        var found: [Int64] = []
        var previous = from
        var day = from + 86_400
        while previous < to {
            let next = min(day, to)
            if offset(at: next) != offset(at: previous) {
                var low = previous, high = next  // offset(low) differs from offset(high)
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if offset(at: middle) == offset(at: previous) { low = middle } else { high = middle }
                }
                found.append(high)
            }
            previous = next
            day += 86_400
        }
        return found
    }

    /// Where `zone` reads another offset than this zone in [from, to): at each change of this
    /// zone, a second before, at and after it, and at noon UTC of every day.
    func differences(from zone: CalendarZone, from: Int64, to: Int64) -> [String] {
        var samples = transitions(from: from, to: to).flatMap { [$0 - 1, $0, $0 + 1] }
        samples += stride(from: from - from % 86_400 + 43_200, to: to, by: 86_400)
        var found: [String] = []
        for instant in samples.sorted() where instant >= from && instant < to {
            let expected = Int64(offset(at: instant))
            let read = zone.offset(at: instant)
            if read != expected {
                found.append("\(ZoneText.stamp(instant, utc: true)): \(read.map(String.init) ?? "nil") instead of \(expected)")
            }
        }
        return found
    }

    /// The zone's changes in [from, to) as tzurl.org writes a full history: one observance per
    /// kind of change (its offsets and name), its first change as DTSTART and the others as
    /// RDATEs, some of them several to a line; or (`oneEach`) one observance per change.
    func historyObservances(from: Int64, to: Int64, oneEach: Bool = false) -> [String] {
        struct Kind: Hashable { let from: Int, to: Int, name: String, isDST: Bool }
        var kinds: [Kind] = []
        var walls: [Kind: [String]] = [:]
        for change in transitions(from: from, to: to) {
            let type = info.localTimeType(at: Int(change))
            let kind = Kind(from: offset(at: change - 1), to: type.utcOffset, name: type.abbreviation, isDST: type.isDST)
            if walls[kind] == nil { kinds.append(kind) }
            walls[kind, default: []].append(ZoneText.stamp(change + Int64(kind.from)))
        }
        return kinds.flatMap { kind -> [String] in
            let label = kind.isDST ? "DAYLIGHT" : "STANDARD"
            let list = walls[kind]!
            if oneEach {
                return list.map { ZoneText.observance(label, $0, from: ZoneText.offset(kind.from), to: ZoneText.offset(kind.to), name: kind.name) }
            }
            // RDATEs one a line, and the last ones three to a line (libical splits those).
            var rdates = Array(list.dropFirst())
            var grouped: [String] = []
            while rdates.count > 3 { grouped.append(rdates.removeFirst()) }
            if !rdates.isEmpty { grouped.append(rdates.joined(separator: ",")) }
            return [ZoneText.observance(label, list[0], from: ZoneText.offset(kind.from), to: ZoneText.offset(kind.to), name: kind.name, rdates: grouped)]
        }
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
