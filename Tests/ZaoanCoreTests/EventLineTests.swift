import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// `watch events` lines: the room's own start and end beside the moment, and the moment said
/// in the configured language (`text`), for rooms and calendar events.
@Suite struct EventLineTests {
    /// 早间新闻, 05:42:30–06:42:30 in Shanghai; soon (the default 600 s) at 05:32:30.
    static let start = "2026-06-15T05:42:30+08:00"
    static let end = "2026-06-15T06:42:30+08:00"

    private func lines(language: String, calendar: Bool, start: String = Self.start, end: String = Self.end,
                       description: String? = nil) throws -> [[String: String]] {
        let responder = Responder(settings: try makeSettings(language: language))
        var room = LiveRoom(id: "news", title: "早间新闻", start: try instant(start), end: try instant(end), description: description)
        if calendar {
            room.id = "calendar:news-1"
            room.source = "/home/me/.local/share/calendars/news.ics"
            responder.replaceCalendarEvents([room])
        } else {
            responder.commit(LiveSchedule(rooms: [room]))
        }
        let from = Int(clampingSeconds: try instant(start).secondsSince1970) - 86_400
        return try responder.transitions(after: from, through: from + 3 * 86_400).map { transition in
            let line = responder.eventLine(transition)
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
        }
    }

    @Test("soon, live and ended carry the room's start and end, not only the moment")
    func startAndEnd() throws {
        let events = try lines(language: "en", calendar: false)
        #expect(events.map { $0["phase"] } == ["soon", "live", "ended"])
        #expect(events.map { $0["at"] } == ["2026-06-15T05:32:30+08:00", Self.start, Self.end])
        #expect(events.allSatisfy { $0["start"] == Self.start && $0["end"] == Self.end }, "\(events)")
        #expect(events.allSatisfy { $0["description"] == nil }, "no description key without one: \(events)")
    }

    @Test("text: the moment in the configured language; a calendar event starts, a room goes on air", arguments: [
        ("en", false, ["soon — starts at 05:42:30", "live now — since 05:42:30", "ended at 06:42:30"]),
        // A calendar event is no broadcast (issue 33; was "live now").
        ("en", true, ["soon — starts at 05:42:30", "in progress — since 05:42:30", "ended at 06:42:30"]),
        ("zh", false, ["将于 05:42:30 开播", "正在直播 · 05:42:30 开播", "已于 06:42:30 结束"]),
        ("zh", true, ["将于 05:42:30 开始", "正在进行 · 05:42:30 开始", "已于 06:42:30 结束"]),
    ])
    func text(language: String, calendar: Bool, expected: [String]) throws {
        let events = try lines(language: language, calendar: calendar)
        #expect(events.map { $0["text"] } == expected, "\(events)")
        #expect(events.allSatisfy { ($0["source"] == "live") != calendar })
    }

    @Test("a start on another day than the moment is said with its date", arguments: [
        ("zh", "将于 6月15日 00:05:00 开播"),
        ("en", "soon — starts at Jun 15, 00:05:00"),
    ])
    func otherDay(language: String, expected: String) throws {
        let events = try lines(language: language, calendar: false, start: "2026-06-15T00:05:00+08:00", end: "2026-06-15T01:00:00+08:00")
        #expect(events.first?["at"] == "2026-06-14T23:55:00+08:00")
        #expect(events.first?["text"] == expected, "\(events)")
        #expect(events.dropFirst().first?["text"]?.contains("6月15日") == false, "live is said on its own day: \(events)")
    }

    @Test("the description goes along, its lines kept, made safe")
    func description() throws {
        let events = try lines(language: "en", calendar: true, description: "Milk & <i>sugar</i>\nRoom 3\u{7}")
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0["description"] == "Milk & <i>sugar</i>\nRoom 3\u{2407}" }, "BEL as ␇, the line break kept: \(events)")
    }
}
