import Glibc
import ZaoanCalendar

/// `zaoan-bench calendar`: parse and expansion cost of a large calendar, in-process.
struct CalendarOptions {
    var events = 10_000
    var series = 1_000
    var rounds = 5
    /// Write the generated calendar to this file instead of measuring.
    var write: String?
}

struct CalendarResult {
    var bytes = 0
    var parseMilliseconds: [Double] = []
    var expandMilliseconds: [Double] = []
    var occurrences = 0
    var problems = 0
    var peakGrowthKiB = 0
    var nextNanoseconds = 0.0
    /// Reading one file of a vdir (the VTIMEZONE and one event), as a folder of them is read.
    var vdirFileMicroseconds: [Double] = []
}

/// An Outlook-style VTIMEZONE (rules from 1601), as every file of an Exchange export has it.
let outlookZone = """
    BEGIN:VTIMEZONE\r
    TZID:W. Europe Standard Time\r
    BEGIN:STANDARD\r
    DTSTART:16011028T030000\r
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
    TZOFFSETFROM:+0200\r
    TZOFFSETTO:+0100\r
    END:STANDARD\r
    BEGIN:DAYLIGHT\r
    DTSTART:16010325T020000\r
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r
    TZOFFSETFROM:+0100\r
    TZOFFSETTO:+0200\r
    END:DAYLIGHT\r
    END:VTIMEZONE\r

    """

/// A calendar like a busy work account's export: `outlookZone`, `series` recurring events of a few kinds (daily, weekdays, every other week,
/// monthly by position; some with EXDATEs and a moved instance) and single events an hour
/// apart over the year around 2026-03-27.
func generatedCalendar(events: Int, series: Int) -> String {
    var text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//zaoan-bench//calendar//EN\r

        """ + outlookZone
    let rules = ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "FREQ=MONTHLY;BYDAY=-1FR"]
    let zones = ["TZID=W. Europe Standard Time", "TZID=America/New_York", "TZID=Europe/Berlin"]
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    for index in 0..<series {
        let hour = 7 + index % 10
        let zone = zones[index % zones.count]
        text += "BEGIN:VEVENT\r\nUID:series-\(index)@bench\r\nSUMMARY:Series \(index)\r\n"
        text += "DTSTART;\(zone):202601\(two(1 + index % 28))T\(two(hour))0000\r\nDTEND;\(zone):202601\(two(1 + index % 28))T\(two(hour))3000\r\n"
        text += "RRULE:\(rules[index % rules.count])\r\n"
        if index % 10 == 0 { text += "EXDATE;\(zone):20260327T\(two(hour))0000\r\n" }
        text += "END:VEVENT\r\n"
        if index % 10 == 1 {
            text += "BEGIN:VEVENT\r\nUID:series-\(index)@bench\r\nSUMMARY:Series \(index) (moved)\r\nRECURRENCE-ID;\(zone):20260327T\(two(hour))0000\r\n"
            text += "DTSTART;\(zone):20260327T\(two(hour + 1))0000\r\nDTEND;\(zone):20260327T\(two(hour + 1))3000\r\nEND:VEVENT\r\n"
        }
    }
    let firstSingle: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    for index in 0..<max(0, events - series) {
        var seconds = time_t(firstSingle + Int64(index) * 3600)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let stamp = "\(parts.tm_year + 1900)\(two(Int(parts.tm_mon) + 1))\(two(Int(parts.tm_mday)))T\(two(Int(parts.tm_hour)))0000Z"
        text += "BEGIN:VEVENT\r\nUID:single-\(index)@bench\r\nSUMMARY:Single \(index)\r\nLOCATION:Room \(index % 40)\r\n"
        text += "DTSTART:\(stamp)\r\nDURATION:PT45M\r\nEND:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
}

/// Peak resident set (VmHWM) in KiB.
func peakResidentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    }
    return 0
}

func runCalendar(_ options: CalendarOptions) throws -> CalendarResult {
    var result = CalendarResult()
    let bytes = Array(generatedCalendar(events: options.events, series: options.series).utf8)
    result.bytes = bytes.count
    let zone = try CalendarZone(named: "Europe/Berlin")
    let now: Int64 = 1_774_598_400  // 2026-03-27T08:00:00Z
    let window = try CalendarWindow.following(now - 8 * 3600)
    let peakBefore = peakResidentKiB()
    var last: CalendarExpansion?
    for _ in 0..<options.rounds {
        let parseStart = monotonicNanos()
        let document = try CalendarDocument(parsing: bytes, source: "bench.ics")
        let expandStart = monotonicNanos()
        last = document.occurrences(in: window, defaultZone: zone)
        let end = monotonicNanos()
        result.parseMilliseconds.append(Double(expandStart - parseStart) / 1e6)
        result.expandMilliseconds.append(Double(end - expandStart) / 1e6)
        result.problems = document.skipped.count + (last?.problems.count ?? 0)
    }
    guard let expansion = last else { throw CalendarBenchFailure(description: "no round ran") }
    result.peakGrowthKiB = peakResidentKiB() - peakBefore
    result.occurrences = expansion.occurrences.count
    // The next occurrence after a moving `now`, over the sorted list (a binary search).
    let calls = 1_000_000
    var found = 0
    let nextStart = monotonicNanos()
    for call in 0..<calls {
        if expansion.next(after: now + Int64(call % 86_400)) != nil { found += 1 }
    }
    result.nextNanoseconds = Double(monotonicNanos() - nextStart) / Double(calls)
    if found == 0 { throw CalendarBenchFailure(description: "no next occurrence found") }
    // One vdir file, read 1,000 times: its VTIMEZONE is what most of the time goes to.
    let vdirFile = Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//zaoan-bench//vdir//EN\r\n" + outlookZone
        + "BEGIN:VEVENT\r\nUID:one@bench\r\nSUMMARY:One\r\nDTSTART;TZID=W. Europe Standard Time:20260327T090000\r\n"
        + "DURATION:PT1H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
    for _ in 0..<1_000 {
        let start = monotonicNanos()
        let document = try CalendarDocument(parsing: vdirFile, source: "one.ics")
        result.vdirFileMicroseconds.append(Double(monotonicNanos() - start) / 1e3)
        if document.events.count != 1 { throw CalendarBenchFailure(description: "the vdir file has no event") }
    }
    return result
}

struct CalendarBenchFailure: Error, CustomStringConvertible {
    let description: String
}
