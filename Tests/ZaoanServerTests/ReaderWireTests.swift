import Testing
import ZaoanCore
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
}
