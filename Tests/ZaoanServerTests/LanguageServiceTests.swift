import Foundation
import Testing

/// The languages beyond zh and en through the real binary: the config's tag, `--language`,
/// and LANG when neither sets one, under `faketime` (2026-12-01 is a Tuesday).
@Suite("Languages through the service")
struct LanguageServiceTests {
    @Test("language \"ja\" in the config: おはよう·東京, Japanese dates, strftime as in ja_JP")
    func japaneseFromTheConfig() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 07:30:00"
        configuration.environment["TZ"] = "Asia/Tokyo"
        configuration.environment["LANG"] = "de_DE.UTF-8"  // the config beats the environment
        configuration.config = #"{"language": "ja", "timezone": "Asia/Tokyo"}"#
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        #expect(try service.ask("greeting") == "おはよう·東京\n", "stderr: \(service.stderrText)")
        #expect(try service.ask("greeting ソウル") == "おはよう·ソウル\n")
        #expect(try service.ask("greeting Berlin") == "おやすみ·ベルリン\n")  // 23:30 the day before; in Japanese (issue 33)
        #expect(try service.ask("greeting new york") == "こんにちは·ニューヨーク\n")  // 17:30 the day before; in Japanese (issue 33)
        #expect(try service.ask("time EEEE") == "火曜日\n")
        #expect(try service.ask("time %EY|%a|%p|%Od") == "令和08年|火|午前|一\n")
        #expect(try service.ask("time %Ex").hasPrefix("令和08年12月01日"))
        #expect(try service.ask("ago 2026-12-01 07:00") == "30分前\n")
        #expect(try service.ask("ago 2026-12-03 08:00") == "2日後\n")  // CLDR 47 ja (issue 33; was あと2日)
    }

    @Test("LANG=zh_TW.UTF-8 with no language set: 早安·臺北, and LC_ALL beats LANG")
    func traditionalChineseFromLANG() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 07:30:00"
        configuration.environment["TZ"] = "Asia/Taipei"
        configuration.environment["LANG"] = "zh_TW.UTF-8"
        let taipei = try TestService.start(configuration)
        #expect(try taipei.ask("greeting") == "早安·臺北\n", "stderr: \(taipei.stderrText)")
        #expect(try taipei.ask("greeting 首爾") == "早安·首爾\n")
        #expect(try taipei.ask("time %EY %A") == "民國115年 週二\n")
        #expect(try taipei.ask("ago 2026-12-01 07:25") == "5 分鐘前\n")  // CLDR 47 zh-Hant, spaced
        try taipei.stop()

        configuration.environment["LC_ALL"] = "ko_KR.UTF-8"
        let seoul = try TestService.start(configuration)
        #expect(try seoul.ask("greeting") == "좋은 아침이에요·타이베이\n", "stderr: \(seoul.stderrText)")
        #expect(try seoul.ask("time %r").hasPrefix("오전 07시 3"))
        try seoul.stop()
    }

    @Test("--language takes a tag with a region: de-AT is German")
    func germanFromTheFlag() throws {
        var configuration = TestService.Configuration()
        configuration.fakeTime = "2026-12-01 19:30:00"
        configuration.environment["TZ"] = "Europe/Berlin"
        configuration.arguments = ["--language", "de-AT", "--timezone", "Europe/Moscow"]
        let service = try TestService.start(configuration)
        defer { try? service.stop() }
        #expect(try service.ask("greeting") == "Guten Abend · Moskau\n", "stderr: \(service.stderrText)")  // 21:30 there
        #expect(try service.ask("greeting Pékin") == "Gute Nacht · Peking\n")  // 02:30 the next day; in German (issue 33)
        #expect(try service.ask("time %c").hasPrefix("Di 01 Dez 2026 21:30:"))
    }

    @Test("check-config names the language by its tag, and lists the tags it takes")
    func checkConfig() throws {
        let service = try TestService.start()
        defer { try? service.stop() }
        let directory = service.directory.path
        let traditional = directory + "/hant.json"
        let unknown = directory + "/pt.json"
        try #"{"language": "zh-HK", "timezone": "Asia/Hong_Kong"}"#.write(toFile: traditional, atomically: true, encoding: .utf8)
        try #"{"language": "pt-BR"}"#.write(toFile: unknown, atomically: true, encoding: .utf8)
        let accepted = try service.zaoan(["check-config", traditional])
        #expect(accepted.status == 0 && accepted.output.contains("city 香港") && accepted.output.contains("language zh-Hant"), "\(accepted)")
        let refused = try service.zaoan(["check-config", unknown])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.errorOutput.contains("'pt-BR' is not a language zaoan speaks")
                && refused.errorOutput.contains(#""zh", "en", "zh-Hant", "ja", "ko", "de", "fr", "es""#), "\(refused)")
    }
}
