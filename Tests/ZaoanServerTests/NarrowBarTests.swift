import Foundation
import Testing

/// When i3bar runs out of room it shows each block's `short_text`: the ticker's and the
/// countdown's must stay apart and useful (title first, then the clock or the ticker's
/// place), at most 20 columns — also for a title of combining marks.
@Suite("Narrow bars: short texts")
struct NarrowBarTests {
    private func shortText(_ service: TestService, _ request: String) throws -> String {
        let line = try service.ask("--format=i3bar " + request)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["short_text"] as? String, "\(line)")
    }

    @Test("ticker and countdown short texts differ, title first, at most 20 columns", arguments: ["zh", "en"])
    func shortTexts(language: String) throws {
        let service = try TestService.start(arguments: ["--language", language, "--timezone", "Asia/Shanghai"])
        defer { try? service.stop() }
        let marks = "Z" + String(repeating: "\u{0301}", count: 120)
        #expect(try service.ask("live add yedu -10m 睡前读一章：长长的标题远远超过二十列 end=+2h") == "ok\n")
        #expect(try service.ask("live add zaocha +30m 早茶") == "ok\n")
        #expect(try service.ask("live add marks +3h \"\(marks)\"") == "ok\n")
        let ticker = try shortText(service, "ticker")
        let countdown = try shortText(service, "countdown")
        let marksBlock = try shortText(service, "ticker 2")
        #expect(ticker != countdown, "\(ticker) / \(countdown)")
        #expect(countdown.hasPrefix("睡前读一") && countdown.contains(" +00:"), "\(countdown)")
        #expect(ticker.hasSuffix("/3"), "\(ticker)")
        let texts = [ticker, countdown, marksBlock]
        for (text, columns) in zip(texts, try Self.columns(texts)) {
            #expect(columns <= 20 && text.unicodeScalars.count <= 90, "\(columns) columns, \(text.unicodeScalars.count) scalars: \(text)")
        }
    }

    /// The columns each text takes, measured by Python's unicodedata rather than zaoan's own
    /// `DisplayWidth` (the code that cut the texts): East Asian Wide, Fullwidth and Ambiguous
    /// (`…`, which CJK fonts draw wide) take two, combining marks, format and control
    /// characters none, the rest one.
    static func columns(_ texts: [String]) throws -> [Int] {
        let script = """
            import json, sys, unicodedata
            def width(c):
                if unicodedata.category(c) in ("Mn", "Me", "Cf", "Cc"): return 0
                return 2 if unicodedata.east_asian_width(c) in ("W", "F", "A") else 1
            for text in json.load(sys.stdin): print(sum(width(c) for c in text))
            """
        let input = try JSONSerialization.data(withJSONObject: texts)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try Tool.run(Neighbour.python, ["-c", script], stdin: input,
                                  environment: Tool.baseEnvironment(home: directory.path), scratch: directory)
        let widths = result.output.split(separator: "\n").compactMap { Int($0) }
        guard result.status == 0, widths.count == texts.count else { throw TestFailure("python's unicodedata: \(result)") }
        return widths
    }
}
