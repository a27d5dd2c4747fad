import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct RenderPeriodTests {
    @Test(arguments: [
        ("HH:mm", 60), ("yyyy-MM-dd", 60), ("HH:mm:ss", 1), ("HH:mm:ss.SSS", nil), ("A", nil),
        ("'ss' HH:mm", 60), ("'it''s' HH:mm", 60), ("h 'o''clock' s", 1),
        ("%H:%M", 60), ("%F", 60), ("%T", 1), ("%s", 1), ("%-S", 1), ("%r", 1), ("%c", 1), ("%X", 1),
        ("%N", nil), ("%3N", nil), ("%H:%M:%S.%-9N", nil), ("%%S", 60), ("100%", 60),
    ] as [(String, Int?)])
    func periodFollowsTheSmallestField(pattern: String, expected: Int?) {
        #expect(RenderPeriod.seconds(forTimePattern: pattern) == expected, "\(pattern)")
    }

    private func ask(_ responder: Responder, _ pattern: String, at seconds: Double) -> String {
        responder.answer(.time(pattern: pattern), now: Instant(secondsSince1970: seconds),
                         counters: ServiceFigures(startedAt: Instant(secondsSince1970: 0))).text
    }

    /// A fraction is rendered for every request, not frozen for the second.
    @Test func fractionsAreRenderedPerRequest() throws {
        let responder = Responder(settings: try makeSettings(timezone: "UTC"))
        #expect(ask(responder, "HH:mm:ss.SSS", at: 1_796_000_000.125) == "00:53:20.125")
        #expect(ask(responder, "HH:mm:ss.SSS", at: 1_796_000_000.750) == "00:53:20.750")
    }

    /// A minute pattern is rendered once a minute: three requests in one minute are one
    /// formatting; the next minute is another. (`a` keeps it with ICU, whose cache counts.)
    @Test func minutePatternsAreRenderedOnceAMinute() throws {
        let responder = Responder(settings: try makeSettings(timezone: "Asia/Kathmandu"))
        let minute = 1_796_000_040.0  // 06:39:00 in Kathmandu (+05:45)
        for offset in [0.0, 20.5, 59.9] { #expect(ask(responder, "HH:mm a", at: minute + offset) == "06:39 AM") }
        #expect(responder.formatters.statistics.hits + responder.formatters.statistics.misses == 1)
        #expect(ask(responder, "HH:mm a", at: minute + 60) == "06:40 AM")
        #expect(responder.formatters.statistics.hits + responder.formatters.statistics.misses == 2)
    }
}
