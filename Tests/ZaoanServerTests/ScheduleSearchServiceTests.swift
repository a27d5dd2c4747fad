import Foundation
import Testing

/// `schedule ... search=WORDS` through the real service: rooms added with `live add` and
/// events of a calendar folder, found by a word of their title (English, Chinese), location
/// or description, in any case, with `calendar=` before or after, and each refusal.
@Suite("schedule search=WORDS through the service")
struct ScheduleSearchServiceTests {
    @Test("search= keeps what holds every word in its title, location or description, in any case; calendar= before or after")
    func search() throws {
        let base = try TemporaryDirectory()
        defer { base.remove() }
        let work = try base.makeDirectory("work")
        try "Work Team\n".write(toFile: work + "/displayname", atomically: true, encoding: .utf8)
        try CalendarFieldsTests.calendar(uid: "standup", title: "Standup", minutes: 30,
                                         fields: ["LOCATION:Room Aquarium", "DESCRIPTION:Agenda: the roadmap"])
            .write(toFile: work + "/standup.ics", atomically: true, encoding: .utf8)
        try CalendarFieldsTests.calendar(uid: "review", title: "产品周会", minutes: 90, fields: ["LOCATION:Hauptstraße 1"])
            .write(toFile: work + "/review.ics", atomically: true, encoding: .utf8)
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"], config: #"{"calendars": ["\#(work)"]}"#)
        defer { try? service.stop() }
        #expect(try service.ask("live add daily +20m Daily STANDUP \"desc=notes from yesterday\"") == "ok\n")
        #expect(try service.ask("live add zhou +40m 技术周会") == "ok\n")
        #expect(try service.ask("live add tea +50m Tea") == "ok\n")

        func titles(_ request: String) throws -> Set<String> {
            Set(CalendarFieldsTests.sources(try service.ask(request)).keys)
        }
        #expect(try titles("schedule") == ["Standup", "产品周会", "Daily STANDUP", "技术周会", "Tea"], "everything without a search")
        #expect(try titles("schedule 24 search=standup") == ["Standup", "Daily STANDUP"], "a title's word, in any case")
        #expect(try titles("schedule search=STANDUP") == ["Standup", "Daily STANDUP"], "the word in capitals")
        #expect(try titles("schedule search=周会") == ["产品周会", "技术周会"], "Chinese, as a part of the title")
        #expect(try titles("schedule search=aquarium") == ["Standup"], "the location")
        #expect(try titles("schedule search=ROADMAP") == ["Standup"], "the description")
        #expect(try titles("schedule search=yesterday") == ["Daily STANDUP"], "a room's desc=")
        #expect(try titles("schedule search=HAUPTSTRASSE") == ["产品周会"], "ß folded to ss")
        #expect(try titles("schedule search=standup roadmap") == ["Standup"], "every word, each in any field")
        #expect(try titles("schedule search=standup lunch").isEmpty, "a word found nowhere: nothing")
        #expect(try titles("schedule 24 calendar=Work Team search=standup") == ["Standup"], "calendar= first: its events alone")
        #expect(try titles("schedule 24 search=standup calendar=Work Team") == ["Standup"], "calendar= after")
        #expect(try titles("schedule 24 search=周会 calendar=work team") == ["产品周会"])
        let watched = try ask(service.socketPath, ["session", "--format=json schedule 24 search=aquarium calendar=Work Team", "quit"])
        #expect(watched.contains(#"Standup"#) && !watched.contains("STANDUP"), "with --format: \(watched)")
    }

    /// Each refusal, asked of one service (one start for all of them).
    static let refusals = [
        ("schedule 24 search=a search=b", "ERR bad-argument search= is given twice; give it once"),
        ("schedule 24 calendar=Work search=a calendar=Home", "ERR bad-argument calendar= is given twice; give it once"),
        ("schedule 24 search=", "ERR bad-argument search= needs words to look for"),
        ("schedule 24 search= calendar=Work", "ERR bad-argument search= needs words to look for"),
        ("schedule 24 desc=x", "ERR bad-argument schedule has no key 'desc='; it takes calendar=NAME and search=WORDS"),
        ("schedule 24 search=" + Array(repeating: "w", count: 17).joined(separator: " "), "ERR bad-argument search= takes at most 16 words"),
        ("schedule 24 search=" + String(repeating: "x", count: 257), "ERR bad-argument search= takes at most 256 bytes"),
    ]

    @Test("search='s and schedule's refusals through the service")
    func refused() throws {
        let service = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? service.stop() }
        for (request, answer) in Self.refusals {
            let got = try service.ask(request)
            #expect(got.hasPrefix(answer), "\(request): \(got)")
        }
    }
}
