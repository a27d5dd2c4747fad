import Testing
@testable import ZaoanCore

/// A watched bar line of clocks, compiled once (`WatchedLine`), is byte for byte the line
/// the ordinary answer gives, in every language, with Pango markup or without, with zone
/// labels, across zone changes; and it is used wherever the clock's text is plain.
@Suite struct WatchedLineTests {
    private static let languages = ["zh", "zh-Hant", "en", "ja", "ko", "de", "fr", "es"]

    /// Clocks of numbers only: compiled, and rendered from the compiled form at every instant.
    private static let numericLines = [
        "time HH:mm:ss",
        "time yyyy-MM-dd HH:mm:ss",
        "time HH:mm @Asia/Tokyo ; time HH:mm:ss @Australia/Lord_Howe ; time H:mm @America/St_Johns",
        "time d/M/yy h:mm:ss.SSS @Asia/Kolkata",
        "time HH:mm xxx @Europe/Berlin ; time 'at' HH:mm @UTC",
        "time HH:mm:ss @Etc/GMT-14 ; time HH:mm:ss @Asia/Kathmandu",
    ]
    /// Clocks with names and words in every language (Chinese months and weekdays, en's
    /// narrow no-break space before AM/PM, zone names): nothing to escape, so they too are
    /// rendered from the compiled form at every instant.
    private static let wordLines = [
        "time",
        "time EEE d MMM HH:mm @Europe/Paris",
        "time h:mm a ; time zzzz",
        "time M月d日 EEEE HH:mm ; time HH:mm VVVV @Asia/Shanghai",
    ]
    /// A clock whose text Pango escapes (`'` as `&#39;`): compiled, and answered the
    /// ordinary way at every instant.
    private static let escapedLines = ["time HH''mm"]

    /// Instants over two centuries, and seconds either side of Berlin's and Lord Howe's
    /// changes in 2026 (Lord Howe moves by half an hour), each with a fraction.
    private static func instants() -> [Instant] {
        var generator = SystemRandomNumberGenerator()
        var seconds = (0..<300).map { _ in Int.random(in: -2_208_988_800...4_102_444_800, using: &generator) }
        for change in [1_774_746_000, 1_792_890_000, 1_775_314_800, 1_791_043_200] {
            seconds += (-2...2).map { change + $0 * 1_800 - 1 } + (-2...2).map { change + $0 }
        }
        return seconds.map { Instant(secondsSince1970: Double($0) + Double.random(in: 0..<1, using: &generator)) }
    }

    private func check(_ lines: [String], allCompiled: Bool) throws -> (compiled: Int, ordinary: Int) {
        let instants = Self.instants()
        var compiled = 0, ordinary = 0
        for language in Self.languages {
            for pango in [false, true] {
                var settings = try makeSettings(language: language, timezone: "Asia/Shanghai")
                settings.i3barPango = pango
                let responder = Responder(settings: settings)
                for text in lines {
                    let request = try #require(try RequestParser.parse("watch --format=i3bar blocks " + text))
                    let line = try #require(responder.watchedLine(request), "\(text) in \(language) is not compiled")
                    for now in instants {
                        let expected = responder.answer(request, now: now, counters: ServiceFigures(startedAt: now))
                        guard let reply = line.render(at: now) else {
                            #expect(!allCompiled, "\(text) in \(language) at \(now.unixSeconds): not rendered from its compiled form")
                            ordinary += 1
                            continue
                        }
                        compiled += 1
                        #expect(reply == expected, "\(text) in \(language), pango \(pango), at \(now.unixSeconds)s:\n\(reply.text)\n\(expected.text)")
                    }
                }
            }
        }
        return (compiled, ordinary)
    }

    @Test("clocks of numbers: the compiled line is the ordinary line at every instant, never falling back")
    func numericClocks() throws {
        let counts = try check(Self.numericLines, allCompiled: true)
        #expect(counts.compiled == Self.languages.count * 2 * Self.numericLines.count * Self.instants().count && counts.ordinary == 0, "\(counts)")
    }

    @Test("clocks with names in every language: the compiled line is the ordinary line at every instant, never falling back")
    func clocksWithWords() throws {
        let counts = try check(Self.wordLines, allCompiled: true)
        #expect(counts.compiled == Self.languages.count * 2 * Self.wordLines.count * Self.instants().count && counts.ordinary == 0, "\(counts)")
    }

    @Test("a clock Pango would escape: answered the ordinary way at every instant")
    func clocksToEscape() throws {
        let counts = try check(Self.escapedLines, allCompiled: false)
        #expect(counts.compiled == 0 && counts.ordinary == Self.languages.count * 2 * Self.escapedLines.count * Self.instants().count, "\(counts)")
    }

    @Test("what is not a line of clocks is not compiled", arguments: [
        "watch --format=i3bar blocks greeting ; time HH:mm",
        "watch --format=i3bar blocks time %H:%M",
        "watch --format=i3bar blocks time HH:mm @Nowhere/Zone",
        "watch --format=i3bar blocks time HH:mm ; countdown",
        "watch time HH:mm",
        "watch --format=json time HH:mm",
    ])
    func notCompiled(line: String) throws {
        let responder = Responder(settings: try makeSettings(language: "en", timezone: "UTC"))
        let request = try #require(try RequestParser.parse(line))
        #expect(responder.watchedLine(request) == nil)
    }
}
