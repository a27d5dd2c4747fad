import Foundation
import Testing
@testable import ZaoanCore

/// Every row of the request table, from its line to its answer: the row's reader reads the
/// words (`ReadArguments`), the answer table finds the row's function, and what that function
/// answers shows it got what was read (the room ID, the pattern, the zone, the ticker's SKIP,
/// the hours and the calendar's name). One line per row, so a new row fails here until it
/// has one. The answers were recorded before the answer table replaced `structured`'s switch
/// over requests (all but the ticker's, recorded when a second room came to tell SKIP 1 from 0).
@Suite struct AnswerTableTests {
    /// A line for every row and its answer; `…` at the end: the answer starts so.
    static let lines: [RequestKind: (line: String, answer: String)] = [
        .greeting: ("greeting @Asia/Tokyo", "Good evening · Tokyo"),
        .cities: ("cities Springfield", "ERR unknown-city this service has no gazetteer of other cities…"),
        .time: ("time HH:mm @Asia/Tokyo", "21:00"),
        .chineseTime: ("time U年MMMd calendar=chinese @Asia/Tokyo", "bing-wu年Mo51"),
        .ago: ("ago 2026-06-15T11:55:00Z", "5 minutes ago"),
        .duration: ("duration 3725", "1:02:05"),
        .ping: ("ping", "pong"),
        .version: ("version", "zaoan…"),
        .help: ("help", "greeting [CITY|@ZONE]   greeting for the time of day, e.g. 早安·北京…"),
        .session: ("session", "ok"),
        .quit: ("quit", "bye"),
        .reload: ("reload", "ok"),
        .stats: ("stats", "uptime_seconds: 0…"),
        .countdown: ("countdown r1", "starts in 01:00:00"),
        .status: ("status @Asia/Tokyo", "Good evening · Tokyo 21:00 Launch · starts in 01:00:00"),
        .ticker: ("ticker 1", "Third · starts in 03:00:00"),
        // The featured room (Launch, r1) left out: the first of the others.
        .tickerOthers: ("ticker others", "Third · starts in 03:00:00"),
        .liveAdd: ("live add r2 +2h Second", "ERR bad-argument live add changes the rooms; the server applies it"),
        .liveRemove: ("live rm r1", "ERR bad-argument live rm changes the rooms; the server applies it"),
        .liveSkip: ("live skip r1 2026-06-16", "ERR bad-argument live skip changes the rooms; the server applies it"),
        .liveList: ("live list", "r1…"),
        .liveShow: ("live show r1", "id: r1…"),
        .remindList: ("remind list", ""),
        .remindSnooze: ("remind snooze 0123456789ab 5m", "ERR bad-argument remind snooze changes the rooms; the server applies it"),
        .remindDismiss: ("remind dismiss 0123456789ab", "ERR bad-argument remind dismiss changes the rooms; the server applies it"),
        .privacy: ("privacy on", "ERR bad-argument privacy changes the rooms; the server applies it"),
        .eventAdd: ("event add Work +1h Standup", "ERR bad-argument event add writes a calendar folder; the server does it (calendarWrite)"),
        .eventRemove: ("event rm 0123456789abcdef0123456789abcdef@zaoan", "ERR bad-argument event rm writes a calendar folder; the server does it (calendarWrite)"),
        .schedule: ("schedule 2 calendar=Work", "ERR not-found no calendar 'Work': the config names no calendars…"),
        .month: ("month 2026-06", "              June 2026\n    Su   Mo   Tu   We   Th   Fr   Sa\n23        1    2    3    4    5    6…"),
        .monthDays: ("month 2026-06 days", "2026-06-01\t04-16\t-\tworkday\t0…"),
        .url: ("url countdown r9", "ERR not-found no live room 'r9'…"),
        .join: ("join countdown r9", "ERR not-found no live room 'r9'…"),
        .watch: ("watch time HH:mm @Asia/Tokyo", "21:00"),
        .watchEvents: ("watch events", "ERR bad-argument watch events is a stream; the connection answers it"),
        .format: ("--format=json countdown r1", "{\"text\":\"starts in 01:00:00\"…"),
        .blocks: ("--format=i3bar blocks time HH:mm @Asia/Tokyo ; countdown r1", "[{\"name\":\"zaoan\",\"instance\":\"0-time\",\"full_text\":\"Tokyo 21:00\",\"urgent\":false,\"markup\":\"none\"},{\"name\":\"zaoan\",\"instance\":\"1-countdown\",\"full_text\":\"starts in 01:00:00\"…"),
    ]

    @Test func everyRowHasALine() {
        let missing = RequestKind.allCases.filter { Self.lines[$0] == nil }
        #expect(missing.isEmpty, "rows without a line in AnswerTableTests.lines: \(missing)")
    }

    @Test(arguments: RequestKind.allCases)
    func theRowsReaderAndAnswerAgree(_ kind: RequestKind) throws {
        let (line, expected) = try #require(Self.lines[kind])
        let request = try #require(try RequestParser.parse(line))
        // `--format=FMT REQUEST` is of the kind of its request, but the option's row is what read it.
        #expect(request.kind == kind || request.withFormat.request.kind == kind, "\(line) reads as a \(request.kind)")
        let now = try instant("2026-06-15T12:00:00Z")
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        for (line, id) in [("live add r1 +1h Launch", "r1"), ("live add r3 +3h Third", "r3")] {
            let add = try #require(try RequestParser.parse(line))
            #expect(add.changedRoomID == id)
            responder.commit(try responder.proposedChange(add, now: now))
        }
        let answer = responder.answer(request, now: now, counters: ServiceFigures(startedAt: now)).text
        if expected.hasSuffix("…") {
            #expect(answer.hasPrefix(expected.dropLast()), "\(line) → \(answer.debugDescription)")
        } else {
            #expect(answer == expected, "\(line) → \(answer.debugDescription)")
        }
    }
}
