import Foundation
import Testing

/// `schedule`'s source column says where an event comes from: `live` for a room, `festival`
/// for a festival, else the event's calendar's name. A calendar that calls itself `live` or
/// `festival` — by its folder's name, its `X-WR-CALNAME` or the config's `name`, in any case,
/// with something invisible after it — must not pass its events off as rooms or festivals,
/// nor answer `calendar=live`: it is shown as `NAME (calendar)`, and `calendar_problems`
/// says so.
@Suite("calendars: zaoan's own source names are reserved")
struct CalendarReservedNameTests {
    private func sources(_ schedule: String) -> [String: String] { CalendarFieldsTests.sources(schedule) }

    @Test("a calendar called live, Festival or LIVE with a Hangul filler is shown with a suffix; calendar=live and calendar=festival list zaoan's own sources")
    func reservedNames() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let live = try base.makeDirectory("live")  // no displayname: the folder's name
        try CalendarFieldsTests.calendar(uid: "gig", title: "Gig", minutes: 30).write(toFile: live + "/gig.ics", atomically: true, encoding: .utf8)
        let festival = base.file("fest.ics")
        try CalendarFieldsTests.calendar(uid: "parade", title: "Parade", minutes: 60, header: ["X-WR-CALNAME:Festival"])
            .write(toFile: festival, atomically: true, encoding: .utf8)
        let hidden = try base.makeDirectory("hidden")
        try CalendarFieldsTests.calendar(uid: "concert", title: "Concert", minutes: 90).write(toFile: hidden + "/c.ics", atomically: true, encoding: .utf8)
        let work = try base.makeDirectory("work")
        try CalendarFieldsTests.calendar(uid: "standup", title: "Standup", minutes: 120).write(toFile: work + "/s.ics", atomically: true, encoding: .utf8)

        let config = #"{"calendars": ["\#(live)", "\#(festival)", {"path": "\#(hidden)", "name": "LIVE\u3164"}, "\#(work)"]}"#
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: config)
        defer { try? service.stop() }
        #expect(try service.ask("live add tea +20m Tea") == "ok\n")
        let schedule = try service.ask("schedule", within: 10) { answer in ["Gig", "Parade", "Concert", "Standup"].allSatisfy(answer.contains) }
        #expect(sources(schedule) == ["Tea": "live", "Gig": "live (calendar)", "Parade": "Festival (calendar)", "Concert": "LIVE (calendar)",
                                      "Standup": "work"],
                "only the room is live, no calendar is live or festival: \(schedule)")

        // A source of zaoan's own lists that source alone (issue 33: it was not-found before).
        #expect(sources(try service.ask("schedule 24 calendar=live")) == ["Tea": "live"], "the rooms alone, no calendar called live")
        #expect(try service.ask("schedule 24 calendar=FESTIVAL") == "\n", "festivals are off: nothing, and no calendar called Festival")
        #expect(try service.ask("schedule 24 calendar=live\u{3164}") == (try service.ask("schedule 24 calendar=live")), "an invisible letter changes nothing")
        #expect(sources(try service.ask("schedule 24 calendar=live (calendar)")) == ["Gig": "live (calendar)", "Concert": "LIVE (calendar)"],
                "the renamed calendars, in any case, and no room")
        #expect(sources(try service.ask("schedule calendar=festival (calendar)")) == ["Parade": "Festival (calendar)"])
        #expect(sources(try service.ask("schedule calendar=work")) == ["Standup": "work"], "the others as before")

        let stats = try service.ask("stats")
        #expect(stats.contains("calendar_problems: 3 ("), "\(stats)")
        let log = service.stderrText
        #expect(log.contains("\(live): its name 'live' reads as 'live', the rooms' source name in schedule; the calendar is shown as 'live (calendar)'"),
                "\(log)")
        #expect(log.contains("\(festival): its name 'Festival' reads as 'festival', the festivals' source name in schedule"), "\(log)")
        #expect(log.contains("\(hidden): its name 'LIVE\u{3164}' reads as 'live'"), "\(log)")
    }
}
