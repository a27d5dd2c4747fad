import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// What `serve` makes of a config file with problems: everything it can use, the default in
/// place of the rest, and each problem placed in the file with what stands instead.
@Suite struct ConfigReadingTests {
    private func read(_ text: String) -> ConfigFile.Reading { ConfigFile.read(Array(text.utf8)) }

    private func resolved(_ text: String) throws -> (settings: Settings, problems: [ConfigError]) {
        let reading = read(text)
        let resolved = Settings.resolving(reading.file, positions: reading.positions, environment: [:], systemZone: try timeZone("Asia/Shanghai"))
        return (resolved.settings, ConfigError.inFileOrder(reading.problems + resolved.problems))
    }

    @Test func commentsAndTrailingCommas() throws {
        let reading = read("""
            // zaoan's config
            {
              "language": "en",   // English
              /* Tokyo, not Beijing */
              "city": "Tokyo",
              "bar_blocks": ["time", "greeting",],
            }
            """)
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        #expect(reading.file.language == "en" && reading.file.city == "Tokyo" && reading.file.barBlocks == ["time", "greeting"])
        #expect(reading.positions["city"] == TextPosition(line: 5, column: 11))
        #expect(reading.positions["bar_blocks.1"] == TextPosition(line: 6, column: 26))
    }

    @Test func unknownKeyIsIgnoredAndNamesTheOneMeant() throws {
        let (settings, problems) = try resolved("""
            {
              "language": "en",
              "soon_treshold": 60
            }
            """)
        #expect(settings.language == .en)
        #expect(settings.soonThreshold == 600, "the default")
        try #require(problems.count == 1, "\(problems)")
        let problem = problems[0]
        #expect(problem.key == "soon_treshold" && problem.position == TextPosition(line: 3, column: 3))
        #expect(problem.problem == "unknown key; did you mean 'soon_threshold'?")
        #expect(problem.fallback == .ignored)
        #expect(problem.inFile("/c.json").report == "/c.json:3:3: config key 'soon_treshold': unknown key; did you mean 'soon_threshold'? (ignored)")
    }

