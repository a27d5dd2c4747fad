import Testing
import ZaoanCore
import ZaoanRecurrence

/// `Alarm`: the offsets users write, the one text form it travels in, and when it fires.
@Suite("Alarms")
struct AlarmTests {
    @Test("offsets as users write them: -10m, -1h30m, -1d, 0, +5m; anything else is refused with what to write")
    func offsets() throws {
        let cases: [(String, Int64)] = [("-10m", -600), ("-1h30m", -5400), ("-1d", -86_400), ("0", 0), ("+5m", 300), ("90s", 90),
                                        ("-7d", -604_800), ("-1d2h3m4s", -93_784)]
        for (text, seconds) in cases {
            let alarm = try Alarm(offset: text)
            #expect(alarm.anchor == .start && alarm.seconds == seconds, "\(text)")
            #expect(try Alarm(offset: Alarm.text(ofOffset: seconds)).seconds == seconds, "\(text) is written back as \(Alarm.text(ofOffset: seconds))")
        }
        for bad in ["", "-", "10", "-10x", "-m", "-1m1h", "-1h1h", "--5m", "-9999999m", "soon", "-P1D", "-7d1s", "-8d", "+1d1h1m1s" + "9999999s"] {
            #expect(throws: Alarm.Problem.self, "\(bad)") { try Alarm(offset: bad) }
        }
        #expect(Alarm.seconds(ofDuration: "5m") == 300 && Alarm.seconds(ofDuration: "1h30m") == 5400)
        for bad in ["-5m", "+5m", "0", "0m", "5", "", "start"] { #expect(Alarm.seconds(ofDuration: bad) == nil, "\(bad)") }
    }

    @Test("firings: relative to the start or the end, absolute, with repeats, less what was acknowledged")
    func firings() throws {
        let start: Int64 = 1_800_000_000, end = start + 3600
        #expect(try Alarm(anchor: .start, seconds: -600).firings(start: start, end: end) == [start - 600])
        #expect(try Alarm(anchor: .end, seconds: -300).firings(start: start, end: end) == [end - 300])
        #expect(try Alarm(anchor: .absolute, seconds: 1_799_000_000).firings(start: start, end: end) == [1_799_000_000])
        #expect(try Alarm(anchor: .start, seconds: -900, repeats: 2, interval: 300).firings(start: start, end: end)
            == [start - 900, start - 600, start - 300])
        #expect(try Alarm(anchor: .start, seconds: -900, repeats: 2, interval: 300, acknowledged: start - 600).firings(start: start, end: end)
            == [start - 300], "firings up to ACKNOWLEDGED are done")
    }

    @Test("limits: a week either way, 20 repeats at least a minute apart; each refusal says which")
    func limits() {
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .start, seconds: -9999 * 604_800) }
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .end, seconds: 604_801) }
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .start, seconds: 0, repeats: 21, interval: 60) }
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .start, seconds: 0, repeats: 1, interval: 59) }
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .start, seconds: 0, repeats: -1, interval: 60) }
        #expect(throws: Alarm.Problem.self) { try Alarm(anchor: .absolute, seconds: Int64.max) }
        #expect((try? Alarm(anchor: .start, seconds: 0, repeats: 20, interval: 60)) != nil)
    }

    @Test("the wire form reads back to the same alarm; anything else, or out of the limits, reads as nothing")
    func wire() throws {
        let alarms = [try Alarm(anchor: .start, seconds: -600), try Alarm(anchor: .end, seconds: 0),
                      try Alarm(anchor: .absolute, seconds: 1_800_000_000, repeats: 3, interval: 300, acknowledged: 1_799_999_000)]
        #expect(alarms.map(\.wire) == ["S-600", "E0", "A1800000000*3/300!1799999000"])
        #expect(Alarm.list(wire: Alarm.wire(alarms)) == alarms)
        for bad in ["", "X5", "S", "S-99999999999", "S0*21/60", "S0*1/5", "S0*1", "S0!x", "A9223372036854775807", "S-600 ", String(repeating: "S0", count: 40)] {
            #expect(Alarm(wire: bad) == nil, "\(bad)")
        }
        #expect(Alarm.list(wire: Array(repeating: "S0", count: 20).joined(separator: ",")).count == Alarm.maxPerEvent)
    }
}
