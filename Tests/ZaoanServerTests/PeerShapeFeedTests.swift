import Foundation
import Testing

/// Issue 19, differences 7–10, through the real service: each sample of
/// Tests/ZaoanCalendarTests/Samples in a calendar folder, `schedule 744` under faketime
/// from 2026-03-02 in Europe/Berlin, and what the log and `stats` say of its problems.
@Suite("calendars as the peers read them: zone names, broken structure, empty values, deviations")
struct PeerShapeFeedTests {
    struct Reading {
        /// `START END TITLE` per row of `schedule 744`.
        let rows: [String]
        let stats: String
        let log: String
    }

    private func read(_ sample: String) throws -> Reading {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let service = try CalendarSamples.service(reading: [sample], in: folder, clock: "2026-03-02 00:00:00")
        defer { try? service.stop() }
        var stats = ""
        #expect(eventually(timeout: 30, interval: 0.1) {
            stats = (try? service.ask("stats")) ?? ""
            return stats.contains("calendars: 1 read, 0 waiting, 0 reading")
        }, "the folder is read: \(stats)")
        let rows = try service.scheduleRows()
        print("\(sample) under faketime: \(rows.count) rows")
        return Reading(rows: rows, stats: stats, log: service.stderrText)
    }

    @Test("Windows and libical zone names read in their zones; unknown ones floating, said once")
    func zoneNames() throws {
        let reading = try read("windows-zones.ics")
        #expect(reading.rows == [
            "2026-03-03T17:00:00+01:00 2026-03-03T17:30:00+01:00 Weekly in Pacific, one left out",
            "2026-03-10T01:00:00+01:00 2026-03-10T02:00:00+01:00 Tokyo (Windows name)",
            "2026-03-10T02:00:00+01:00 2026-03-10T03:00:00+01:00 China (Windows name)",
            "2026-03-10T09:00:00+01:00 2026-03-10T10:00:00+01:00 W. Europe (Windows name, quoted)",
            "2026-03-10T15:00:00+01:00 2026-03-10T16:00:00+01:00 Central (Windows name)",
            "2026-03-10T16:00:00+01:00 2026-03-10T16:30:00+01:00 Weekly in Pacific, one left out",
            "2026-03-10T17:00:00+01:00 2026-03-10T18:00:00+01:00 Pacific (Windows name)",
            "2026-03-11T09:00:00+01:00 2026-03-11T10:00:00+01:00 Stockholm (libical Tzfile path)",
            "2026-03-11T10:00:00+01:00 2026-03-11T11:00:00+01:00 Stockholm (libical path)",
            "2026-03-11T11:00:00+01:00 2026-03-11T12:00:00+01:00 Stockholm (leading slash)",
            "2026-03-11T14:00:00+01:00 2026-03-11T15:00:00+01:00 New York (Mozilla path)",
            "2026-03-12T09:00:00+01:00 2026-03-12T10:00:00+01:00 In a zone nobody knows",
            "2026-03-12T10:00:00+01:00 2026-03-12T11:00:00+01:00 Outlook display name",
            "2026-03-12T11:00:00+01:00 2026-03-12T12:00:00+01:00 A 305-byte zone name",
            "2026-03-12T12:00:00+01:00 2026-03-12T13:00:00+01:00 A path out of the zone folder",
            "2026-03-13T07:00:00+01:00 2026-03-13T08:00:00+01:00 Its own Tokyo Standard Time (+03:00)",
            "2026-03-24T16:00:00+01:00 2026-03-24T16:30:00+01:00 Weekly in Pacific, one left out",
        ], "\(reading.rows.joined(separator: "\n"))")
        #expect(reading.stats.contains("calendar_events: 17") && reading.stats.contains("calendar_problems: 1 ("), "\(reading.stats)")
        let warnings = reading.log.split(separator: "\n").filter { $0.contains("unknown time zone") }
        #expect(warnings.count == 1 && warnings[0].contains("'Mars/Olympus_Mons'") && warnings[0].hasSuffix("; the other events still show"), "\(reading.log)")
    }

    @Test("a file with broken components: the whole VEVENTs show, each break is logged with its line")
    func brokenStructure() throws {
        let reading = try read("broken-structure.ics")
        #expect(reading.rows == [
            "2026-03-10T10:00:00+01:00 2026-03-10T11:00:00+01:00 first",
            "2026-03-11T10:00:00+01:00 2026-03-11T11:00:00+01:00 after-todo",
            "2026-03-13T10:00:00+01:00 2026-03-13T11:00:00+01:00 with-alarm",
            "2026-03-16T10:00:00+01:00 2026-03-16T11:00:00+01:00 after-no-end",
            "2026-03-17T10:00:00+01:00 2026-03-17T11:00:00+01:00 last",
            "2026-03-18T10:00:00+01:00 2026-03-18T11:00:00+01:00 second-calendar",
        ], "\(reading.rows.joined(separator: "\n"))")
        #expect(reading.stats.contains("calendar_problems: 8 ("), "\(reading.stats)")
        for line in [1, 15, 29, 53, 60, 67, 76, 88] {
            #expect(reading.log.contains("broken-structure.ics: line \(line): "), "line \(line) is named: \(reading.log)")
        }
        #expect(reading.log.contains("END:VTOOD where END:VTODO (for line 12) was expected; the VTODO of line 12 is left out; the other events still show"), "\(reading.log)")
    }

    @Test("empty RRULE, EXDATE, RDATE, DURATION and DTEND: the events show once, the empty values are named in one line")
    func emptyValues() throws {
        let reading = try read("empty-values.ics")
        #expect(reading.rows == [
            "2026-03-02T10:00:00+01:00 2026-03-02T10:30:00+01:00 empty-exdate",
            "2026-03-09T10:00:00+01:00 2026-03-09T10:30:00+01:00 empty-exdate",
            "2026-03-10T00:00:00+01:00 2026-03-11T00:00:00+01:00 holiday",
            "2026-03-11T10:00:00+01:00 2026-03-11T11:00:00+01:00 blank-rule",
            "2026-03-12T10:00:00+01:00 2026-03-12T11:00:00+01:00 empty-rdate",
            "2026-03-13T10:00:00+01:00 - empty-duration",
            "2026-03-14T09:00:00+01:00 2026-03-14T11:00:00+01:00 empty-dtend",
            "2026-03-16T10:00:00+01:00 2026-03-16T10:30:00+01:00 empty-exdate",
        ], "\(reading.rows.joined(separator: "\n"))")
        #expect(reading.stats.contains("calendar_problems: 3 ("), "the empty DTSTART, the empty RECURRENCE-ID, the note: \(reading.stats)")
        #expect(reading.log.contains("empty RRULE on line 10 and 1 more, empty EXDATE on line 27"), "\(reading.log)")
    }

    @Test("invalid and undefined input read as documented (docs/calendars.md, Deliberate deviations)")
    func deviations() throws {
        let reading = try read("deviations.ics")
        #expect(reading.rows == [
            "2026-03-02T09:00:00+01:00 2026-03-02T10:00:00+01:00 floating-utc-exdate",
            "2026-03-03T09:00:00+01:00 2026-03-03T10:00:00+01:00 floating-utc-exdate",
            "2026-03-04T10:00:00+01:00 2026-03-04T11:00:00+01:00 start-off-rule",  // DTSTART first, counted (3.3.10)
            "2026-03-05T09:00:00+01:00 2026-03-05T10:00:00+01:00 floating-utc-exdate",
            "2026-03-09T10:00:00+01:00 2026-03-09T11:00:00+01:00 start-off-rule",
            "2026-03-10T11:00:00+01:00 - end-before-start",  // no length: no end shown
            "2026-03-11T00:00:00+01:00 2026-03-12T00:00:00+01:00 date-start-time-end",
            "2026-03-11T00:00:00+01:00 2026-03-13T00:00:00+01:00 date-start-utc-end",
            "2026-03-12T10:00:00+01:00 2026-03-12T11:00:00+01:00 rdate-date-on-time",
            "2026-03-16T10:00:00+01:00 2026-03-16T11:00:00+01:00 start-off-rule",
            "2026-03-19T00:00:00+01:00 2026-03-19T01:00:00+01:00 rdate-date-on-time",
        ], "\(reading.rows.joined(separator: "\n"))")
        #expect(reading.stats.contains("calendar_problems: 0"), "\(reading.stats)")
    }
}
