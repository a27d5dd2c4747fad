import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct ShortTextTests {
    @Test(arguments: [
        ("abc", 3), ("早茶", 4), ("早茶 abc", 8), ("ｆｕｌｌ", 8), ("e\u{301}", 1), ("🎤", 2), ("🎙", 1),
        ("a\u{200B}b", 2), ("한국", 4), ("", 0),
    ])
    func columns(text: String, expected: Int) {
        #expect(DisplayWidth.columns(text) == expected, "\(text)")
    }

    @Test func prefixKeepsWholeCharactersWithinTheLimit() {
        #expect(DisplayWidth.prefix("早茶", columns: 10) == "早茶")
        #expect(DisplayWidth.prefix("睡前读一章节目真的很长", columns: 10) == "睡前读一…")
        #expect(DisplayWidth.prefix("abcdefghijkl", columns: 10) == "abcdefgh…")
        // A title of combining marks cannot grow the text: each character keeps a few scalars.
        let marks = "a" + String(repeating: "\u{301}", count: 10_000)
        let cut = DisplayWidth.prefix(marks, columns: 10)
        #expect(cut.unicodeScalars.count <= 10 * 4 + 1)
        #expect(DisplayWidth.columns(cut) <= 10)
    }

    private func blocks(_ responder: Responder, at now: Instant) throws -> (ticker: String, countdown: String) {
        let counters = ServiceFigures(startedAt: now)
        let ticker = try responder.structured(.ticker(skip: 0), now: now, counters: counters).shortText
        let countdown = try responder.structured(.countdown(id: nil), now: now, counters: counters).shortText
        return (try #require(ticker), try #require(countdown))
    }

    /// A narrow bar shows short texts: the ticker's and the countdown's differ (title and
    /// place, title and clock), title first, at most 20 columns.
    @Test(arguments: ["zh", "en"])
    func tickerAndCountdownShortTextsDiffer(language: String) throws {
        let now = try instant("2026-12-01T00:00:00Z")
        let responder = Responder(settings: try makeSettings(language: language, timezone: "Asia/Shanghai"))
        var schedule = LiveSchedule()
        try schedule.upsert(LiveRoom(id: "a", title: "睡前读一章：长长的标题，远远超过二十列", start: now.adding(seconds: -600),
                                     end: now.adding(seconds: 3600)), limit: 10)
        try schedule.upsert(LiveRoom(id: "b", title: "早茶", start: now.adding(seconds: 1705)), limit: 10)
        responder.commit(schedule)
        let (ticker, countdown) = try blocks(responder, at: now)
        #expect(ticker != countdown)
        #expect(countdown == "睡前读一… +00:10:00", "\(countdown)")
        #expect(ticker.hasSuffix(" 1/2") || ticker.hasSuffix(" 2/2"), "\(ticker)")
        for text in [ticker, countdown] { #expect(DisplayWidth.columns(text) <= 20, "\(text)") }
    }
}
