import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct TimeExpressionTests {
    /// 20:00 in Shanghai, 08:00 in New York.
    static let now = "2026-06-15T12:00:00Z"

    private func parse(_ text: String, zone: String = "Asia/Shanghai", lean: TimeExpression.Lean = .future, now: String = now) throws -> Instant {
        let zone = try timeZone(zone)
        let now = try instant(now)
        let result: Result<Instant, ProtocolError>
        do throws(ProtocolError) {
            result = .success(try TimeExpression.parse(text, now: now, zone: zone, lean: lean))
        } catch {
            result = .failure(error)
        }
        return try result.get()
    }

    @Test(arguments: [
        ("2026-12-01T20:00+08:00", "2026-12-01T12:00:00Z"),
        ("2026-12-01T20:00:30+08:00", "2026-12-01T12:00:30Z"),
        ("2026-12-01T20:00Z", "2026-12-01T20:00:00Z"),
        ("2026-12-01T20:00:00z", "2026-12-01T20:00:00Z"),
        ("2026-12-01t20:00z", "2026-12-01T20:00:00Z"),
        ("2026-12-01T20:00:30-05:00", "2026-12-02T01:00:30Z"),
        ("2026-12-01T20:00+0530", "2026-12-01T14:30:00Z"),
        ("2026-12-01T20:00+08", "2026-12-01T12:00:00Z"),
        ("2026-12-01 20:00+09:00", "2026-12-01T11:00:00Z"),
        ("2028-02-29T00:00Z", "2028-02-29T00:00:00Z"),
    ])
    func instantWithOffset(text: String, expected: String) throws {
        // The offset wins over the configured zone.
        #expect(try parse(text, zone: "America/New_York") == (try instant(expected)))
        #expect(try parse(text, zone: "Asia/Tokyo", lean: .past) == (try instant(expected)))
    }

    @Test(arguments: [
        ("2026-12-01 20:00", "Asia/Shanghai", "2026-12-01T12:00:00Z"),
        ("2026-12-01T20:00", "Asia/Shanghai", "2026-12-01T12:00:00Z"),
        ("2026-12-01 20:00:15", "Asia/Shanghai", "2026-12-01T12:00:15Z"),
        ("2026-12-01 20:00", "America/New_York", "2026-12-02T01:00:00Z"),  // EST
        ("2026-07-01 20:00", "America/New_York", "2026-07-02T00:00:00Z"),  // EDT
        ("2026-03-29 05:00", "Europe/Berlin", "2026-03-29T03:00:00Z"),     // the day CEST begins
        ("2026-03-28 05:00", "Europe/Berlin", "2026-03-28T04:00:00Z"),
    ])
    func localDateTimeIsInTheConfiguredZone(text: String, zone: String, expected: String) throws {
        #expect(try parse(text, zone: zone) == (try instant(expected)))
    }

    @Test(arguments: [
        ("+90m", "2026-06-15T13:30:00Z"),
        ("+1h30m", "2026-06-15T13:30:00Z"),
        ("-5m", "2026-06-15T11:55:00Z"),
        ("-1h30m", "2026-06-15T10:30:00Z"),
        ("2d", "2026-06-17T12:00:00Z"),
        ("45s", "2026-06-15T12:00:45Z"),
        ("+1d2h3m4s", "2026-06-16T14:03:04Z"),
        ("+0m", "2026-06-15T12:00:00Z"),
        ("  +5m  ", "2026-06-15T12:05:00Z"),
        ("@1764590400", "2025-12-01T12:00:00Z"),
        ("@0", "1970-01-01T00:00:00Z"),
        ("@-86400", "1969-12-31T00:00:00Z"),
    ])
    func relativeAndUnixTimes(text: String, expected: String) throws {
        #expect(try parse(text) == (try instant(expected)))
        #expect(try parse(text, zone: "America/New_York", lean: .past) == (try instant(expected)))
    }

    /// A bare time of day is the next one for `.future` and the last one for `.past`; the
    /// current minute itself counts as past.
    @Test(arguments: [
        ("21:00", TimeExpression.Lean.future, "2026-06-15T13:00:00Z"),
        ("21:00", .past, "2026-06-14T13:00:00Z"),
        ("19:00", .future, "2026-06-16T11:00:00Z"),
        ("19:00", .past, "2026-06-15T11:00:00Z"),
        ("20:00", .future, "2026-06-16T12:00:00Z"),
        ("20:00", .past, "2026-06-15T12:00:00Z"),
        ("20:00:01", .future, "2026-06-15T12:00:01Z"),
        ("20:00:01", .past, "2026-06-14T12:00:01Z"),
        ("19:59:59", .past, "2026-06-15T11:59:59Z"),
        ("08:30", .future, "2026-06-16T00:30:00Z"),
        ("8:30", .future, "2026-06-16T00:30:00Z"),
        ("08:30", .past, "2026-06-15T00:30:00Z"),
        ("00:00", .future, "2026-06-15T16:00:00Z"),
        ("00:00", .past, "2026-06-14T16:00:00Z"),
        ("23:59", .future, "2026-06-15T15:59:00Z"),
    ])
    func timeOfDayInShanghai(text: String, lean: TimeExpression.Lean, expected: String) throws {
        #expect(try parse(text, zone: "Asia/Shanghai", lean: lean) == (try instant(expected)))
    }

    @Test(arguments: [
        ("09:00", TimeExpression.Lean.future, "America/New_York", "2026-06-15T12:00:00Z", "2026-06-15T13:00:00Z"),
        ("09:00", .past, "America/New_York", "2026-06-15T12:00:00Z", "2026-06-14T13:00:00Z"),
        ("05:00", .future, "Europe/Berlin", "2026-03-29T00:30:00Z", "2026-03-29T03:00:00Z"),  // after the DST jump
        ("01:00", .past, "Europe/Berlin", "2026-03-29T12:00:00Z", "2026-03-29T00:00:00Z"),    // before it
        ("05:00", .future, "Europe/Berlin", "2026-10-25T00:30:00Z", "2026-10-25T04:00:00Z"),  // DST ends in between
    ])
    func timeOfDayInOtherZones(text: String, lean: TimeExpression.Lean, zone: String, now: String, expected: String) throws {
        #expect(try parse(text, zone: zone, lean: lean, now: now) == (try instant(expected)))
    }

    @Test(arguments: [
        "2026-02-30 10:00", "2026-02-30T10:00Z", "2026-02-29 10:00", "2026-04-31 10:00",
        "2026-13-01 10:00", "2026-00-10 10:00", "2026-12-00 10:00", "2026-12-32 10:00",
        "2026-12-01 24:00", "2026-12-01 23:60", "2026-12-01 23:59:60",
        "2026-12-01", "2026-12-01T20", "2026-12-01X20:00", "2026/12/01 20:00", "2026-12-01 20:00:5",
        "2026-12-01T20:00+19:00", "2026-12-01T20:00+8:00", "2026-12-01T20:00+08:00:00", "2026-12-01T20:00 PST",
        "2026-12-01T20:00+08:60", "2026-12-01T20:00Zulu", "2026-12-01T2O:00Z",
        "25:00", "24:00", "12:60", "12:5", "123:00", "12:00:60", "1:2:3", ":30", "12:", "12:00:", "１２:００",
        "garbage", "", "   ", "now", "yesterday",
        "+", "-", "+5", "+5x", "+m", "+5mm5", "5", "5 m", "+5 m", "m5", "+1.5h", "+٣m",
        "@", "@abc", "@1e9", "@1.5", "@ 5",
    ])
    func invalidInputsAreBadArguments(text: String) throws {
        let error = protocolError { () throws(ProtocolError) in
            try TimeExpression.parse(text, now: Instant(secondsSince1970: 1_781_524_800), zone: .utc, lean: .future)
        }
        #expect(error?.code == .badArgument)
        #expect(error?.message.contains("is not a time") == true)
    }

    @Test func errorEchoesTheInputShortened() {
        let error = protocolError { () throws(ProtocolError) in
            try TimeExpression.parse(String(repeating: "z", count: 60), now: Instant(secondsSince1970: 0), zone: .utc, lean: .past)
        }
        #expect(error?.message.hasPrefix("'" + String(repeating: "z", count: 40) + "…'") == true)
    }

    /// The time-of-day shape allows a one-digit hour only ("8:30"); minutes and seconds need
    /// two digits.
    @Test(arguments: ["8:8", "08:8", "5:5:5", "12:3"])
    func oneDigitMinutesAreRefused(text: String) {
        let error = protocolError { () throws(ProtocolError) in
            try TimeExpression.parse(text, now: Instant(secondsSince1970: 1_781_524_800), zone: .utc, lean: .future)
        }
        #expect(error?.code == .badArgument)
    }

    /// `ago @-9223372036854775808` must be refused, not crash the service.
    @Test func mostNegativeUnixSecondsDoNotCrash() {
        let error = protocolError { () throws(ProtocolError) in
            try TimeExpression.parse("@-9223372036854775808", now: Instant(secondsSince1970: 0), zone: .utc, lean: .past)
        }
        #expect(error?.code == .badArgument)
    }

    /// Numbers at the edge of Int are refused, or taken as a far date, without trapping.
    @Test func extremeNumbers() throws {
        for text in ["@9223372036854775807", "@-9223372036854775807", "@99999999999999999999", "+9999999999m"] {
            let error = protocolError { () throws(ProtocolError) in
                try TimeExpression.parse(text, now: Instant(secondsSince1970: 0), zone: .utc, lean: .past)
            }
            #expect(error?.code == .badArgument, "\(text)")
        }
        for text in ["+999999999d", "+999999999d999999999d999999999d", "-999999999d", "+99999999h99999999h"] {
            let error = protocolError { () throws(ProtocolError) in
                try TimeExpression.parse(text, now: Instant(secondsSince1970: 0), zone: .utc, lean: .past)
            }
            #expect(error?.message.contains("at most 100 years") == true, "\(text): \(String(describing: error))")
        }
    }

    /// The error `body` threw, or nil (no issue recorded either way).
    private func outcome(_ body: () throws(ProtocolError) -> Instant) -> ProtocolError? {
        do throws(ProtocolError) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func proleptic() throws {
        #expect(try parse("0001-01-01T00:00:00Z", now: "2026-01-01T00:00:00Z") == Instant(secondsSince1970: -62_135_596_800))
        #expect(try parse("1582-10-10T00:00:00Z", now: "2026-01-01T00:00:00Z") == Instant(secondsSince1970: -12_219_724_800))
        #expect(try parse("1600-02-29T00:00:00Z", now: "2026-01-01T00:00:00Z") == Instant(secondsSince1970: -11_670_998_400))
    }

    /// The one table of accepted times (AcceptedTimes): instants in years 0001–9999, relative
    /// offsets up to 100 years (36,525 days), rooms from 1970.
    @Test(arguments: [
        ("@-62135596800", true), ("@-62135596801", false), ("@253402300799", true), ("@253402300800", false),
        ("@1099511627776", false), ("0001-01-01T00:00:00Z", true), ("0000-12-31T23:59:59Z", false),
        ("9999-12-31T23:59:59Z", true), ("+36525d", true), ("+36526d", false), ("-36525d", true), ("-36525d1s", false),
    ])
    func acceptedInstants(text: String, accepted: Bool) {
        let now = Instant(secondsSince1970: 1_781_524_800)
        let error = outcome { () throws(ProtocolError) in
            try TimeExpression.parse(text, now: now, zone: .utc, lean: .past)
        }
        #expect((error == nil) == accepted, "\(text): \(String(describing: error))")
        if let error, !text.hasPrefix("+"), !text.hasPrefix("-") {
            #expect(error.message.contains("0001-01-01 to 9999-12-31 UTC"), "names the range: \(error)")
        }
    }

    @Test(arguments: [("@0", true), ("@-1", false), ("@253402300799", true), ("1969-12-31T23:59:59Z", false)])
    func acceptedRoomTimes(text: String, accepted: Bool) {
        let error = outcome { () throws(ProtocolError) in
            try TimeExpression.parse(text, now: Instant(secondsSince1970: 1_781_524_800), zone: .utc, lean: .future,
                                     within: AcceptedTimes.room)
        }
        #expect((error == nil) == accepted, "\(text): \(String(describing: error))")
        if let error { #expect(error.message.contains("1970-01-01 to 9999-12-31 UTC"), "\(error)") }
    }

    /// In the hour the clocks go back, "the next 02:30" and "the most recent 02:40" count
    /// both passes (Berlin, 2026-10-25: 02:00–03:00 CEST = 00:00–01:00Z, then again CET =
    /// 01:00–02:00Z).
    @Test(arguments: [
        // now 02:10 CET (second pass): the next 02:30 is 20 minutes away, not tomorrow
        ("02:30", TimeExpression.Lean.future, "2026-10-25T01:10:00Z", "2026-10-25T01:30:00Z", true),
        // now 02:10 CEST (first pass): the next 02:30 is the first one, 20 minutes away
        ("02:30", .future, "2026-10-25T00:10:00Z", "2026-10-25T00:30:00Z", true),
        // now 02:40 CEST (first pass, past its 02:30): the second 02:30 is 50 minutes away
        ("02:30", .future, "2026-10-25T00:40:00Z", "2026-10-25T01:30:00Z", true),
        // now 02:40 CET: the most recent 02:40 is now
        ("02:40", .past, "2026-10-25T01:40:00Z", "2026-10-25T01:40:00Z", true),
        // now 02:20 CET: the most recent 02:40 is the first pass's, 40 minutes ago
        ("02:40", .past, "2026-10-25T01:20:00Z", "2026-10-25T00:40:00Z", true),
        // spring forward: 02:30 does not exist on 2026-03-29; moved forward by the gap to 03:30 CEST
        ("02:30", .future, "2026-03-28T23:00:00Z", "2026-03-29T01:30:00Z", true),
        ("02:30", .past, "2026-03-29T12:00:00Z", "2026-03-29T01:30:00Z", true),
        // Lord Howe goes back half an hour: 01:45 shows twice on 2026-04-05 (+11 then +10:30)
        ("01:45", .future, "2026-04-04T14:50:00Z", "2026-04-04T15:15:00Z", true),
        ("03:00", .future, "2026-10-25T01:10:00Z", "2026-10-25T02:00:00Z", false),
    ])
    func clocksGoingBackOrForward(text: String, lean: TimeExpression.Lean, now: String, expected: String, ambiguous: Bool) throws {
        let zone = text == "01:45" ? "Australia/Lord_Howe" : "Europe/Berlin"
        #expect(try parse(text, zone: zone, lean: lean, now: now) == (try instant(expected)))
        let resolved = try TimeExpression.resolve(text, now: try instant(now), zone: try timeZone(zone), lean: lean)
        #expect((resolved.ambiguousWallClock != nil) == ambiguous)
    }

    /// A date and time in the repeated hour is the first pass; in the skipped hour, moved forward.
    @Test(arguments: [
        ("2026-10-25 02:30", "2026-10-25T00:30:00Z"),
        ("2026-03-29 02:30", "2026-03-29T01:30:00Z"),
    ])
    func dateTimesAroundTheChange(text: String, expected: String) throws {
        #expect(try parse(text, zone: "Europe/Berlin", now: "2026-01-01T00:00:00Z") == (try instant(expected)))
    }

    /// Proleptic Gregorian throughout: 1500-03-01T12:00Z is -14,826,628,800 (ISO 8601;
    /// `date -u -d 1500-03-01T12:00Z +%s`), not ICU's Julian date ten days later.
    @Test func prolepticGregorianDates() throws {
        #expect(try parse("1500-03-01T12:00Z").secondsSince1970 == -14_826_628_800)
        #expect(try parse("0001-01-01T00:00Z").secondsSince1970 == -62_135_596_800)
        #expect(try parse("1582-10-10 12:00", zone: "UTC").secondsSince1970 == -12_219_681_600)
    }

    @Test func wallClockNotes() throws {
        let berlin = try timeZone("Europe/Berlin")
        let skipped = WallClock.localSeconds(year: 2026, month: 3, day: 29, hour: 2, minute: 30)
        #expect(WallClock.note(local: skipped, chosen: 1_774_747_800, zone: berlin)
                == "2026-03-29 02:30 does not exist in Europe/Berlin (the clocks go forward 1 hour); moved forward by the gap to 2026-03-29 03:30")
        let repeated = WallClock.localSeconds(year: 2026, month: 10, day: 25, hour: 2, minute: 30)
        #expect(WallClock.note(local: repeated, chosen: 1_792_891_800, zone: berlin)
                == "2026-10-25 02:30 happens twice in Europe/Berlin; this is the second, after the clocks go back (UTC+01:00)")
        #expect(WallClock.note(local: repeated - 86_400, chosen: 0, zone: berlin) == nil)
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {
            let date = CivilCalendar.civil(daysSince1970: days)
            #expect(CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
    }
}
