import Foundation
import Testing
@testable import ZaoanCalendar

extension CalendarTests {
    @Suite struct LargeCalendarTests {
        /// 10,000 events: 1,000 daily series at 07:00 in Berlin (one in ten also with an
        /// EXDATE and an override), 9,000 single events an hour apart from 2026-01-01 UTC.
        static func generated() -> [UInt8] {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//zaoan tests//large//EN\r\n"
            for series in 0..<1000 {
                text += "BEGIN:VEVENT\r\nUID:series-\(series)\r\nSUMMARY:Series \(series)\r\nDTSTART;TZID=Europe/Berlin:20260101T070000\r\n"
                text += "DTEND;TZID=Europe/Berlin:20260101T073000\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\n"
            }
            for single in 0..<9000 {
                let start = utc(2026, 1, 1) + Int64(single) * 3600
                var parts = tm()
                var seconds = time_t(start)
                gmtime_r(&seconds, &parts)
                let stamp = String(format: "%04d%02d%02dT%02d0000Z", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour)
                text += "BEGIN:VEVENT\r\nUID:single-\(single)\r\nSUMMARY:Single \(single)\r\nDTSTART:\(stamp)\r\nDURATION:PT30M\r\nEND:VEVENT\r\n"
            }
            return Array((text + "END:VCALENDAR\r\n").utf8)
        }

        @Test("a 10,000-event file with 1,000 series: every occurrence of 48 hours found")
        func tenThousand() throws {
            let bytes = Self.generated()
            #expect(bytes.count < CalendarLimits.bytesPerFile)
            let document = try CalendarDocument(parsing: bytes, source: "large.ics")
            #expect(document.events.count == 10_000)
            #expect(document.skipped.isEmpty)
            let from = utc(2026, 3, 27)
            let found = document.occurrences(in: try window(from, from + 48 * 3600), defaultZone: .utc)
            #expect(found.problems.isEmpty)
            // 2 per series (Mar 27 and 28 at 06:00 UTC) + 48 single events (one an hour) + the one
            // ending at the window's start does not count.
            #expect(found.occurrences.count == 2000 + 48)
            #expect(found.occurrences.filter { $0.uid.hasPrefix("series-") }.allSatisfy { $0.start == utc(2026, 3, 27, 6) || $0.start == utc(2026, 3, 28, 6) })
            #expect(found.next(after: utc(2026, 3, 27, 6, 0, 1))?.uid == "single-\((utc(2026, 3, 27, 7) - utc(2026, 1, 1)) / 3600)")
        }
    }
}
