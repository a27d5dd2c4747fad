import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct LanguageTests {
    @Test(arguments: [
        ([String: String](), Language.en),
        (["LANG": "zh_CN.UTF-8"], .zh),
        (["LANG": "zh_TW.Big5"], .zhHant),
        (["LANG": "zh_TW.UTF-8"], .zhHant),
        (["LANG": "zh_HK.UTF-8"], .zhHant),
        (["LANG": "zh_MO.UTF-8"], .zhHant),
        (["LANG": "zh_SG.UTF-8"], .zh),
        (["LANG": "zh_CN.GB18030"], .zh),
        (["LANG": "ja_JP.UTF-8"], .ja),
        (["LANG": "ja"], .ja),
        (["LANG": "ko_KR.UTF-8"], .ko),
        (["LANG": "de_AT.UTF-8"], .de),
        (["LANG": "de_DE@euro"], .de),
        (["LANG": "fr_CA.UTF-8"], .fr),
        (["LANG": "es_MX.UTF-8"], .es),
        (["LANG": "POSIX"], .en),
        (["LANG": "C"], .en),
        (["LANG": "pt_BR.UTF-8"], .en),
        (["LANG": "jam_JM.UTF-8"], .en),
        (["LC_ALL": "ja_JP.UTF-8", "LANG": "zh_TW.UTF-8"], .ja),
        (["LANG": "ZH_CN.UTF-8"], .zh),
        (["LANG": "zh"], .zh),
        (["LANG": "en_US.UTF-8"], .en),
        (["LANG": "C.UTF-8"], .en),
        (["LANG": ""], .en),
        (["LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"], .zh),
        (["LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"], .en),
        (["LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8", "LANG": "zh_CN.UTF-8"], .en),
        (["LC_ALL": "", "LANG": "zh_CN.UTF-8"], .zh),  // empty means unset
        (["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"], .zh),
        (["LC_MESSAGES": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"], .en),
        (["LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"], .zh),
        (["LC_TIME": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"], .en),  // only messages count
    ])
    func fromEnvironment(environment: [String: String], expected: Language) {
        #expect(Language.fromEnvironment(environment) == expected)
    }

    @Test func localeIdentifiers() {
        #expect(Language.zh.localeIdentifier == "zh_CN")
        #expect(Language.en.localeIdentifier == "en_US")
        #expect(Language.allCases.map(\.localeIdentifier) == ["zh_CN", "en_US", "zh_TW", "ja_JP", "ko_KR", "de_DE", "fr_FR", "es_ES"])
    }

    /// The tags `language` and `--language` take, case-insensitively.
    @Test(arguments: [
        ("zh", Language.zh), ("zh-Hans", .zh), ("zh-CN", .zh), ("zh-SG", .zh), ("zh-hans-cn", .zh), ("ZH", .zh), ("zh_CN", .zh),
        ("zh-Hant", .zhHant), ("zh-hant", .zhHant), ("ZH-HANT", .zhHant), ("zh-TW", .zhHant), ("zh-HK", .zhHant), ("zh-MO", .zhHant),
        ("zh_TW", .zhHant), ("zh-Hant-CN", .zhHant), ("zh-Hans-TW", .zh),
        ("en", .en), ("en-US", .en), ("en-GB", .en), ("en-001", .en),
        ("ja", .ja), ("ja-JP", .ja), ("JA", .ja), ("ko", .ko), ("ko-KR", .ko),
        ("de", .de), ("de-AT", .de), ("de-CH", .de), ("fr", .fr), ("fr-CA", .fr), ("es", .es), ("es-419", .es), ("es-MX", .es),
    ])
    func tags(tag: String, expected: Language) {
        #expect(Language(tag: tag) == expected)
    }

    @Test(arguments: ["", "x", "fra", "pt", "zh-Latn", "ja-Jpan", "de-DE-1996", "de-", "-de", "de--AT", "zh-Hant-", "en-USA",
                      "ja_JP.UTF-8", "zh-TW-x", "de-A1", String(repeating: "a", count: 40), "ｊａ", "de-ÄT"])
    func refusedTags(tag: String) {
        #expect(Language(tag: tag) == nil)
    }

    /// The raw value (what config, logs and check-config show) is the tag, and reads back.
    @Test func rawValuesAreTags() {
        #expect(Language.allCases.map(\.rawValue) == ["zh", "en", "zh-Hant", "ja", "ko", "de", "fr", "es"])
        for language in Language.allCases { #expect(Language(tag: language.rawValue) == language) }
    }
}

@Suite struct SettingsTests {
    @Test func defaults() throws {
        let settings = try Settings.resolve(ConfigFile(), environment: [:], systemZone: try timeZone("Asia/Shanghai"))
        #expect(settings.language == .en)
        #expect(settings.city == "Beijing")
        #expect(settings.zone.identifier == "Asia/Shanghai")
        #expect(settings.separator == " · ")
        #expect(settings.greetings == .english)
        #expect(settings.timeFormat == "HH:mm")
        #expect(settings.idleTimeout == 300)
        #expect(settings.formatterCacheSize == 64)
        #expect(settings.maxConnections == 1024)
        #expect(settings.zone(forCity: "Beijing")?.identifier == "Asia/Shanghai")
        #expect(settings.zone(forCity: "东京")?.identifier == "Asia/Tokyo")
    }

    @Test func chineseDefaultsFromTheEnvironment() throws {
        let settings = try Settings.resolve(ConfigFile(), environment: ["LANG": "zh_CN.UTF-8"], systemZone: try timeZone("Asia/Shanghai"))
        #expect(settings.language == .zh)
        #expect(settings.city == "北京")
        #expect(settings.separator == "·")
        #expect(settings.greetings == .chinese)
    }

    /// With no city or zone configured, the machine's zone picks the default city.
    @Test(arguments: [
        ("Asia/Shanghai", "北京", "Beijing"),
        ("Asia/Tokyo", "东京", "Tokyo"),
        ("Europe/Berlin", "柏林", "Berlin"),
        ("America/New_York", "纽约", "New York"),
        ("Etc/UTC", "UTC", "UTC"),
        ("PRC", "北京", "Beijing"),
        ("America/Argentina/Buenos_Aires", "Buenos Aires", "Buenos Aires"),
        ("Pacific/Port_Moresby", "Port Moresby", "Port Moresby"),
    ])
    func defaultCityFromTheSystemZone(zone: String, chinese: String, english: String) throws {
        let zh = try makeSettings(language: "zh", systemZone: zone)
        let en = try makeSettings(language: "en", systemZone: zone)
        #expect(zh.city == chinese)
        #expect(en.city == english)
        #expect(en.zone.identifier == (try timeZone(zone)).identifier)
        // The default city can be asked for by name, and means the same zone.
        let probe = try instant("2026-07-01T00:00:00Z")
        #expect(en.zone(forCity: english).map { WallClock.offset($0, at: probe.unixSeconds) } == WallClock.offset(en.zone, at: probe.unixSeconds))
    }

    /// Foundation on Linux reads "UTC" as the zone "GMT"; a machine or config on UTC should
    /// still greet "· UTC", like "Etc/UTC" does.
    @Test(arguments: ["UTC", "GMT", "Etc/GMT"])
    func utcIsNamedUTC(zone: String) throws {
        let fromSystem = try makeSettings(language: "en", systemZone: zone)
        let fromConfig = try makeSettings(language: "zh", timezone: zone)
        #expect(fromSystem.city == "UTC")
        #expect(fromConfig.city == "UTC")
    }

    @Test(arguments: [
        (nil, nil, ["LANG": "zh_CN.UTF-8"], Language.zh),
        ("en", nil, ["LANG": "zh_CN.UTF-8"], .en),   // the file beats the environment
        ("zh", nil, ["LC_ALL": "C"], .zh),
        ("en", "zh", [:], .zh),                      // the flag beats the file
        (nil, "en", ["LANG": "zh_CN.UTF-8"], .en),
        (nil, nil, ["LANG": "zh_TW.UTF-8"], .zhHant),
        ("ja-JP", nil, ["LANG": "zh_TW.UTF-8"], .ja),
        ("zh-TW", "de-AT", [:], .de),
    ] as [(String?, String?, [String: String], Language)])
    func languagePrecedence(file: String?, flag: String?, environment: [String: String], expected: Language) throws {
        var config = ConfigFile()
        config.language = file
        let settings = try Settings.resolve(
            config, overrides: SettingsOverrides(language: flag), environment: environment, systemZone: try timeZone("UTC"))
        #expect(settings.language == expected)
    }

    @Test func cityAndZone() throws {
        // A built-in city is named in the language, however typed (issue 33; was as typed).
        let named = try makeSettings(city: "东京")
        #expect(named.city == "Tokyo")
        #expect(named.zone.identifier == "Asia/Tokyo")

        let lowercased = try makeSettings(city: "new york")
        #expect(lowercased.zone.identifier == "America/New_York")

        let upper = try makeSettings(city: "NEW YORK")
        #expect(upper.zone.identifier == "America/New_York")
        #expect(upper.city == "New York")
        #expect(try makeSettings(language: "ja", city: "new york").city == "ニューヨーク")
        // Any other name stays as written, also a built-in one labelling another zone.
        #expect(try makeSettings(city: "Tokyo", timezone: "Europe/Berlin").city == "Tokyo")

        let both = try makeSettings(city: "Home", timezone: "Europe/Berlin")
        #expect(both.city == "Home")
        #expect(both.zone.identifier == "Europe/Berlin")
        #expect(both.zone(forCity: "Home")?.identifier == "Europe/Berlin")

        let zoneOnly = try makeSettings(language: "zh", timezone: "Asia/Tokyo")
        #expect(zoneOnly.city == "东京")
        #expect(zoneOnly.zone.identifier == "Asia/Tokyo")

        let custom = try makeSettings(city: "Gotham", cities: ["Gotham": "America/New_York"])
        #expect(custom.zone.identifier == "America/New_York")
    }

    @Test func flagsOverrideTheFile() throws {
        var file = ConfigFile()
        file.city = "Tokyo"
        file.timezone = "Asia/Tokyo"
        let settings = try Settings.resolve(
            file, overrides: SettingsOverrides(city: "Lab", timezone: "Europe/Berlin", language: "en"),
            environment: [:], systemZone: try timeZone("UTC"))
        #expect(settings.city == "Lab")
        #expect(settings.zone.identifier == "Europe/Berlin")
    }

    @Test func customGreetingsAndSeparator() throws {
        let settings = try makeSettings(greetings: ["06:00": "Rise", "21:30": "Sleep"], separator: " / ")
        #expect(settings.greetings.periods == [GreetingPeriod(start: 360, text: "Rise"), GreetingPeriod(start: 1290, text: "Sleep")])
        #expect(settings.separator == " / ")
    }

    @Test func limitsAtTheirBounds() throws {
        var file = ConfigFile()
        file.idleTimeout = 86_400
        file.formatterCacheSize = 10_000
        file.maxConnections = 65_536
        file.timeFormat = "yyyy"
        let high = try Settings.resolve(file, systemZone: try timeZone("UTC"))
        #expect(high.idleTimeout == 86_400)
        #expect(high.formatterCacheSize == 10_000)
        #expect(high.maxConnections == 65_536)
        #expect(high.timeFormat == "yyyy")
        file.idleTimeout = 1
        file.formatterCacheSize = 1
        file.maxConnections = 1
        let low = try Settings.resolve(file, systemZone: try timeZone("UTC"))
        #expect(low.idleTimeout == 1)
        #expect(low.formatterCacheSize == 1)
        #expect(low.maxConnections == 1)
        #expect(Responder(settings: low).formatters.capacity == 1)
    }

    /// Every problem names the key the user wrote. The files decode; the values are wrong.
    @Test(arguments: [
        (#"{"language": "pt"}"#, "language", "'pt'"),
        (#"{"language": "pt"}"#, "language", #"use one of "zh", "en", "zh-Hant", "ja", "ko", "de", "fr", "es""#),
        (#"{"language": "zh-Latn"}"#, "language", "'zh-Latn'"),
        (#"{"language": "ja_JP.UTF-8"}"#, "language", "'ja_JP.UTF-8'"),
        (#"{"timezone": "Mars/Olympus"}"#, "timezone", "'Mars/Olympus' is not an IANA time zone"),
        (#"{"city": "Home", "timezone": "Nowhere/Else"}"#, "timezone", "'Nowhere/Else'"),
        (#"{"city": "Atlantis"}"#, "city", "unknown city 'Atlantis'"),
        (#"{"cities": {"Gotham": "Nowhere/Gotham"}}"#, "cities.Gotham", "'Nowhere/Gotham'"),
        (#"{"cities": {"": "Asia/Tokyo"}}"#, "cities", "non-empty"),
        (#"{"cities": {"a\nb": "Asia/Tokyo"}}"#, "cities", "one line"),
        (#"{"greetings": {}}"#, "greetings", "at least one"),
        (#"{"greetings": {"25:00": "x"}}"#, "greetings.25:00", "HH:MM"),
        (#"{"greetings": {"05:60": "x"}}"#, "greetings.05:60", "HH:MM"),
        (#"{"greetings": {"5": "x"}}"#, "greetings.5", "HH:MM"),
        (#"{"greetings": {"05:0": "x"}}"#, "greetings.05:0", "HH:MM"),
        (#"{"greetings": {"morning": "x"}}"#, "greetings.morning", "HH:MM"),
        (#"{"time_format": ""}"#, "time_format", "must not be empty"),
        (#"{"idle_timeout": 0}"#, "idle_timeout", "between 1 and 86400, got 0"),
        (#"{"idle_timeout": -5}"#, "idle_timeout", "got -5"),
        (#"{"idle_timeout": 86401}"#, "idle_timeout", "got 86401"),
        (#"{"formatter_cache_size": 0}"#, "formatter_cache_size", "got 0"),
        (#"{"formatter_cache_size": 10001}"#, "formatter_cache_size", "got 10001"),
        (#"{"max_connections": 0}"#, "max_connections", "got 0"),
        (#"{"max_connections": 65537}"#, "max_connections", "got 65537"),
    ])
    func badValues(json: String, key: String, problem: String) throws {
        let zone = try timeZone("UTC")
        let error = configError { () throws(ConfigError) in
            try Settings.resolve(try ConfigFile.decode(Array(json.utf8)), environment: [:], systemZone: zone)
        }
        #expect(error?.key == key)
        #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("config key '\(key)': ") == true)
    }

    @Test(arguments: [
        (SettingsOverrides(language: "pt"), "language"),
        (SettingsOverrides(timezone: "Nowhere"), "--timezone"),
        (SettingsOverrides(city: "Atlantis"), "--city"),
        (SettingsOverrides(city: "Lab", timezone: "Nowhere"), "--timezone"),
    ])
    func badFlagsNameTheFlag(overrides: SettingsOverrides, key: String) throws {
        let zone = try timeZone("UTC")
        let error = configError { () throws(ConfigError) in
            try Settings.resolve(ConfigFile(), overrides: overrides, environment: [:], systemZone: zone)
        }
        #expect(error?.key == key)
    }

    @Test(arguments: [
        ("00:00", 0), ("05:00", 300), ("23:59", 1439), ("12:30", 750),
        // One spelling per minute: the canonical HH:MM only.
        ("5:00", nil), ("+5:00", nil), ("+05:00", nil), ("05:+0", nil), ("０５:００", nil), ("05:00 ", nil),
        ("24:00", nil), ("12:60", nil), ("12", nil), ("12:0", nil), ("123:00", nil), ("-1:00", nil), ("", nil), ("12:00:00", nil),
    ] as [(String, Int?)])
    func clockTimes(text: String, minutes: Int?) {
        #expect(Settings.parseClockTime(text) == minutes)
    }
}

@Suite struct ConfigFileTests {
    private func decode(_ json: String) -> Result<ConfigFile, ConfigError> {
        do throws(ConfigError) { return .success(try ConfigFile.decode(Array(json.utf8))) } catch { return .failure(error) }
    }

    @Test(arguments: ["", "   ", "\n\t\r\n", "{}", "{ }"])
    func emptyFileMeansDefaults(json: String) {
        #expect(decode(json) == .success(ConfigFile()))
    }

    @Test func everyKey() throws {
        let json = """
            {
              "language": "zh", "city": "东京", "timezone": "Asia/Tokyo",
              "cities": {"Gotham": "America/New_York"}, "separator": " - ",
              "greetings": {"06:00": "Rise"}, "time_format": "HH:mm:ss",
              "idle_timeout": 60, "formatter_cache_size": 16, "max_connections": 100
            }
            """
        let file = try decode(json).get()
        #expect(file.language == "zh")
        #expect(file.city == "东京")
        #expect(file.timezone == "Asia/Tokyo")
        #expect(file.cities == ["Gotham": "America/New_York"])
        #expect(file.separator == " - ")
        #expect(file.greetings == ["06:00": "Rise"])
        #expect(file.timeFormat == "HH:mm:ss")
        #expect(file.idleTimeout == 60)
        #expect(file.formatterCacheSize == 16)
        #expect(file.maxConnections == 100)

        let settings = try Settings.resolve(file, systemZone: try timeZone("UTC"))
        #expect(settings.language == .zh)
        #expect(settings.idleTimeout == 60)
        #expect(settings.zone.identifier == "Asia/Tokyo")
    }

    @Test func nullMeansUnset() throws {
        #expect(try decode(#"{"language": null, "idle_timeout": null}"#).get() == ConfigFile())
    }

    @Test func knownKeysAreTheSnakeCaseNames() {
        for key in ["language", "city", "timezone", "cities", "separator", "greetings",
                    "time_format", "idle_timeout", "formatter_cache_size", "max_connections"] {
            #expect(ConfigFile.knownKeys.contains(key), "\(key)")
        }
        #expect(!ConfigFile.knownKeys.contains("idleTimeout"))
    }

    @Test(arguments: [
        (#"{"idle_timout": 60}"#, "idle_timout", "unknown key"),
        (#"{"idleTimeout": 60}"#, "idleTimeout", "unknown key"),
        (#"{"language": "zh", "Language": "en"}"#, "Language", "unknown key"),
        (#"{"idle_timeout": "x"}"#, "idle_timeout", "expected a whole number"),
        (#"{"max_connections": true}"#, "max_connections", "expected a whole number"),
        (#"{"formatter_cache_size": "64"}"#, "formatter_cache_size", "expected a whole number"),
        (#"{"language": 5}"#, "language", "expected a string"),
        (#"{"separator": ["·"]}"#, "separator", "expected a string"),
        (#"{"cities": {"Gotham": 5}}"#, "cities.Gotham", "expected a string"),
    ])
    func problemsNameTheKey(json: String, key: String, problem: String) {
        guard case .failure(let error) = decode(json) else {
            Issue.record("\(json) should be refused")
            return
        }
        #expect(error.key == key)
        #expect(error.problem.contains(problem), "\(error)")
        #expect(error.description.hasPrefix("config key '\(key)': "))
    }

    /// An object where a string map belongs: the key is named, and the problem should say
    /// what to write rather than a Swift type.
    @Test(arguments: [#"{"cities": ["Gotham"]}"#, #"{"greetings": "morning"}"#, #"{"cities": 5}"#])
    func stringMapOfTheWrongType(json: String) {
        guard case .failure(let error) = decode(json) else {
            Issue.record("\(json) should be refused")
            return
        }
        #expect(error.key == (json.contains("cities") ? "cities" : "greetings"))
        #expect(error.problem == "expected an object of strings", "\(error)")
    }

    /// Issue 18 asks for the key it most likely meant, "not the list of 29 keys": this test
    /// once checked that every key was listed, and now checks that none is but the one meant.
    @Test func unknownKeyNamesTheOneMeantNotTheList() {
        guard case .failure(let error) = decode(#"{"colour": "red"}"#) else {
            Issue.record("should be refused")
            return
        }
        #expect(error.problem == "unknown key; zaoan.conf(5) lists the keys", "\(error)")
        for key in ConfigFile.knownKeys {
            #expect(!error.problem.contains(key), "\(key)")
            // The key with its last letter doubled: one edit away, and suggested alone.
            let typo = key + String(key.last!)
            guard case .failure(let typoError) = decode(#"{"\#(typo)": 1}"#) else {
                Issue.record("\(typo) should be refused")
                continue
            }
            #expect(typoError.problem == "unknown key; did you mean '\(key)'?", "\(typo): \(typoError)")
        }
    }

    @Test(arguments: ["{", #"{"language" "zh"}"#, "language = zh", #"{"language": "zh"} x"#])
    func invalidJSON(json: String) {
        guard case .failure(let error) = decode(json) else {
            Issue.record("\(json) should be refused")
            return
        }
        #expect(error.key == nil)
        #expect(error.problem.hasPrefix("not valid JSON"), "\(error)")
        #expect(error.description.hasPrefix("config: not valid JSON"))
    }

    @Test(arguments: ["[]", "5", #""zh""#])
    func topLevelMustBeAnObject(json: String) {
        guard case .failure(let error) = decode(json) else {
            Issue.record("\(json) should be refused")
            return
        }
        #expect(error.key == nil)
    }
}
