import Foundation
import Testing
@testable import ZaoanCore

/// A line sent again is answered from its parsed box (`ParsedLines` hands out the same box,
/// `Responder.answer(_: ParsedRequest, ...)` knows it by identity). That answer must be the
/// one the request itself gets from a responder that has cached nothing, whatever happened
/// in between: time moving on, other lines, watches rendered without a box, new settings,
/// changed rooms.
@Suite struct ParsedAnswerTests {
    private static func parsed(_ lines: inout ParsedLines, _ line: String) throws -> ParsedRequest {
        let bytes = Array(line.utf8)
        let found: ParsedRequest? = try bytes.withUnsafeBytes { raw throws(ProtocolError) in try lines.parsed(for: raw) }
        return try #require(found, "\(line) parses to a request")
    }

    /// A responder with nothing cached, given the same settings and rooms (each added at
    /// the instant it was added to the one checked).
    private static func fresh(_ settings: Settings, rooms: [(line: String, at: Instant)]) throws -> Responder {
        let responder = Responder(settings: settings)
        for room in rooms { responder.commit(try responder.proposedChange(try #require(try RequestParser.parse(room.line)), now: room.at)) }
        return responder
    }

    @Test("the same line gives the same box while it is kept, another line another box")
    func sameLineSameBox() throws {
        var lines = ParsedLines()
        let first = try Self.parsed(&lines, "greeting")
        #expect(try Self.parsed(&lines, "greeting") === first)
        #expect(try Self.parsed(&lines, "time HH:mm:ss") !== first)
        #expect(first.kind == .greeting)
    }

    @Test("answers through the box agree with a fresh responder's across time, other lines, watches, settings and rooms")
    func boxAnswersAgree() throws {
        var lines = ParsedLines()
        let texts = ["greeting", "time HH:mm:ss", "countdown", "status", "ping", "--format=json countdown"]
        let boxes = try texts.map { try Self.parsed(&lines, $0) }
        var settings = try makeSettings(language: "zh", city: "北京")
        var rooms: [(line: String, at: Instant)] = []
        let responder = Responder(settings: settings)
        let start = try instant("2026-06-15T11:59:58Z")
        var checked = 0
        // The box's answer now, against a responder that has cached nothing.
        func check(_ box: ParsedRequest, _ now: Instant, _ step: String) throws {
            let oracle = try Self.fresh(settings, rooms: rooms)
            let got = responder.answer(box, now: now, counters: ServiceFigures(startedAt: start))
            let expected = oracle.answer(box.request, now: now, counters: ServiceFigures(startedAt: start))
            #expect(got == expected, "\(step): \(box.request.commandWord) gave \(got.text.debugDescription), not \(expected.text.debugDescription)")
            checked += 1
        }
        // One line again and again as time goes on (a bar's or a benchmark's): 11:59:58 to
        // 12:00:02.2, seconds and a minute turn; then every line in turn.
        for box in boxes {
            for tenth in stride(from: 0, to: 45, by: 3) { try check(box, start.adding(seconds: Double(tenth) / 10), "at +\(tenth)/10 s") }
        }
        let later = start.adding(seconds: 5)
        for box in boxes + boxes { try check(box, later, "in turn") }
        for box in boxes {
            try check(box, later, "before a watch")
            // A watch renders the same request without a box, and becomes the last rendered.
            _ = responder.answer(.watch(box.request), now: later, counters: ServiceFigures(startedAt: start))
            try check(box, later, "after a watch's rendering")
        }
        let countdown = boxes[2]
        try check(countdown, later, "before a room was added")
        rooms.append((line: "live add r1 +10m Launch", at: later))
        responder.commit(try responder.proposedChange(try #require(try RequestParser.parse(rooms[0].line)), now: later))
        try check(countdown, later, "after a room was added")
        let greeting = boxes[0]
        try check(greeting, later, "before new settings")
        settings = try makeSettings(language: "en", city: "Tokyo")
        responder.apply(settings)
        try check(greeting, later, "after new settings")
        for box in boxes { try check(box, later.adding(seconds: 3600), "an hour on") }
        #expect(checked == boxes.count * (15 + 2 + 2 + 1) + 4)
    }
}
