import Testing
@testable import ZaoanCalendar
@testable import ZaoanRecurrence

extension CalendarTests {
    /// VTIMEZONEs written to cost: each is read with bounded work (counted, never timed), no
    /// trap, and offsets the file wrote.
    @Suite struct HostileZoneTests {
        /// The most transitions a zone may hold.
        static let mostTransitions = CalendarLimits.listedOnsetsPerZone + CalendarLimits.ruleOnsetsPerZone

        @Test("10,000 observances, each with a yearly rule and RDATEs: the reader stops at the listed limit, the rules at theirs")
        func manyObservances() throws {
            let observances = (0..<10_000).map { index in
                ZoneText.observance(index % 2 == 0 ? "STANDARD" : "DAYLIGHT", "\(1900 + index % 400)0301T020000",
                                    from: index % 2 == 0 ? "+0200" : "+0100", to: index % 2 == 0 ? "+0100" : "+0200",
                                    rule: "FREQ=YEARLY;BYMONTH=\(1 + index % 12);BYDAY=1SU", rdates: ["20300101T000000"])
            }
            let text = ZoneText.calendar("Many", observances)
            let read = try ZoneText.observances(text)
            #expect(read.count <= CalendarLimits.listedOnsetsPerZone / 2)
            let zone = try #require(try ZoneText.zone(text))
            let rules = try ZoneText.rules(of: zone)
            #expect(rules.transitionCount <= Self.mostTransitions)
            #expect(rules.work.steps <= CalendarLimits.iterationsPerZone)
            #expect(rules.work.leftOut > 0)
            for year in stride(from: 1800, through: 2400, by: 50) {
                #expect([3600, 7200].contains(zone.offset(at: utc(year, 6, 1))), "\(year)")
            }

            // The engine's own limits, whatever a reader hands it.
            let plain = (0..<10_000).map { index in
                ZoneObservance(start: ZoneObservance.wallSeconds(year: 1900 + index % 400, month: 3, day: 1, hour: 2)!,
                               offsetFrom: 3600, offsetTo: 7200, rule: "FREQ=YEARLY;BYDAY=1SU",
                               extraOnsets: (1...5).map { .wall(Int64($0) * 86_400 * 400 + Int64(index) * 60) })
            }
            let direct = try #require(EmbeddedZoneRules(observances: plain))
            #expect(direct.transitionCount <= Self.mostTransitions)
            #expect(direct.work.steps <= CalendarLimits.iterationsPerZone)
            #expect(direct.work.leftOut >= 10_000 * 6 - CalendarLimits.listedOnsetsPerZone)
        }

        @Test("an observance rule of FREQ=SECONDLY, HOURLY or DAILY from 2026: cut at the rules' limit, offsets the file's", arguments: ["SECONDLY", "HOURLY", "DAILY;INTERVAL=1;BYHOUR=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23"])
        func fastRule(_ frequency: String) throws {
            let zone = try #require(try ZoneText.zone(ZoneText.calendar("Fast", [
                ZoneText.observance("DAYLIGHT", "20260101T000000", from: "+0100", to: "+0200", rule: "FREQ=\(frequency)"),
                ZoneText.observance("STANDARD", "20260101T030000", from: "+0200", to: "+0100", rule: "FREQ=\(frequency)"),
            ])))
            let rules = try ZoneText.rules(of: zone)
            #expect(rules.transitionCount <= 2 + CalendarLimits.ruleOnsetsPerZone)
            #expect(rules.work.steps <= CalendarLimits.iterationsPerZone)
            #expect(rules.work.leftOut >= 1)
            #expect(zone.offset(at: utc(2025, 6, 1)) == 3600)
            for instant in stride(from: utc(2026, 1, 1), to: utc(2027, 1, 1), by: 3607) {
                #expect([3600, 7200].contains(zone.offset(at: instant)))
            }
        }

        @Test("offsets beyond ±(24 h − 1 s) are not used: TZOFFSETTO +99 hours, TZOFFSETFROM −24 hours")
        func bogusOffsets() throws {
            let zone = try #require(try ZoneText.zone(ZoneText.calendar("Bogus", [
                ZoneText.observance("STANDARD", "19700101T000000", from: "+0100", to: "+0100"),
                ZoneText.observance("DAYLIGHT", "20200329T020000", from: "+0100", to: "+9900", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
            ])))
            let rules = try ZoneText.rules(of: zone)
            #expect(rules.work.unusable == 1)
            #expect(rules.work.steps == 0)
            #expect(zone.offset(at: utc(2026, 7, 1)) == 3600)
            #expect(try ZoneText.zone(ZoneText.calendar("Only bogus", [ZoneText.observance("STANDARD", "19700101T000000", from: "+0000", to: "+9900")])) == nil)

            for (from, to) in [(0, 99 * 3600), (-86_400, 0), (0, 86_400), (86_399, -86_399)] {
                let observance = ZoneObservance(start: 0, offsetFrom: from, offsetTo: to)
                #expect(observance.isUsable == (abs(from) < 86_400 && abs(to) < 86_400), "\(from) \(to)")
            }
        }

        @Test("DTSTART in 9999: the observance is there, its rule never runs, and its TZOFFSETFROM is the zone's offset up to 2400")
        func farStart() throws {
            let zone = try #require(try ZoneText.zone(ZoneText.calendar("Far", [
                ZoneText.observance("STANDARD", "99990101T000000", from: "+0300", to: "+0400", rule: "FREQ=HOURLY"),
            ])))
            let rules = try ZoneText.rules(of: zone)
            #expect(rules.transitionCount == 0)
            #expect(rules.work.steps == 0)
            #expect(zone.offset(at: utc(2026, 1, 1)) == 10_800)
            #expect(zone.offset(at: utc(2400, 12, 31)) == 10_800)
        }

        @Test("no TZOFFSETFROM: the observance is not used; with nothing else, the TZID is read as if the file had no VTIMEZONE")
        func missingOffsetFrom() throws {
            let missing = "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETTO:+0500\r\nEND:STANDARD"
            let alone = ZoneText.calendar("Europe/Berlin", [missing])
            #expect(try ZoneText.zone(alone) == nil)
            let document = try CalendarDocument(parsing: Array(alone.utf8), source: "missing.ics")
            let found = document.occurrences(in: try window(utc(2026, 1, 5), utc(2026, 1, 6)), defaultZone: .utc)
            #expect(found.occurrences.map(\.start) == [utc(2026, 1, 5, 8)], "09:00 in the system's Berlin")

            let beside = try #require(try ZoneText.zone(ZoneText.calendar("Own", [
                missing, ZoneText.observance("STANDARD", "19700101T000000", from: "+0200", to: "+0200"),
            ])))
            #expect(try ZoneText.rules(of: beside).work.unusable == 1)
            #expect(beside.offset(at: utc(2026, 1, 1)) == 7200)
        }
    }
}
