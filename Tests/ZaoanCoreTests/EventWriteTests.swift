import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime
import ZaoanRecurrence

/// `event add`'s file (`EventFile`) and words, `event rm`'s UIDs, and what the Responder
/// makes of them (`calendarWrite`): pure, no disk.
@Suite struct EventWriteTests {
    private func parse(_ line: String) throws(ProtocolError) -> Request? {
        let bytes = Array(line.utf8)
        let result: Result<Request?, ProtocolError> = bytes.withUnsafeBytes { raw in
            do throws(ProtocolError) { return .success(try RequestParser.parse(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func refusal(_ line: String) -> String? {
        do throws(ProtocolError) { _ = try parse(line); return nil } catch { return error.description }
    }

    // MARK: Folding and escaping

    @Test("a line of 75 octets stays whole; 76 folds; continuations hold at most 74 octets after their space")
    func foldingAtTheBoundary() {
        #expect(EventFile.folded(String(repeating: "a", count: 75)) == String(repeating: "a", count: 75))
        #expect(EventFile.folded(String(repeating: "a", count: 76)) == String(repeating: "a", count: 75) + "\r\n a")
        let long = String(repeating: "b", count: 75 + 74 + 1)
        #expect(EventFile.folded(long) == String(repeating: "b", count: 75) + "\r\n " + String(repeating: "b", count: 74) + "\r\n b")
    }

    @Test("folding never cuts a UTF-8 sequence, and every physical line is at most 75 octets", arguments: [1, 2, 3, 4, 74, 75])
    func foldingMultibyte(prefix: Int) {
        let line = "SUMMARY:" + String(repeating: "x", count: prefix) + String(repeating: "早安😀é", count: 40)
        let folded = EventFile.folded(line)
        for physical in folded.components(separatedBy: "\r\n") {
            #expect(physical.utf8.count <= 75, "\(physical.utf8.count) octets")
            #expect(String(validating: physical.utf8, as: UTF8.self) != nil)
        }
        // Unfolding gives the line back.
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
    }

    @Test("TEXT escaping (RFC 5545 §3.3.11)", arguments: [
        ("plain", "plain"), ("a,b", "a\\,b"), ("a;b", "a\\;b"), ("a\\b", "a\\\\b"), ("two\nlines", "two\\nlines"),
        ("crlf\r\nline", "crlf\\nline"), ("\\,;", "\\\\\\,\\;"), ("早安, 北京", "早安\\, 北京"), ("colon: ok", "colon: ok"),
    ])
    func escaping(_ text: String, _ escaped: String) {
        #expect(EventFile.escaped(text) == escaped)
    }

    @Test("durations and offsets", arguments: [(Int64(-600), "-PT10M"), (Int64(0), "PT0S"), (Int64(90), "PT1M30S"), (Int64(-86_400 - 7200), "-P1DT2H"), (Int64(3600), "PT1H"), (Int64(-86_400), "-P1D")] as [(Int64, String)])
    func durations(_ seconds: Int64, _ text: String) {
        #expect(EventFile.duration(seconds) == text)
    }

    @Test func offsets() {
        #expect(EventFile.offset(3600) == "+0100")
        #expect(EventFile.offset(-12_600) == "-0330")
        #expect(EventFile.offset(19_800) == "+0530")
        #expect(EventFile.offset(0) == "+0000")
        #expect(EventFile.offset(-(4 * 3600 + 56 * 60 + 2)) == "-045602")
    }

    // MARK: The file

    /// 2026-12-01 19:00 UTC.
    private let start: Int64 = 1_796_151_600

    @Test("a UTC file: VERSION, PRODID, UID, DTSTAMP, DTSTART/DTEND with Z, CRLF everywhere, no VTIMEZONE")
    func utcFile() {
        let file = EventFile(uid: "0123456789abcdef0123456789abcdef@zaoan", stamp: start - 60, start: start, end: start + 5400,
                             title: "Team, sync", location: "Room 4", description: "line one\nline two")
        let text = file.text
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first == "BEGIN:VCALENDAR")
        #expect(lines.contains("VERSION:2.0"))
        #expect(lines.contains("PRODID:-//zaoan//event add//EN"))
        #expect(lines.contains("UID:0123456789abcdef0123456789abcdef@zaoan"))
        #expect(lines.contains("DTSTAMP:20261201T185900Z"))
        #expect(lines.contains("DTSTART:20261201T190000Z"))
        #expect(lines.contains("DTEND:20261201T203000Z"))
        #expect(lines.contains("SUMMARY:Team\\, sync"))
        #expect(lines.contains("LOCATION:Room 4"))
        #expect(lines.contains("DESCRIPTION:line one\\nline two"))
        #expect(!text.contains("VTIMEZONE"))
        #expect(text.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
    }

    @Test("Europe/Berlin: DTSTART with TZID as the wall clock, a VTIMEZONE whose yearly rule is the zone's")
    func berlinFile() throws {
        let info = try ZoneInfoStore.shared.zoneInfo(named: "Europe/Berlin")
        let zone = EventFile.zone(named: "Europe/Berlin", info: info, start: start)
        guard case .named("Europe/Berlin", _, let rule) = zone else { Issue.record("no VTIMEZONE for Berlin: \(zone)"); return }
        #expect(rule.toDaylight?.month == 3 && rule.toDaylight?.week == -1 && rule.toDaylight?.weekday == 0)
        #expect(rule.toStandard?.month == 10 && rule.toStandard?.week == -1)
        let text = EventFile(uid: "u", stamp: start, start: start, end: start + 3600, zone: zone, title: "T", rule: "FREQ=WEEKLY",
                             alarms: [try Alarm(offset: "-10m")]).text
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20261201T200000"))
        #expect(lines.contains("DTEND;TZID=Europe/Berlin:20261201T210000"))
        #expect(lines.contains("TZID:Europe/Berlin"))
        #expect(lines.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))
        #expect(lines.contains("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"))
        #expect(lines.contains("DTSTART:20250330T020000"), "the spring change of the year before, in standard time")
        #expect(lines.contains("DTSTART:20251026T030000"), "the autumn change, in summer time")
        #expect(lines.contains("TZOFFSETFROM:+0100") && lines.contains("TZOFFSETTO:+0200"))
        #expect(lines.contains("RRULE:FREQ=WEEKLY"))
        #expect(lines.contains("TRIGGER:-PT10M") && lines.contains("ACTION:DISPLAY"))
    }

    @Test("New York (second Sunday of March, first of November), Sydney (southern), Shanghai and Kolkata (no DST), UTC")
    func otherZones() throws {
        let newYork = EventFile.zone(named: "America/New_York", info: try ZoneInfoStore.shared.zoneInfo(named: "America/New_York"), start: start)
        guard case .named(_, _, let us) = newYork else { Issue.record("\(newYork)"); return }
        #expect(us.toDaylight?.month == 3 && us.toDaylight?.week == 2 && us.toStandard?.month == 11 && us.toStandard?.week == 1)
        let sydney = EventFile.zone(named: "Australia/Sydney", info: try ZoneInfoStore.shared.zoneInfo(named: "Australia/Sydney"), start: start)
        guard case .named(_, _, let south) = sydney else { Issue.record("\(sydney)"); return }
        #expect(south.toDaylight?.month == 10 && south.toStandard?.month == 4 && south.toDaylight?.offsetTo == 39_600)
        for (name, offset) in [("Asia/Shanghai", "+0800"), ("Asia/Kolkata", "+0530")] {
            let zone = EventFile.zone(named: name, info: try ZoneInfoStore.shared.zoneInfo(named: name), start: start)
            guard case .named(_, _, let rule) = zone else { Issue.record("\(name): \(zone)"); continue }
            #expect(rule.toDaylight == nil)
            let text = EventFile(uid: "u", stamp: start, start: start, zone: zone, title: "T").text
            #expect(text.contains("TZOFFSETTO:\(offset)\r\n") && text.contains("BEGIN:STANDARD") && !text.contains("DAYLIGHT"))
        }
        #expect(EventFile.zone(named: "UTC", info: .fixed(utcOffset: 0), start: start) == .utc)
        #expect(EventFile.zone(named: "GMT+0800", info: .fixed(utcOffset: 28_800), start: start) == .utc, "Foundation's fixed offsets are no IANA name")
    }

    @Test("a zone whose rule changed within the years checked has no yearly rule: UTC is written")
    func changedRules() throws {
        // The US moved its DST dates in 2007: the footer's rule is not what 2006 had.
        let info = try ZoneInfoStore.shared.zoneInfo(named: "America/New_York")
        #expect(info.yearlyRule(from: 2005) == nil)
        #expect(info.yearlyRule(from: 2008) != nil)
        // Samoa skipped a day and changed its offset in 2011.
        #expect(try ZoneInfoStore.shared.zoneInfo(named: "Pacific/Apia").yearlyRule(from: 2010) == nil)
    }

    // MARK: UIDs

    @Test("made UIDs have the shape event rm takes; hostile ones are refused", arguments: [
        "../../etc/passwd", "/etc/passwd", "a/b", "0123456789abcdef0123456789abcdef@zaoan/..", "0123456789abcdef0123456789abcde@zaoan",
        "0123456789abcdef0123456789abcdef0@zaoan", "0123456789ABCDEF0123456789abcdef@zaoan", "0123456789abcdef0123456789abcdef@zaoan.ics",
        "0123456789abcdef0123456789abcdef@other", "0123456789abcdef0123456789abcdef", "", "0123456789abcdef0123456789abcde\u{0}@zaoan",
        String(repeating: "a", count: 5000), "..", ".",
    ])
    func hostileUIDs(_ uid: String) {
        #expect(!EventUID.isMade(uid))
    }

    @Test func madeUIDs() {
        var generator = SplitMix(seed: 7)
        var seen = Set<String>()
        for _ in 0..<200 {
            let uid = EventUID.make(using: &generator)
            #expect(EventUID.isMade(uid), "\(uid)")
            seen.insert(uid)
        }
        #expect(seen.count == 200)
        #expect(EventUID.isMade("0123456789abcdef0123456789abcdef@zaoan"))
    }

    // MARK: Words

    @Test("event add reads live add's words, a calendar's name first, location= and no viewers=")
    func words() throws {
        let request = try parse("event add \"Work Team\" 2026-12-01 20:00 Team sync end=+1h location=\"Room 4\" desc=notes repeat=weekly alarm=-10m")
        guard case .room(.eventAdd, let draft)? = request else { Issue.record("\(String(describing: request))"); return }
        #expect(draft.id == "Work Team" && draft.start == "2026-12-01 20:00" && draft.title == "Team sync")
        #expect(draft.end == "+1h" && draft.location == "Room 4" && draft.description == "notes" && draft.repeatRule == "weekly" && draft.alarms == ["-10m"])
        #expect(try parse("event rm 0123456789abcdef0123456789abcdef@zaoan") == .text(.eventRemove, "0123456789abcdef0123456789abcdef@zaoan"))
        #expect(try parse("event rm calendar:0123456789abcdef0123456789abcdef@zaoan") == .text(.eventRemove, "0123456789abcdef0123456789abcdef@zaoan"))
    }

    @Test("bad words: refused before anything is written", arguments: [
        ("event add work", "usage: event add"),
        ("event add work +1h", "needs a TITLE"),
        ("event add work +1h T viewers=3", "event add has no option 'viewers='"),
        ("event add work +1h \"bad\u{1}title\"", "the title holds a control or format character (U+0001)"),
        ("event add work +1h \"evil\u{202E}txt\"", "the title holds a control or format character (U+202E)"),
        ("event add work +1h T \"location=a\u{7}b\"", "location holds a control or format character"),
        ("event add \"a\u{1}b\" +1h T", "event add CALENDAR: the name"),
        ("event add work +1h " + String(repeating: "x", count: 1000), "the title is 1000 bytes"),
        ("event rm ../../etc/passwd", "is not a UID event add made"),
        ("event rm", "usage: event rm UID"),
        ("live add x +1h T location=here", "live add has no option 'location='"),
    ])
    func refused(_ line: String, _ expected: String) {
        let error = refusal(line)
        #expect(error?.contains(expected) == true, "\(line): \(error ?? "accepted")")
    }

    // MARK: The Responder

    private func responder(_ calendars: [CalendarEntry], zone: String = "UTC") throws -> Responder {
        var settings = try makeSettings(language: "en", timezone: zone)
        settings.calendars = calendars
        return Responder(settings: settings)
    }

    private let now = Instant(secondsSince1970: 1_796_130_000)  // 2026-12-01 13:00 UTC
    private let uid = "0123456789abcdef0123456789abcdef@zaoan"

    @Test("event add finds the calendar by name (any case; before a reading, the config's name or the folder's)")
    func findsCalendar() throws {
        let responder = try self.responder(["/cal/work", CalendarEntry(path: "/cal/3f2a", name: "Family"), "/cal/holidays.ics"])
        let write = try responder.calendarWrite(try #require(try parse("event add FAMILY 20:00 Dinner")), now: now, uid: uid)
        guard case .add(let folder, let name, let written, let text) = write else { Issue.record("\(write)"); return }
        #expect(folder == "/cal/3f2a" && name == "Family" && written == uid)
        #expect(text.contains("DTSTART:20261201T200000Z\r\n") && text.contains("SUMMARY:Dinner\r\n"))
        // After a reading, the names it gave (a displayname).
        responder.replaceCalendarEvents([], calendars: ["Work Team", "Family", "holidays"])
        guard case .add(let teamFolder, _, _, _) = try responder.calendarWrite(try #require(try parse("event add \"work team\" 20:00 T")), now: now, uid: uid) else {
            Issue.record("no add"); return
        }
        #expect(teamFolder == "/cal/work")
    }

    @Test("event add refusals: an unknown calendar, a .ics file, no calendars, a bad WHEN, a bad rule, an end before the start", arguments: [
        ("event add nowhere 20:00 T", "not-found no calendar 'nowhere'"),
        ("event add holidays 20:00 T", "is the file /cal/holidays.ics, not a folder"),
        ("event add live 20:00 T", "not-found no calendar 'live'"),
        ("event add work tomorrowish T", "is not a time"),
        ("event add work 20:00 T repeat=FREQ=SECONDLY", "repeat=FREQ=SECONDLY"),
        ("event add work 20:00 T repeat=FREQ=WEEKLY;BYDAY=XX", "repeat="),
        ("event add work 20:00 T end=+0m", "is not after the start"),
        ("event add work 20:00 T alarm=-9d", "alarm=-9d"),
    ])
    func responderRefusals(_ line: String, _ expected: String) throws {
        let responder = try self.responder(["/cal/work", "/cal/holidays.ics"])
        let request = try #require(try parse(line))
        do throws(ProtocolError) {
            let write = try responder.calendarWrite(request, now: now, uid: uid)
            Issue.record("\(line) was accepted: \(write)")
        } catch {
            #expect(error.description.contains(expected), "\(line): \(error.description)")
        }
    }

    @Test("event rm looks in every configured folder, never in a .ics file; none configured is not-found")
    func removal() throws {
        let request = try #require(try parse("event rm \(uid)"))
        #expect(try self.responder(["/cal/work", "/cal/h.ics", "/cal/home"]).calendarWrite(request, now: now, uid: "unused")
                    == .remove(uid: uid, folders: ["/cal/work", "/cal/home"]))
        #expect(throws: ProtocolError.self) { try self.responder([]).calendarWrite(request, now: now, uid: "unused") }
    }
}
