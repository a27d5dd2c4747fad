import Foundation
import Testing

/// Through the real binary: quotes in a strftime format are plain characters, what GNU date
/// would not convert is refused naming exactly what was written, and the limits hold.
@Suite("strftime quotes and errors through the binary", Sanitizer.skipped("the service runs under faketime, whose LD_PRELOAD the sanitizer runtime does not allow"))
struct StrftimeErrorTests {
    /// Frozen at 2026-12-01 10:14:00 UTC, 18:14 in Shanghai.
    private func startService() throws -> TestService {
        var configuration = TestService.Configuration()
        configuration.wrapper = ["faketime", "-f", "2026-12-01 10:14:00"]
        configuration.environment["TZ"] = "UTC"
        configuration.environment["DONT_FAKE_MONOTONIC"] = "1"
        configuration.arguments = ["--language", "en", "--timezone", "Asia/Shanghai"]
        return try TestService.start(configuration)
    }

    @Test("quote characters are copied like any other")
    func quotes() throws {
        let service = try startService()
        defer { try? service.stop() }
        let cases = [
            ("time %H'%M", "18'14"), ("time %H'", "18'"), ("time '%H", "'18"), ("time ''%H", "''18"),
            (#"time "it's %H o'clock""#, "it's 18 o'clock"), (#"time "\"%H\"""#, #""18""#), ("time %H''%M'''", "18''14'''"),
        ]
        for (request, expected) in cases {
            let answer = try service.ask(request)
            #expect(answer == expected + "\n", "\(request) → \(answer.debugDescription)")
        }
    }

    @Test("what date does not convert is refused, named as written")
    func errors() throws {
        let service = try startService()
        defer { try? service.stop() }
        let tail = "GNU date would print it as written. Write %% for a literal %"
        let cases = [
            // Once reported as "%_ %E %1 %:"; now converted.
            ("time %_d %Ey %10Y %:z", " 1 26 0000002026 +08:00"),
            ("time %Q", "ERR bad-argument '%Q' is not a conversion; \(tail)"),
            ("time %H%:Y", "ERR bad-argument '%:Y': colons go only before z (%:z, %::z, %:::z); \(tail)"),
            ("time \"%H %\"", "ERR bad-argument '%' at the end is not a conversion; \(tail)"),
            ("time %H%-", "ERR bad-argument '%-' at the end is not a conversion; \(tail)"),
            ("time %Ed", "ERR bad-argument '%Ed': %d takes no E modifier; \(tail)"),
            ("time %5%", "ERR bad-argument '%5%': %% takes no flags, width or modifier; \(tail)"),
            ("time %::::z", "ERR bad-argument '%::::z': at most three colons (%:::z); \(tail)"),
            ("time %O:z", "ERR bad-argument '%O:z': the O modifier does not go with %:z; \(tail)"),
            ("time %Q%-10J", "ERR bad-argument '%Q' is not a conversion; '%-10J' is not a conversion; GNU date would print them as written. Write %% for a literal %"),
            ("time %1025Y", "ERR bad-argument '%1025Y' asks for a width of 1025; zaoan allows widths up to 1024"),
            ("time " + String(repeating: "%1024c", count: 17), "ERR bad-argument the pattern formats to more than 16 KiB; zaoan answers at most that"),
            ("time " + String(repeating: "%%", count: 513), "ERR bad-argument the pattern is 1026 characters long; at most 1024"),
        ]
        for (request, expected) in cases {
            let answer = try service.ask(request)
            #expect(answer == expected + "\n", "\(request.prefix(60)) → \(answer.prefix(200).debugDescription)")
        }
        // The widest field and the largest answer allowed still come back whole.
        let widest = try service.ask("time %1024Y")
        #expect(widest == String(repeating: "0", count: 1020) + "2026\n", "\(widest.prefix(200))")
        let largest = try service.ask("time " + String(repeating: "%1024Z", count: 16))
        #expect(largest.utf8.count == 16 * 1024 + 1, "\(largest.prefix(200))")
    }
}
