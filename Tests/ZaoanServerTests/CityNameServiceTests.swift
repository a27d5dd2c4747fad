import Foundation
import Testing

/// A built-in city asked in any language or case is named in the configured language
/// (issue 33: `greeting new york` in Japanese answered `こんばんは·new york`).
@Suite("built-in cities named in the configured language")
struct CityNameServiceTests {
    @Test("new york, NEW YORK and 纽约 in ja are ニューヨーク; 东京 in en is Tokyo; the config's city too; a city the config moves stays as typed")
    func namedInTheLanguage() throws {
        let japanese = try TestService.start(arguments: ["--language", "ja", "--timezone", "UTC"])
        defer { try? japanese.stop() }
        for typed in ["new york", "NEW YORK", "纽约", "@America/New_York"] {
            let answer = try japanese.ask("greeting \(typed)")
            #expect(answer.hasSuffix("·ニューヨーク\n"), "\(typed): \(answer)")
        }
        let english = try TestService.start(arguments: ["--language", "en", "--timezone", "UTC"])
        defer { try? english.stop() }
        #expect(try english.ask("greeting 东京").hasSuffix(" · Tokyo\n"))
        #expect(try english.ask("status @東京").contains("Tokyo"))

        let configured = try TestService.start(arguments: ["--language", "ja"], config: #"{"city": "new york"}"#)
        defer { try? configured.stop() }
        #expect(try configured.ask("greeting").hasSuffix("·ニューヨーク\n"), "the config's city in the configured language")

        // The config's `cities` may move a name to another zone: then it is the config's city.
        let moved = try TestService.start(arguments: ["--language", "ja", "--timezone", "UTC"], config: #"{"cities": {"new york": "Asia/Tokyo"}}"#)
        defer { try? moved.stop() }
        #expect(try moved.ask("greeting new york").hasSuffix("·new york\n"))
    }
}
