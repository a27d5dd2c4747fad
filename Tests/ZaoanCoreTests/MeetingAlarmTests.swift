import Foundation
import Testing
@testable import ZaoanCore
import ZaoanProtocol
import ZaoanRecurrence

/// What issue 31 adds around a meeting in the core: `nag` (an alarm fired again every minute
/// until it is snoozed or dismissed), `before_end`'s `ending` moment, and an alarm line's
/// button words.
@Suite struct MeetingAlarmTests {
    static let start = 1_800_000_000

    @Test("nag: after a firing, the minute marks around the reference, never at or past the end")
    func nagMoments() {
        let firing = Self.start - 600
        let end = Self.start + 3600
        #expect(Responder.nagMoments(after: [firing], end: end, reference: firing - 1).isEmpty, "nothing before the first firing")
        #expect(Responder.nagMoments(after: [firing], end: end, reference: firing) == [firing + 60], "at the firing: the next minute")
        #expect(Responder.nagMoments(after: [firing], end: end, reference: firing + 150) == [firing + 120, firing + 180])
        #expect(Responder.nagMoments(after: [firing, firing + 300], end: end, reference: firing + 330) == [firing + 360],
                "a later firing (a repeat, a snooze's end) restarts the minutes from it")
        #expect(Responder.nagMoments(after: [firing], end: firing + 90, reference: firing + 70) == [firing + 60], "not at or after the end")
        #expect(Responder.nagMoments(after: [], end: end, reference: firing).isEmpty)
    }

    private func resolved(_ json: String) -> (settings: Settings, problems: [ConfigError]) {
        let reading = ConfigFile.read(Array(json.utf8))
        let resolved = Settings.resolving(reading.file, positions: reading.positions, systemZone: Zone.named("UTC")!)
        return (resolved.settings, reading.problems + resolved.problems)
    }

    private func responder(_ json: String, room: LiveRoom) throws -> Responder {
        let (settings, problems) = resolved(json)
        #expect(problems.isEmpty, "\(problems)")
        let responder = Responder(settings: settings)
        responder.commit(LiveSchedule(rooms: [room]))
        return responder
    }

    private func room() throws -> LiveRoom {
        var room = LiveRoom(id: "tea", title: "Tea", start: Instant(secondsSince1970: Double(Self.start)), end: Instant(secondsSince1970: Double(Self.start + 600)))
        room.alarms = [try Alarm(offset: "-5m")]
        return room
    }

    @Test("with nag, the alarm comes again each minute until the event ends; without, once")
    func nagFirings() throws {
        // Second by second, as the service's timer fires.
        func alarms(_ responder: Responder) -> [Int] {
            (Self.start - 400...Self.start + 700).flatMap { second in
                responder.transitions(after: second - 1, through: second).filter { $0.phase == .alarm }.map(\.at)
            }
        }
        let nagging = try responder(#"{"nag": true}"#, room: room())
        #expect(alarms(nagging) == Array(stride(from: Self.start - 300, to: Self.start + 600, by: 60)), "\(alarms(nagging))")
        #expect(nagging.nextTransition(after: Self.start - 300) == Self.start - 240)
        #expect(alarms(try responder("{}", room: room())) == [Self.start - 300])
    }

    @Test("before_end: an ending moment that many seconds before the end, after live; none when it would come before the start")
    func ending() throws {
        let responder = try responder(#"{"before_end": "2m"}"#, room: LiveRoom(id: "tea", title: "Tea", start: Instant(secondsSince1970: Double(Self.start)),
                                                                               end: Instant(secondsSince1970: Double(Self.start + 600))))
        let moments = responder.transitions(after: Self.start - 1000, through: Self.start + 700).map { "\($0.phase.rawValue)@\($0.at - Self.start)" }
        #expect(moments == ["soon@-600", "live@0", "ending@480", "ended@600"], "\(moments)")
        let line = responder.eventLine(try #require(responder.transitions(after: Self.start + 479, through: Self.start + 480).first))
        #expect(line.contains(#""phase":"ending""#) && line.contains(#""text":"ending — ends at 08:10:00""#), "\(line)")
        let short = try self.responder(#"{"before_end": 600}"#, room: LiveRoom(id: "t", title: "T", start: Instant(secondsSince1970: Double(Self.start)),
                                                                              end: Instant(secondsSince1970: Double(Self.start + 600))))
        #expect(!short.transitions(after: Self.start - 1000, through: Self.start + 700).contains { $0.phase == .ending })
        for bad in [#"{"before_end": "soon"}"#, #"{"before_end": -5}"#, #"{"before_end": "2d"}"#] {
            let (_, problems) = resolved(bad)
            #expect(problems.contains { $0.key == "before_end" }, "\(bad): \(problems)")
        }
    }

    @Test("an alarm line carries its buttons' words in the language, Join only with a meeting link", arguments: Language.allCases)
    func actionWords(language: Language) throws {
        let responder = try responder(#"{"language": "\#(language.rawValue)"}"#, room: room())
        let transition = try #require(responder.transitions(after: Self.start - 301, through: Self.start - 300).first { $0.phase == .alarm })
        let line = try #require(try JSONSerialization.jsonObject(with: Data(responder.eventLine(transition).utf8)) as? [String: String])
        #expect(line["action_snooze"] == AlarmAction.snooze.label(language) && line["action_dismiss"] == AlarmAction.dismiss.label(language), "\(line)")
        #expect(line["action_join"] == nil, "no link, no Join: \(line)")
        let words = AlarmAction.allCases.map { $0.label(language) }
        #expect(Set(words).count == 3 && words.allSatisfy { !$0.isEmpty }, "\(words)")
        #expect(AlarmAction.snooze.label(language).contains("5"), "the button says how long")
        let soon = try #require(responder.transitions(after: Self.start - 601, through: Self.start - 600).first)
        #expect(!responder.eventLine(soon).contains("action_"), "only alarms have buttons")
    }
}
