import Foundation
import Testing

/// Issue 19's shapes (points 1–6: what other readers' test calendars showed zaoan reading
/// otherwise), each sample of Tests/ZaoanCalendarTests/Samples read by the real service under
/// a faked clock: what `schedule 744` lists.
@Suite("calendars: RDATE periods, mixed frames, late VTIMEZONEs, THISANDFUTURE, Outlook's all-day overrides, re-sent invitations")
struct CalendarPeerShapeTests {
    /// `START END TITLE` of each row of `schedule 744` for the sample alone, the clock at
    /// `clock` (UTC), the service in `zone`; and `stats`.
    static func schedule(_ sample: String, clock: String, zone: String = "Europe/Berlin") throws -> (rows: [String], stats: String) {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let service = try CalendarSamples.service(reading: [sample], in: folder, clock: clock, zone: zone)
        defer { try? service.stop() }
        let rows = try service.scheduleRows()
        return (rows, try service.ask("stats"))
    }

    @Test("RDATE;VALUE=PERIOD: each instance lasts its period (…/PT2H, …/P1DT1H, …/an end)")
    func rdatePeriods() throws {
        let (rows, stats) = try Self.schedule("rdate-period.ics", clock: "2026-03-01 00:00:00")
        #expect(rows == [
            "2026-03-02T09:00:00+01:00 2026-03-02T10:00:00+01:00 Office hours",
            "2026-03-04T14:00:00+01:00 2026-03-04T16:00:00+01:00 Office hours",
            "2026-03-05T14:00:00+01:00 2026-03-05T14:30:00+01:00 Office hours",
            "2026-03-06T08:00:00+01:00 2026-03-07T09:00:00+01:00 Office hours",
        ], "\(rows)")
        #expect(stats.contains("calendar_problems: 0"), "\(stats)")
    }

    @Test("a zoned or UTC DTSTART with a floating DTEND and the reverse: each in its own frame, floating in the configured zone")
    func startAndEndInTheirOwnFrames() throws {
        let (rows, _) = try Self.schedule("mixed-frames.ics", clock: "2026-03-01 00:00:00", zone: "Asia/Shanghai")
        #expect(rows == [
            "2026-03-03T19:00:00+08:00 2026-03-03T20:00:00+08:00 Berlin start, floating end",
            "2026-03-04T18:00:00+08:00 2026-03-04T19:00:00+08:00 Floating start, Berlin end",
            "2026-03-05T18:00:00+08:00 2026-03-05T19:00:00+08:00 UTC start, floating end",
        ], "\(rows)")
    }

    @Test("a VTIMEZONE for Europe/Berlin exported from 2018 on: a 2016 event at its Berlin time, a 2019 one by the file's zone")
    func zoneBeforeItsFirstObservance() throws {
        let winter = try Self.schedule("vtimezone-starts-later.ics", clock: "2016-11-20 00:00:00")
        #expect(winter.rows == ["2016-12-03T14:00:00+01:00 2016-12-03T19:00:00+01:00 Repair café, winter 2016"], "\(winter.rows)")
        let later = try Self.schedule("vtimezone-starts-later.ics", clock: "2019-01-01 00:00:00")
        #expect(later.rows == ["2019-01-12T14:00:00+01:00 2019-01-12T19:00:00+01:00 Repair café, winter 2019"], "\(later.rows)")
    }

    @Test("RANGE=THISANDFUTURE: the override's shift, length and title carry to every later instance, RDATEs too")
    func thisAndFuture() throws {
        let (rows, _) = try Self.schedule("this-and-future.ics", clock: "2026-03-01 00:00:00")
        let afternoons = "Standup (afternoons from the 5th)"
        let later = "Standup (a day later, at 8, from the 10th)"
        #expect(rows == [
            "2026-03-02T10:00:00+01:00 2026-03-02T11:00:00+01:00 Standup",
            "2026-03-03T10:00:00+01:00 2026-03-03T11:00:00+01:00 Standup",
            "2026-03-04T10:00:00+01:00 2026-03-04T11:00:00+01:00 Standup",
            "2026-03-05T14:00:00+01:00 2026-03-05T14:30:00+01:00 \(afternoons)",
            "2026-03-06T14:00:00+01:00 2026-03-06T14:30:00+01:00 \(afternoons)",
            "2026-03-06T21:00:00+01:00 2026-03-06T21:30:00+01:00 \(afternoons)",
            "2026-03-07T14:00:00+01:00 2026-03-07T14:30:00+01:00 \(afternoons)",
            "2026-03-08T09:00:00+01:00 2026-03-08T09:15:00+01:00 Standup (Sunday morning, once)",
            "2026-03-09T14:00:00+01:00 2026-03-09T14:30:00+01:00 \(afternoons)",
            "2026-03-11T08:00:00+01:00 2026-03-11T08:45:00+01:00 \(later)",
            "2026-03-12T08:00:00+01:00 2026-03-12T08:45:00+01:00 \(later)",
            "2026-03-13T08:00:00+01:00 2026-03-13T08:45:00+01:00 \(later)",
            "2026-03-14T08:00:00+01:00 2026-03-14T08:45:00+01:00 \(later)",
        ], "\(rows)")
    }

    @Test("an all-day series with DATE-TIME RECURRENCE-IDs (Outlook): the moved days only, not their originals too")
    func dateTimeRecurrenceIDOnAllDaySeries() throws {
        let (rows, _) = try Self.schedule("all-day-datetime-recurrence-id.ics", clock: "2026-03-01 00:00:00")
        #expect(rows == [
            "2026-03-02T00:00:00+01:00 2026-03-03T00:00:00+01:00 Bins out",
            "2026-03-10T00:00:00+01:00 2026-03-11T00:00:00+01:00 Bins out (Tuesday this week)",
            "2026-03-18T00:00:00+01:00 2026-03-19T00:00:00+01:00 Bins out (Wednesday this week)",
            "2026-03-23T00:00:00+01:00 2026-03-24T00:00:00+01:00 Bins out",
        ], "\(rows)")
    }

    @Test("an invitation received several times: one row each, the highest SEQUENCE then the latest DTSTAMP")
    func resentInvitation() throws {
        let (rows, _) = try Self.schedule("resent-invitation.ics", clock: "2026-03-01 00:00:00")
        #expect(rows == [
            "2026-03-02T16:00:00+01:00 2026-03-02T17:00:00+01:00 Weekly",
            "2026-03-03T15:00:00+01:00 2026-03-03T16:00:00+01:00 Planning (moved to the afternoon)",
            "2026-03-04T13:00:00+01:00 2026-03-04T14:00:00+01:00 Lunch (the later DTSTAMP)",
            "2026-03-04T16:00:00+01:00 2026-03-04T16:30:00+01:00 Coffee (the later DTSTAMP)",
            "2026-03-05T09:00:00+01:00 2026-03-05T10:00:00+01:00 Review",
            "2026-03-09T18:00:00+01:00 2026-03-09T19:00:00+01:00 Weekly (the 9th, late)",
            "2026-03-23T16:00:00+01:00 2026-03-23T17:00:00+01:00 Weekly",
        ], "\(rows)")
    }
}
