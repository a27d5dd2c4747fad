import Testing
import ZaoanCalendar
import ZaoanCore
import ZaoanRecurrence
@testable import ZaoanServer

/// The reader process's job and answers cross a pipe as escaped tab-separated lines: any
/// text a calendar or a room holds must arrive as it left.
@Suite("reader process: the wire format")
struct ReaderWireTests {
    static let awkward = ["", "plain", "tab\there", "line\nbreak", "cr\rlf\r\n", "back\\slash\\t", "\\", "早安·北京 \u{202E}x", "end\\"]

    @Test("fields with tabs, line ends and backslashes come back as they were", arguments: awkward)
    func fieldRoundTrip(_ text: String) {
        var bytes: [UInt8] = []
        ReaderWire.append(["E", text, "after"], to: &bytes)
        #expect(bytes.filter { $0 == 0x0A }.count == 1, "one line, whatever the text holds")
        #expect(ReaderWire.lines(bytes) == [["E", text, "after"]])
    }

    @Test("lines are cut at maxLineBytes: the longest line arrives whole across reads, a longer one ends the stream")
    func boundedLines() throws {
        var longest: [UInt8] = []
        ReaderWire.append(["O", String(repeating: "7", count: ReaderWire.maxLineBytes - 2)], to: &longest)
        #expect(longest.count == ReaderWire.maxLineBytes + 1, "the longest line and its LF")
        #expect(ReaderWire.lines(longest)?.first?.last?.count == ReaderWire.maxLineBytes - 2)
        // Across reads of 64 KiB, as the supervisor reads the pipe, with a short line after it.
        var framer = LineFramer(lineLimit: ReaderWire.maxLineBytes)
        var got: [[String]] = []
        let stream = longest + Array("L\n".utf8)
        for start in stride(from: 0, to: stream.count, by: 65_536) {
            let piece = try #require(stream[start..<min(start + 65_536, stream.count)].withUnsafeBytes { ReaderWire.lines(in: $0, framer: &framer) })
            got += piece
        }
        #expect(got.map(\.first) == ["O", "L"])
        // One byte more ends it, whether it comes in one read or in many.
        var tooLong: [UInt8] = []
        ReaderWire.append(["O", String(repeating: "7", count: ReaderWire.maxLineBytes - 1)], to: &tooLong)
        let refused = ReaderWire.lines(tooLong) == nil  // not compared whole: a failure would print a megabyte
        #expect(refused)
        var again = LineFramer(lineLimit: ReaderWire.maxLineBytes)
        var ended = false
        for start in stride(from: 0, to: tooLong.count, by: 65_536) where !ended {
            ended = tooLong[start..<min(start + 65_536, tooLong.count)].withUnsafeBytes { ReaderWire.lines(in: $0, framer: &again) } == nil
        }
        #expect(ended, "a line of maxLineBytes + 1 bytes ends the stream before its end arrives")
        let notAJob = ReaderJob(decoding: tooLong) == nil
        #expect(notAJob)
    }

    @Test("a job comes back as it was; anything else is not a job")
    func jobRoundTrip() {
        var job = ReaderJob(zone: "Europe/Berlin", now: 1_796_000_000)
        job.windowSeconds = 744 * 3600
        job.calendars = ["/home/me/cal\tendar", "/etc/zaoan/calendars"]
        job.skippedFiles = ["/home/me/cal\tendar/bad\n.ics"]
        job.defaultDuration = 3600
        job.checkRooms = true
        job.rooms = [.init(id: "news", series: .init(start: 1_796_000_000.5, end: nil, rule: "FREQ=DAILY", skippedDays: ["2026-12-24", "2026-12-25"], zone: "Europe/Berlin")),
                     .init(id: "r\\2", series: .init(start: 0, end: 3600, rule: "FREQ=WEEKLY;BYDAY=MO", skippedDays: [], zone: "Europe/Berlin"))]
        #expect(ReaderJob(decoding: job.encoded) == job)
        #expect(ReaderJob(decoding: Array("N\tsoon\n".utf8)) == nil)
        #expect(ReaderJob(decoding: Array("Q\tx\n".utf8)) == nil)
    }

    @Test("an event crosses as it left: its texts, alarms, status and meeting link (E, 14 fields)", arguments: awkward)
    func eventRoundTrip(_ text: String) throws {
        let alarm = try Alarm(anchor: .start, seconds: -600)
        for join in [nil, MeetingLink(url: "https://zoom.us/j/1?pwd=a%09b", provider: .zoom),
                     MeetingLink(url: "https://example.org/room", provider: nil),
                     MeetingLink(url: "https://teams.microsoft.com/l/meetup-join/x", provider: .teams)] {
            let event = CalendarOccurrence(uid: "u\(text)", source: "/cal/\(text).ics", start: 1_796_000_000, end: 1_796_003_600, isAllDay: false,
                                           title: text.isEmpty ? nil : text, location: "at \(text)", description: "line\n\(text)",
                                           url: "https://example.org/e", join: join, status: .tentative, alarms: [alarm])
            var bytes: [UInt8] = []
            ReaderWire.append(ReaderWire.eventFields(event), to: &bytes)
            let lines = try #require(ReaderWire.lines(bytes))
            #expect(lines.count == 1 && lines.first?.count == 14)
            #expect(lines.first.flatMap(ReaderWire.event) == event)
        }
    }

    @Test("a join link that fails the checks does not cross; a line of another length is no event")
    func eventRefusals() {
        var fields = ReaderWire.eventFields(CalendarOccurrence(uid: "u", source: "s", start: 0, end: 1, isAllDay: false, title: "t", location: nil,
                                                               description: nil, url: nil, join: MeetingLink(url: "https://zoom.us/j/1", provider: .zoom), status: nil))
        #expect(ReaderWire.event(fields)?.join?.provider == .zoom)
        for hostile in ["javascript:alert(1)", "https://zoom.us/j/1\u{202E}gpj.exe", "file:///etc/passwd"] {
            fields[12] = hostile
            #expect(ReaderWire.event(fields) != nil && ReaderWire.event(fields)?.join == nil, "\(hostile)")
        }
        #expect(ReaderWire.event(Array(fields.prefix(12))) == nil)
        #expect(ReaderWire.event(fields + ["extra"]) == nil)
    }
}
