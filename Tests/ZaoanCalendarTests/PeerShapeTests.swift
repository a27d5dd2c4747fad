import Foundation
import Testing
@testable import ZaoanCalendar

/// The shapes other readers' test calendars showed zaoan reading otherwise than
/// recurring_ical_events (issue 19, points 1–6), each in a minimal sample of its own.
extension CalendarTests {
    @Suite struct PeerShapeTests {
        let berlin = try! CalendarZone(named: "Europe/Berlin")

        /// "start end title" of each occurrence, in UTC seconds.
        func rows(_ expansion: CalendarExpansion) -> [String] {
            expansion.occurrences.map { "\($0.start) \($0.end) \($0.title ?? "-")" }
        }

        func row(_ start: Int64, _ end: Int64, _ title: String) -> String { "\(start) \(end) \(title)" }

        @Test("RDATE;VALUE=PERIOD: the instance lasts the period, given by a duration (PT2H, P1DT1H) or an end (RFC 5545 3.8.5.2)")
        func rdatePeriods() throws {
            let document = try Samples.document("rdate-period.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 10)), defaultZone: berlin)
            #expect(rows(found) == [
                row(utc(2026, 3, 2, 8), utc(2026, 3, 2, 9), "Office hours"),        // DTSTART, DTEND: an hour
                row(utc(2026, 3, 4, 13), utc(2026, 3, 4, 15), "Office hours"),      // .../PT2H
                row(utc(2026, 3, 5, 13), utc(2026, 3, 5, 13, 30), "Office hours"),  // .../an end
                row(utc(2026, 3, 6, 7), utc(2026, 3, 7, 8), "Office hours"),        // .../P1DT1H, on Berlin's clock
            ])
        }