    @Test("a key whose value cannot be used gets its default; the others stand")
    func badValuesGetTheirDefaults() throws {
        let (settings, problems) = try resolved("""
            {
              "language": "en",
              "idle_timeout": "soon",
              "max_connections": 0,
              "soon_threshold": 1.5,
              "ticker_period": 1e400,
              "timezone": "Mars/Olympus",
              "greetings": {"06:00": "Rise", "7:00": "Shine"},
              "i3bar_markup": "html",
              "time_format": "HH:mm:ss"
            }
            """)
        #expect(settings.language == .en && settings.timeFormat == "HH:mm:ss")
        #expect(settings.idleTimeout == Settings.defaultIdleTimeout)
        #expect(settings.maxConnections == Settings.defaultMaxConnections)
        #expect(settings.soonThreshold == 600 && settings.tickerPeriod == 3)
        #expect(settings.zone.identifier == "Asia/Shanghai", "the machine's zone")
        // The bad row costs only itself: "Rise" from 06:00 round the clock.
        #expect(settings.greetings == GreetingTable([GreetingPeriod(start: 360, text: "Rise")]))
        #expect(!settings.i3barPango)
        let summary = problems.map { "\($0.position?.description ?? "-") \($0.key ?? "-") \($0.fallback.map { "\($0)" } ?? "-")" }
        #expect(summary == [
            "3:19 idle_timeout defaultUsed", "4:22 max_connections defaultUsed", "5:21 soon_threshold defaultUsed",
            "6:20 ticker_period defaultUsed", "7:15 timezone defaultUsed", "8:34 greetings.7:00 instead(\"the other rows stand; the row before it lasts until the next\")",
            "9:19 i3bar_markup defaultUsed",
        ], "\(problems)")
        try #require(problems.count == 7)
        #expect(problems[2].problem == "expected a whole number; 1.5 is not one")
        #expect(problems[3].problem == "expected a whole number; 1e400 is too large")
    }

    @Test("a bad entry of cities or calendars is left out; the others are kept")
    func badEntriesAreLeftOut() throws {
        let (settings, problems) = try resolved("""
            {
              "cities": {"Gotham": "America/New_York", "Atlantis": "Ocean/Deep", "Lilliput": 5},
              "calendars": ["/home/me/cal.ics", "relative.ics", 7],
              "city": "Gotham"
            }
            """)
        #expect(settings.zone(forCity: "Gotham")?.identifier == "America/New_York")
        #expect(settings.zone(forCity: "Atlantis") == nil && settings.zone(forCity: "Lilliput") == nil)
        #expect(settings.city == "Gotham" && settings.zone.identifier == "America/New_York")
        // A calendar of the wrong kind spoils the list's kind (the key's default, none);
        // without it, only the bad path is left out.
        #expect(settings.calendars == [])
        let summary = problems.map { "\($0.position?.description ?? "-") \($0.key ?? "-") \($0.fallback.map { "\($0)" } ?? "-")" }
        #expect(summary == ["2:44 cities.Atlantis entryLeftOut", "2:82 cities.Lilliput entryLeftOut", "3:53 calendars.2 defaultUsed"], "\(problems)")

        let paths = try resolved(#"{"calendars": ["/home/me/cal.ics", "relative.ics", "/a/../b"]}"#)
        #expect(paths.settings.calendars == ["/home/me/cal.ics"])
        #expect(paths.problems.map(\.position) == [TextPosition(line: 1, column: 36), TextPosition(line: 1, column: 52)])
        #expect(paths.problems.allSatisfy { $0.key == "calendars" && $0.fallback == .entryLeftOut })
    }

    @Test("a key twice is left out, wherever it is, naming both places")
    func repeatedKeys() throws {
        let (settings, problems) = try resolved("""
            {"language": "zh", "city": "Tokyo",
             "language": "en",
             "greetings": {"05:00": "a", "05:00": "b"}}
            """)
        #expect(settings.city == "Tokyo")
        #expect(settings.language == .en, "neither language: the environment's (none: English)")
        #expect(settings.greetings == GreetingTable.standard(for: .en))
        // The only row was written twice: it is left out, and with no row left the table is the default's.
        try #require(problems.map(\.key) == ["language", "greetings", "greetings.05:00"], "\(problems)")
        #expect(problems.map(\.position) == [TextPosition(line: 2, column: 2), TextPosition(line: 3, column: 15), TextPosition(line: 3, column: 30)])
        #expect(problems[0].problem == "appears twice in one object (first at 1:2); keep one")
    }

    @Test("a file that is not JSON, or not an object, leaves every key at its default", arguments: [
        ("{\n  \"language\": \"en\",\n  \"city\" \"Tokyo\"\n}", TextPosition(line: 3, column: 10), "not valid JSON: expected ':' after the key \"city\", found '\"'"),
        ("[\"language\"]", TextPosition(line: 1, column: 1), "expected an object of keys and values, as {\"city\": \"东京\"}, not an array"),
        ("language = en", TextPosition(line: 1, column: 1), "not valid JSON: expected a value"),
        ("{\"a\": 1} /* open", TextPosition(line: 1, column: 10), "not valid JSON: the comment that starts here is not closed"),
    ])
    func notJSON(text: String, position: TextPosition, problem: String) throws {
        let (settings, problems) = try resolved(text)
        #expect(settings.language == .en && settings.zone.identifier == "Asia/Shanghai")
        try #require(problems.count == 1, "\(problems)")
        #expect(problems[0].key == nil && problems[0].position == position && problems[0].fallback == .allDefaults)
        #expect(problems[0].problem.hasPrefix(problem), "\(problems[0])")
    }

    @Test("blanks and comments only: every default, nothing wrong", arguments: ["", "\n", "// all defaults\n", "/* */"])
    func emptyFile(text: String) throws {
        let (_, problems) = try resolved(text)
        #expect(problems.isEmpty)
    }

    @Test func strictResolveThrowsTheFirst() throws {
        let reading = read("{\n  \"idle_timeout\": 0,\n  \"max_rooms\": 0\n}")
        let utc = try timeZone("UTC")
        let error = configError { () throws(ConfigError) in
            try Settings.resolve(reading.file, positions: reading.positions, environment: [:], systemZone: utc)
        }
        #expect(error?.key == "idle_timeout" && error?.position == TextPosition(line: 2, column: 19))
        #expect(error?.inFile("/c.json").description == "/c.json:2:19: config key 'idle_timeout': must be between 1 and 86400, got 0")
    }

    @Test func flagsHaveNoPlace() throws {
        let resolved = Settings.resolving(ConfigFile(), overrides: SettingsOverrides(city: "Atlantis"), environment: [:],
                                          systemZone: try timeZone("Asia/Shanghai"))
        try #require(resolved.problems.map(\.key) == ["--city"])
        #expect(resolved.problems[0].position == nil)
        #expect(resolved.settings.zone.identifier == "Asia/Shanghai")
    }

    @Test("a file of 30,000 unknown keys: the first 64 get a did-you-mean, the rest name the manual page; 30,000 cities are all read, in the file's order")
    func largeFilesBounded() throws {
        // 8,000 different mixes of capitals of a known key, each with a suggestion to work out,
        // then keys near none.
        let letters = Array("soon_threshold")
        let places = letters.indices.filter { letters[$0].isLetter }
        let near = (1...8_000).map { number in  // 0 would be the key itself
            var spelled = letters
            for (bit, place) in places.enumerated() where number >> bit & 1 == 1 { spelled[place] = Character(spelled[place].uppercased()) }
            return String(spelled)
        }
        let keys = (near + (0..<22_000).map { "zz_\($0)" }).map { #""\#($0)": 1"# }.joined(separator: ", ")
        let reading = read("{" + keys + "}")
        #expect(reading.problems.count == 30_000)
        let hinted = reading.problems.filter { $0.problem.contains("did you mean") }
        #expect(hinted.count == ConfigFile.keysSpelled, "\(hinted.count) suggestions worked out")
        #expect(reading.problems[7_999].problem == "unknown key; zaoan.conf(5) lists the keys", "\(reading.problems[7_999])")

        let cities = (0..<30_000).map { #""City\#($0)": "Asia/Tokyo""# }.joined(separator: ", ")
        let (settings, problems) = try resolved(#"{"cities": {"# + cities + ", \"\": \"Asia/Tokyo\"}}")
        #expect(settings.cities["City29999"]?.identifier == "Asia/Tokyo")
        #expect(problems.count == 1 && problems[0].problem.contains("non-empty"), "\(problems.prefix(3))")
    }
}
