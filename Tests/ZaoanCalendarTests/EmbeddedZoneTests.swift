import Foundation
import Testing
import ZaoanTime
@testable import ZaoanCalendar
@testable import ZaoanRecurrence

extension CalendarTests {
    /// A file's own VTIMEZONE, expanded by zaoan's engine (`EmbeddedZoneRules`), held against
    /// the system's zone of the same name wherever the VTIMEZONE describes the same rules.
    @Suite struct EmbeddedZoneTests {
        /// A VTIMEZONE whose rules only (RRULEs from 1601 or 1970) are the zone's since `since`.
        struct RuleForm: CustomStringConvertible {
            let zone: String
            let writer: String
            let since: Int64
            let observances: [String]

            var description: String { "\(zone) as \(writer) writes it" }
        }

        static let ruleForms: [RuleForm] = [
            RuleForm(zone: "America/New_York", writer: "Outlook (1601, the US rule since 2007)", since: utc(2007, 1, 1), observances: [
                ZoneText.observance("STANDARD", "16011104T020000", from: "-0400", to: "-0500", rule: "FREQ=YEARLY;BYDAY=1SU;BYMONTH=11"),
                ZoneText.observance("DAYLIGHT", "16010311T020000", from: "-0500", to: "-0400", rule: "FREQ=YEARLY;BYDAY=2SU;BYMONTH=3"),
            ]),
            RuleForm(zone: "America/New_York", writer: "tzurl.org (rules with UNTIL: 1987–2006, then 2007's)", since: utc(2000, 1, 1), observances: [
                ZoneText.observance("DAYLIGHT", "19870405T020000", from: "-0500", to: "-0400", name: "EDT",
                                    rule: "FREQ=YEARLY;UNTIL=20060402T070000Z;BYMONTH=4;BYDAY=1SU"),
                ZoneText.observance("DAYLIGHT", "20070311T020000", from: "-0500", to: "-0400", name: "EDT", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
                ZoneText.observance("STANDARD", "19671029T020000", from: "-0400", to: "-0500", name: "EST",
                                    rule: "FREQ=YEARLY;UNTIL=20061029T060000Z;BYMONTH=10;BYDAY=-1SU"),
                ZoneText.observance("STANDARD", "20071104T020000", from: "-0400", to: "-0500", name: "EST", rule: "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
            ]),
            RuleForm(zone: "Europe/Berlin", writer: "Outlook (1601)", since: utc(1997, 1, 1), observances: [
                ZoneText.observance("STANDARD", "16011028T030000", from: "+0200", to: "+0100", rule: "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"),
                ZoneText.observance("DAYLIGHT", "16010325T020000", from: "+0100", to: "+0200", rule: "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"),
            ]),
            RuleForm(zone: "Europe/Berlin", writer: "Google (1970)", since: utc(1997, 1, 1), observances: [
                ZoneText.observance("DAYLIGHT", "19700329T020000", from: "+0100", to: "+0200", name: "CEST", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
                ZoneText.observance("STANDARD", "19701025T030000", from: "+0200", to: "+0100", name: "CET", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
            ]),
            RuleForm(zone: "Australia/Sydney", writer: "Thunderbird (1970; DAYLIGHT in October since 2008)", since: utc(2008, 1, 1), observances: [
                ZoneText.observance("STANDARD", "19700405T030000", from: "+1100", to: "+1000", name: "AEST", rule: "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"),
                ZoneText.observance("DAYLIGHT", "19701004T020000", from: "+1000", to: "+1100", name: "AEDT", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU"),
            ]),
            RuleForm(zone: "Europe/Dublin", writer: "tzurl.org (negative DST: IST is STANDARD, GMT is DAYLIGHT)", since: utc(1997, 1, 1), observances: [
                ZoneText.observance("STANDARD", "19700329T010000", from: "+0000", to: "+0100", name: "IST", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
                ZoneText.observance("DAYLIGHT", "19701025T020000", from: "+0100", to: "+0000", name: "GMT", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
            ]),
            RuleForm(zone: "Asia/Shanghai", writer: "Google (one STANDARD)", since: utc(1992, 1, 1), observances: [
                ZoneText.observance("STANDARD", "19700101T000000", from: "+0800", to: "+0800", name: "CST"),
            ]),
            RuleForm(zone: "Pacific/Chatham", writer: "Thunderbird (45-minute offsets; since 2007)", since: utc(2008, 1, 1), observances: [
                ZoneText.observance("DAYLIGHT", "19700927T024500", from: "+1245", to: "+1345", rule: "FREQ=YEARLY;BYMONTH=9;BYDAY=-1SU"),
                ZoneText.observance("STANDARD", "19700405T034500", from: "+1345", to: "+1245", rule: "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"),
            ]),
        ]

        static let checkedFrom = utc(2000, 1, 1)
        static let checkedTo = utc(2038, 1, 1)

        @Test("rules only (Outlook's 1601, Google's and Thunderbird's 1970, tzurl.org's with UNTIL): the system zone's offsets in every year the rules held, 2000–2037", arguments: ruleForms)
        func rulesOnly(_ form: RuleForm) throws {
            let system = try SystemZone(form.zone)
            let zone = try #require(try ZoneText.zone(ZoneText.calendar(form.zone, form.observances)))
            let from = max(form.since, Self.checkedFrom)
            let found = system.differences(from: zone, from: from, to: Self.checkedTo)
            #expect(found.isEmpty, "\(form): \(found.count) differences, first \(found.prefix(4))")
            // A name the file gives is the system's too.
            let rules = try ZoneText.rules(of: zone)
            for instant in stride(from: from, to: Self.checkedTo, by: 86_400 * 37) {
                if let name = rules.abbreviation(at: instant) {
                    #expect(name == system.abbreviation(at: instant), "\(form) at \(instant)")
                }
            }
        }

        @Test("a full history as tzurl.org writes it (an observance per kind of change, RDATEs, several to a line; or one observance per change): the system zone's offsets, 2000–2037", arguments: [
            "America/New_York", "Europe/Berlin", "Australia/Sydney", "Europe/Dublin", "Asia/Tehran", "America/Santiago", "Asia/Shanghai", "Pacific/Chatham",
        ])
        func fullHistory(_ name: String) throws {
            let system = try SystemZone(name)
            for oneEach in [false, true] {
                let observances = system.historyObservances(from: utc(1970, 1, 1), to: utc(2039, 1, 1), oneEach: oneEach)
                let zone = try #require(try ZoneText.zone(ZoneText.calendar(name, observances)))
                let found = system.differences(from: zone, from: Self.checkedFrom, to: Self.checkedTo)
                #expect(found.isEmpty, "\(name)\(oneEach ? ", one observance per change" : ""): \(found.count) differences, first \(found.prefix(4))")
            }
        }

        @Test("RDATEs several to a line reach the engine one by one")
        func rdatesSplit() throws {
            let text = ZoneText.calendar("Own", [
                ZoneText.observance("STANDARD", "20201025T030000", from: "+0200", to: "+0100", rdates: ["20211031T030000,20221030T030000", "20231029T030000"]),
            ])
            let observances = try ZoneText.observances(text)
            #expect(observances.map(\.extraOnsets.count) == [3])
        }

        @Test("RFC 5545 §3.3.5 through an embedded zone: a repeated time is the first of the two, a skipped one moves forward by the gap", arguments: [
            // zone, wall clock, instant (the system zone's reading is checked too)
            ("Europe/Berlin", wall(2026, 3, 29, 2, 30), utc(2026, 3, 29, 1, 30)),  // skipped: 03:30 CEST
            ("Europe/Berlin", wall(2026, 10, 25, 2, 30), utc(2026, 10, 25, 0, 30)),  // twice: the CEST one
            ("Europe/Berlin", wall(2026, 10, 25, 3, 0), utc(2026, 10, 25, 2)),  // after the change: CET
            ("America/New_York", wall(2026, 3, 8, 2, 30), utc(2026, 3, 8, 7, 30)),
            ("America/New_York", wall(2026, 11, 1, 1, 30), utc(2026, 11, 1, 5, 30)),
            ("Australia/Sydney", wall(2026, 10, 4, 2, 30), utc(2026, 10, 3, 16, 30)),  // skipped: 03:30 AEDT
            ("Australia/Sydney", wall(2026, 4, 5, 2, 30), utc(2026, 4, 4, 15, 30)),  // twice: the AEDT one
            ("Pacific/Chatham", wall(2026, 9, 27, 3, 0), utc(2026, 9, 26, 14, 15)),  // skipped: 04:00 +1345
            ("Europe/Dublin", wall(2026, 10, 25, 1, 30), utc(2026, 10, 25, 0, 30)),
        ])
        func gapsAndRepeats(_ name: String, _ wall: LocalDateTime, _ expected: Int64) throws {
            let form = try #require(Self.ruleForms.first { $0.zone == name })
            let zone = try #require(try ZoneText.zone(ZoneText.calendar(name, form.observances)))
            #expect(zone.instant(of: wall) == expected, "\(form) at \(wall)")
            #expect(try CalendarZone(named: name).instant(of: wall) == expected, "the system's \(name) at \(wall)")
        }

        @Test("an event in an Outlook VTIMEZONE over spring forward: its wall clock kept, the gap's instance moved by an hour")
        func eventAcrossTheGap() throws {
            let form = Self.ruleForms[2]  // Berlin as Outlook writes it
            let text = ZoneText.calendar("W. Europe Standard Time", form.observances)
                .replacingOccurrences(of: "DTSTART;TZID=W. Europe Standard Time:20260105T090000",
                                      with: "DTSTART;TZID=W. Europe Standard Time:20260327T023000\r\nRRULE:FREQ=DAILY;COUNT=4")
            let document = try CalendarDocument(parsing: Array(text.utf8), source: "outlook.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 26), utc(2026, 4, 1)), defaultZone: .utc)
            #expect(found.occurrences.map(\.start) == [utc(2026, 3, 27, 1, 30), utc(2026, 3, 28, 1, 30), utc(2026, 3, 29, 1, 30), utc(2026, 3, 30, 0, 30)])
        }

        @Test("before the first observance: an IANA TZID follows the system's zone, any other name the first TZOFFSETFROM")
        func beforeTheFirstObservance() throws {
            let observances = [
                ZoneText.observance("DAYLIGHT", "20180325T020000", from: "+0100", to: "+0200", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
                ZoneText.observance("STANDARD", "20181028T030000", from: "+0200", to: "+0100", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
            ]
            let iana = try #require(try ZoneText.zone(ZoneText.calendar("Europe/Berlin", observances)))
            let own = try #require(try ZoneText.zone(ZoneText.calendar("Berlin, my way", observances)))
            #expect(iana.offset(at: utc(2016, 7, 1)) == 7200)
            #expect(own.offset(at: utc(2016, 7, 1)) == 3600)
            #expect(iana.offset(at: utc(2019, 7, 1)) == 7200 && own.offset(at: utc(2019, 7, 1)) == 7200)
            #expect(!iana.isSameZone(as: try CalendarZone(named: "Europe/Berlin")))
        }

        @Test("the same VTIMEZONE twice is the same zone; another is not")
        func sameZone() throws {
            let berlin = Self.ruleForms[3]
            let first = try #require(try ZoneText.zone(ZoneText.calendar("A", berlin.observances)))
            let again = try #require(try ZoneText.zone(ZoneText.calendar("A", berlin.observances)))
            let other = try #require(try ZoneText.zone(ZoneText.calendar("A", Self.ruleForms[4].observances)))
            #expect(first.isSameZone(as: again))
            #expect(!first.isSameZone(as: other))
        }

        @Test("COUNT ends a rule; a rule whose UNTIL is before 1800 gives only its DTSTART")
        func countAndEarlyUntil() throws {
            let counted = try #require(try ZoneText.zone(ZoneText.calendar("Counted", [
                ZoneText.observance("STANDARD", "20071104T020000", from: "-0400", to: "-0500", rule: "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
                ZoneText.observance("DAYLIGHT", "20070311T020000", from: "-0500", to: "-0400", rule: "FREQ=YEARLY;COUNT=3;BYMONTH=3;BYDAY=2SU"),
            ])))
            #expect(counted.offset(at: utc(2009, 7, 1)) == -4 * 3600)
            #expect(counted.offset(at: utc(2010, 7, 1)) == -5 * 3600)
            let ended = try #require(try ZoneText.zone(ZoneText.calendar("Ended", [
                ZoneText.observance("STANDARD", "17001029T020000", from: "-0400", to: "-0500", rule: "FREQ=YEARLY;UNTIL=17501029T060000Z;BYMONTH=10;BYDAY=-1SU"),
                ZoneText.observance("DAYLIGHT", "17000404T020000", from: "-0500", to: "-0400", rule: "FREQ=YEARLY;UNTIL=17500404T070000Z;BYMONTH=4;BYDAY=1SU"),
            ])))
            let rules = try ZoneText.rules(of: ended)
            #expect(rules.transitionCount == 2)
            #expect(rules.work.steps == 0)
            #expect(ended.offset(at: utc(2026, 1, 1)) == -5 * 3600)
        }

        @Test("a bad part of an observance's RRULE is left out and the rest kept, as for events")
        func badRulePart() throws {
            let zone = try #require(try ZoneText.zone(ZoneText.calendar("Europe/Berlin", [
                ZoneText.observance("DAYLIGHT", "19700329T020000", from: "+0100", to: "+0200", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;X-NAME=1;COUNT=-1"),
                ZoneText.observance("STANDARD", "19701025T030000", from: "+0200", to: "+0100", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU,XX"),
            ])))
            let found = try SystemZone("Europe/Berlin").differences(from: zone, from: Self.checkedFrom, to: Self.checkedTo)
            #expect(found.isEmpty, "\(found.prefix(4))")
        }
    }
}
