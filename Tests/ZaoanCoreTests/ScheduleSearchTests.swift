import Foundation
import Testing
@testable import ZaoanCore

/// `schedule [HOURS] [calendar=NAME] [search=WORDS]`: the grammar (`ScheduleQuery.read`),
/// its refusals, and which rooms a search keeps (`ScheduleSearch`).
@Suite struct ScheduleSearchTests {
    @Test("schedule's keys in any order, each value up to the next key", arguments: [
        ("schedule search=standup", Request.schedule(hours: 24, calendar: nil, search: ["standup"])),
        ("schedule 48 search=standup notes", .schedule(hours: 48, calendar: nil, search: ["standup", "notes"])),
        ("schedule 24 calendar=Work Team search=standup notes", .schedule(hours: 24, calendar: "Work Team", search: ["standup", "notes"])),
        ("schedule 24 search=standup notes calendar=Work Team", .schedule(hours: 24, calendar: "Work Team", search: ["standup", "notes"])),
        ("schedule SEARCH=周会 Calendar=工作", .schedule(hours: 24, calendar: "工作", search: ["周会"])),
        ("schedule search= standup", .schedule(hours: 24, calendar: nil, search: ["standup"])),
        (#"schedule "search=standup  notes""#, .schedule(hours: 24, calendar: nil, search: ["standup", "notes"])),
        ("schedule search=a=b desc=x", .schedule(hours: 24, calendar: nil, search: ["a=b", "desc=x"])),
        (#"schedule "calendar=Work search=later""#, .schedule(hours: 24, calendar: "Work search=later")),
        ("schedule search=" + Array(repeating: "w", count: 16).joined(separator: " "),
         .schedule(hours: 24, calendar: nil, search: Array(repeating: "w", count: 16))),
        ("schedule search=" + String(repeating: "x", count: 256), .schedule(hours: 24, calendar: nil, search: [String(repeating: "x", count: 256)])),
    ])
    func parsed(line: String, expected: Request) throws {
        #expect(try RequestParser.parse(line) == expected)
    }

    @Test("schedule's refusals say what is wrong and what to write", arguments: [
        ("schedule 24 search=a search=b", "search= is given twice; give it once, e.g. schedule 24 calendar=Work search=standup notes"),
        ("schedule calendar=A search=b CALENDAR=c", "calendar= is given twice; give it once"),
        ("schedule 24 search=", "search= needs words to look for in titles, locations and descriptions, e.g. schedule 24 search=standup"),
        ("schedule search= calendar=Work", "search= needs words"),
        (#"schedule "search=  ""#, "search= needs words"),
        ("schedule search=x calendar=", "calendar= needs a calendar's name"),
        ("schedule 24 desc=x", "schedule has no key 'desc='; it takes calendar=NAME and search=WORDS, e.g. schedule 24 search=standup"),
        ("schedule from=today", "schedule has no key 'from='"),
        ("schedule 24 standup", "schedule takes HOURS and calendar=NAME, e.g. schedule 24 calendar=Work, and search=WORDS, e.g. schedule 24 search=standup; 'standup' is neither"),
        ("schedule standup", "schedule HOURS must be a whole number from 1 to 744"),
        ("schedule search=" + Array(repeating: "w", count: 17).joined(separator: " "), "search= takes at most 16 words, this is 17; search for fewer"),
        ("schedule search=" + String(repeating: "x", count: 257), "search= takes at most 256 bytes, this is 257; search for fewer or shorter words"),
        ("schedule search=" + String(repeating: "周", count: 86), "search= takes at most 256 bytes, this is 258"),
    ])
    func refused(line: String, message: String) {
        do {
            let request = try RequestParser.parse(line)
            Issue.record("parsed as \(request)")
        } catch {
            #expect(error.code == .badArgument && error.message.hasPrefix(message), "\(error.message)")
        }
    }

    /// A room with these fields (a calendar event's location among them).
    private func room(_ title: String, location: String? = nil, description: String? = nil) -> LiveRoom {
        var room = LiveRoom(id: "r", title: title, start: Instant(secondsSince1970: 0), description: description)
        room.location = location
        return room
    }

    @Test("a search keeps what holds every word, in the title, location or description, in any case", arguments: [
        (["standup"], "Daily STANDUP", nil, nil, true),
        (["STANDUP"], "daily standup", nil, nil, true),
        (["stand"], "Standup", nil, nil, true),
        (["周会"], "产品周会", nil, nil, true),
        (["周会"], "产品会议", nil, nil, false),
        (["aquarium"], "Standup", "Room Aquarium", nil, true),
        (["roadmap"], "Standup", nil, "Agenda:\nthe Roadmap", true),
        (["standup", "roadmap"], "Standup", "Room 4", "the roadmap", true),
        (["standup", "roadmap", "lunch"], "Standup", "Room 4", "the roadmap", false),
        (["up", "ro"], "Standup", "Room", nil, true),
        (["strasse"], "Treffen", "Hauptstraße 1", nil, true),
        (["STRASSE"], "Treffen", "Hauptstraße 1", nil, true),
        (["straße"], "Treffen", "HAUPTSTRASSE 1", nil, true),
        (["οδος"], "ΟΔΟΣ", nil, nil, true),
        (["ΟΔΟΣ"], "οδος", nil, nil, true),
        (["ΟΔΌΣ"], "Οδός", nil, nil, true),
        (["cafe"], "Café", nil, nil, false),
        (["e"], "Cafe\u{301}", nil, nil, false),
        (["café"], "CAFE\u{301}", nil, nil, true),
        (["file"], "ﬁle share", nil, nil, true),
        (["Ünïcode"], "ÜNÏCODE day", nil, nil, true),
    ] as [([String], String, String?, String?, Bool)])
    func matches(words: [String], title: String, location: String?, description: String?, found: Bool) throws {
        let search = try #require(ScheduleSearch(words))
        #expect(search.matches(room(title, location: location, description: description)) == found)
    }

    @Test("a word is found within one field, not across two")
    func notAcrossFields() throws {
        let search = try #require(ScheduleSearch(["upro"]))
        #expect(!search.matches(room("Standup", location: "Room")))
        #expect(ScheduleSearch([]) == nil, "no words, no search")
    }
}