        @Test("a TZID'd or UTC DTSTART with a floating DTEND, and the reverse: each read in its own frame, floating in the configured zone")
        func startAndEndInTheirOwnFrames() throws {
            let document = try Samples.document("mixed-frames.ics")
            let shanghai = try CalendarZone(named: "Asia/Shanghai")
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 10)), defaultZone: shanghai)
            #expect(rows(found) == [
                // 12:00 Berlin to 20:00 floating, in Shanghai: 11:00 to 12:00 UTC.
                row(utc(2026, 3, 3, 11), utc(2026, 3, 3, 12), "Berlin start, floating end"),
                // 18:00 floating in Shanghai to 12:00 Berlin: 10:00 to 11:00 UTC.
                row(utc(2026, 3, 4, 10), utc(2026, 3, 4, 11), "Floating start, Berlin end"),
                row(utc(2026, 3, 5, 10), utc(2026, 3, 5, 11), "UTC start, floating end"),
            ])
        }

        @Test("a VTIMEZONE exported from 2018 on: an IANA TZID's times before its first observance follow the system's zone data")
        func zoneBeforeItsFirstObservance() throws {
            let document = try Samples.document("vtimezone-starts-later.ics")
            func spans(_ from: Int64, _ to: Int64) throws -> [String] {
                rows(document.occurrences(in: try window(from, to), defaultZone: berlin))
            }
            // libical alone reads 2016 with the first observance's TZOFFSETFROM (+02:00): an hour
            // early in winter.
            #expect(try spans(utc(2016, 12, 1), utc(2016, 12, 10)) == [row(utc(2016, 12, 3, 13), utc(2016, 12, 3, 18), "Repair café, winter 2016")])
            #expect(try spans(utc(2016, 7, 1), utc(2016, 7, 10)) == [row(utc(2016, 7, 2, 12), utc(2016, 7, 2, 17), "Repair café, summer 2016")])
            // From the first observance on, the file's own definition.
            #expect(try spans(utc(2019, 1, 10), utc(2019, 1, 20)) == [row(utc(2019, 1, 12, 13), utc(2019, 1, 12, 18), "Repair café, winter 2019")])
        }

        @Test("RECURRENCE-ID;RANGE=THISANDFUTURE: later instances move by the override's shift and take its length and title (RFC 5545 3.8.4.4)")
        func thisAndFuture() throws {
            let document = try Samples.document("this-and-future.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 20)), defaultZone: berlin)
            let afternoons = "Standup (afternoons from the 5th)"
            let later = "Standup (a day later, at 8, from the 10th)"
            #expect(rows(found) == [
                row(utc(2026, 3, 2, 9), utc(2026, 3, 2, 10), "Standup"),
                row(utc(2026, 3, 3, 9), utc(2026, 3, 3, 10), "Standup"),
                row(utc(2026, 3, 4, 9), utc(2026, 3, 4, 10), "Standup"),
                row(utc(2026, 3, 5, 13), utc(2026, 3, 5, 13, 30), afternoons),  // the override itself
                row(utc(2026, 3, 6, 13), utc(2026, 3, 6, 13, 30), afternoons),  // 10:00 + 4 h, half an hour
                row(utc(2026, 3, 6, 20), utc(2026, 3, 6, 20, 30), afternoons),  // the RDATE at 17:00, moved too
                row(utc(2026, 3, 7, 13), utc(2026, 3, 7, 13, 30), afternoons),
                row(utc(2026, 3, 8, 8), utc(2026, 3, 8, 8, 15), "Standup (Sunday morning, once)"),  // its own override
                row(utc(2026, 3, 9, 13), utc(2026, 3, 9, 13, 30), afternoons),
                row(utc(2026, 3, 11, 7), utc(2026, 3, 11, 7, 45), later),  // the second override itself
                row(utc(2026, 3, 12, 7), utc(2026, 3, 12, 7, 45), later),  // the 11th, a day later at 8
                row(utc(2026, 3, 13, 7), utc(2026, 3, 13, 7, 45), later),
                row(utc(2026, 3, 14, 7), utc(2026, 3, 14, 7, 45), later),  // COUNT=12's last, the 13th
            ])
        }

        @Test("a THISANDFUTURE chain is bounded: at most datesPerEvent per UID take their range, the cut named")
        func thisAndFutureChainIsBounded() throws {
            // An hourly series and an override with RANGE=THISANDFUTURE at every hour for more
            // than a year, each 10 minutes late and 5 minutes long.
            func stamp(_ seconds: Int64) -> String {
                var time = time_t(seconds)
                var parts = tm()
                gmtime_r(&time, &parts)
                return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                              parts.tm_hour, parts.tm_min, parts.tm_sec)
            }
            let first = utc(2026, 1, 1)
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:chain", "DTSTART:" + stamp(first),
                         "DURATION:PT30M", "RRULE:FREQ=HOURLY", "SUMMARY:base", "END:VEVENT"]
            let overrides = CalendarLimits.datesPerEvent + 10
            for hour in 0..<Int64(overrides) {
                lines += ["BEGIN:VEVENT", "UID:chain", "RECURRENCE-ID;RANGE=THISANDFUTURE:" + stamp(first + hour * 3600),
                          "DTSTART:" + stamp(first + hour * 3600 + 600), "DURATION:PT5M", "SUMMARY:late", "END:VEVENT"]
            }
            lines.append("END:VCALENDAR")
            let document = try CalendarDocument(parsing: Array(lines.joined(separator: "\r\n").utf8), source: "chain.ics")
            let started = Date()
            let found = document.occurrences(in: try window(utc(2026, 1, 1), utc(2026, 2, 1)), defaultZone: .utc)
            print("a chain of \(overrides) THISANDFUTURE overrides, January: \(found.occurrences.count) occurrences in \(Date().timeIntervalSince(started)) s")
            #expect(found.problems.contains { $0.message.contains("RANGE=THISANDFUTURE") && $0.message.contains("\(CalendarLimits.datesPerEvent)") },
                    "the cut is named: \(found.problems)")
            #expect(found.occurrences.count == 31 * 24, "one an hour")
            #expect(found.occurrences.allSatisfy { $0.start % 3600 == 600 && $0.end - $0.start == 300 && $0.title == "late" })
        }

        @Test("a DATE-TIME RECURRENCE-ID on an all-day series (Outlook) replaces the instance of its day, as written")
        func dateTimeRecurrenceIDOnAllDaySeries() throws {
            let document = try Samples.document("all-day-datetime-recurrence-id.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 31)), defaultZone: berlin)
            #expect(rows(found) == [
                row(utc(2026, 3, 1, 23), utc(2026, 3, 2, 23), "Bins out"),
                row(utc(2026, 3, 9, 23), utc(2026, 3, 10, 23), "Bins out (Tuesday this week)"),      // for 20260309T000000Z
                row(utc(2026, 3, 17, 23), utc(2026, 3, 18, 23), "Bins out (Wednesday this week)"),   // for 00:00 London on the 16th
                row(utc(2026, 3, 22, 23), utc(2026, 3, 23, 23), "Bins out"),
            ])
        }

        @Test("one UID sent several times: the highest SEQUENCE, then the latest DTSTAMP wins; identical copies show once; an older override the newer series no longer has is gone (RFC 5546)")
        func resentInvitation() throws {
            let document = try Samples.document("resent-invitation.ics")
            let found = document.occurrences(in: try window(utc(2026, 3, 1), utc(2026, 3, 31)), defaultZone: berlin)
            #expect(rows(found) == [
                row(utc(2026, 3, 2, 15), utc(2026, 3, 2, 16), "Weekly"),
                row(utc(2026, 3, 3, 14), utc(2026, 3, 3, 15), "Planning (moved to the afternoon)"),  // SEQUENCE 2 of 0, 2, 1
                row(utc(2026, 3, 4, 12), utc(2026, 3, 4, 13), "Lunch (the later DTSTAMP)"),          // first in the file
                row(utc(2026, 3, 4, 15), utc(2026, 3, 4, 15, 30), "Coffee (the later DTSTAMP)"),     // last in the file
                row(utc(2026, 3, 5, 8), utc(2026, 3, 5, 9), "Review"),                               // two identical copies
                row(utc(2026, 3, 9, 17), utc(2026, 3, 9, 18), "Weekly (the 9th, late)"),             // the override's SEQUENCE 1 of 0, 1
                // The 16th: the series of SEQUENCE 1 excludes it; its override of SEQUENCE 0 is stale.
                row(utc(2026, 3, 23, 15), utc(2026, 3, 23, 16), "Weekly"),
            ])
        }
    }
}
