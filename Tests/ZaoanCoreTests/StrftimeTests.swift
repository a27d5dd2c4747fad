import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// `time FORMAT` with a `%`: hand-checked answers (each also what `date +FORMAT` prints),
/// the errors for what `date` does not convert, and the limits.
@Suite struct StrftimeTests {
    private func format(_ format: String, at utc: String = "2026-03-07T08:05:09Z", zone: String = "Etc/UTC",
                        language: Language = .en) throws -> String {
        try Responder.strftime(format, now: try instant(utc), zone: try timeZone(zone), language: language)
    }

    private func error(_ format: String) throws -> String {
        do throws(ProtocolError) {
            _ = try Responder.strftime(format, now: try! instant("2026-03-07T08:05:09Z"), zone: try! timeZone("Etc/UTC"), language: .en)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        // Carried over from the LDML translation, which these used to go through.
        ("%H:%M", "08:05"), ("%Y-%m-%d", "2026-03-07"), ("%-d/%-m %-H:%-M", "7/3 8:5"), ("%j", "066"), ("%-j", "66"),
        ("%I %p", "08 AM"), ("%A %d %B", "Saturday 07 March"), ("100%%", "100%"), ("at %H", "at 08"), ("%Hh%M", "08h05"),
        ("%H o'clock", "08 o'clock"), ("%%Y is %Y", "%Y is 2026"), ("%z", "+0000"), ("%F %T", "2026-03-07 08:05:09"),
        ("%R", "08:05"), ("%D", "03/07/26"), ("%a %b %h", "Sat Mar Mar"), ("%Y年%m月%d日", "2026年03月07日"), ("[%H]", "[08]"),
        // What the translation refused.
        ("%e", " 7"), ("%s", "1772870709"), ("%N", "000000000"), ("%k|%l", " 8| 8"), ("%C %u %w %U %V %G %g", "20 6 6 09 10 2026 26"),
        ("%c", "Sat 07 Mar 2026 08:05:09 AM UTC"), ("%x|%X|%r", "03/07/2026|08:05:09 AM|08:05:09 AM"), ("%n|%t", "\n|\t"),
        ("%-Y %-e", "2026 7"), ("%q", "1"), ("%P", "am"),
        // Flags, widths, modifiers.
        ("%_d %Ey %10Y %:z", " 7 26 0000002026 +00:00"), ("%-5d|%_10H|%3N|%^a|%#Z|%_V", "7|         8|000|SAT|utc|10"),
        ("%010a|%-10a|%10a", "0000000Sat|Sat|       Sat"), ("%^B|%#B|%#p", "MARCH|MARCH|am"), ("%+6Y|%+4Y|%12F", "+02026|2026|002026-03-07"),
        ("%_Od|%5Od|%Oe", "07|   07| 7"), ("%::z|%:::z|%_z|%-z", "+00:00:00|+00|   +0|+0"),
        ("%a %b %e %H:%M:%S %Z %Y", "Sat Mar  7 08:05:09 UTC 2026"), ("%FT%T%:z", "2026-03-07T08:05:09+00:00"),
        ("%l:%M %p", " 8:05 AM"), ("%k:%M", " 8:05"), ("W%V", "W10"),
        // Quotes are just characters.
        ("%H'%M", "08'05"), ("%H'", "08'"), ("'%H", "'08"), ("''%H", "''08"), ("\"%H\"", "\"08\""),
    ])
    func formatsLikeDate(format: String, expected: String) throws {
        #expect(try self.format(format) == expected)
    }

    @Test func chineseFromTheLocaleData() throws {
        let at = "2026-12-01T01:30:00Z"
        #expect(try format("%a", at: at, zone: "Asia/Shanghai", language: .zh) == "二")
        #expect(try format("%c", at: at, zone: "Asia/Shanghai", language: .zh) == "2026年12月01日 星期二 09时30分00秒")
        #expect(try format("%A %B %b %p %r", at: at, zone: "Asia/Shanghai", language: .zh) == "星期二 十二月 12月 上午 上午 09时30分00秒")
        #expect(try format("%x %X %^A %#b %10a", at: at, zone: "Asia/Shanghai", language: .zh) == "2026年12月01日 09时30分00秒 星期二 12月 " + "       二")
        #expect(try format("%Z %z", at: at, zone: "Asia/Shanghai", language: .zh) == "CST +0800")
    }

    @Test func zoneAbbreviationsComeFromTheTzDatabase() throws {
        #expect(try format("%Z", at: "2026-07-01T12:00:00Z", zone: "Europe/Berlin") == "CEST")
        #expect(try format("%Z", at: "2026-01-01T12:00:00Z", zone: "Europe/Berlin") == "CET")
        #expect(try format("%Z %z", at: "2026-07-01T12:00:00Z", zone: "America/New_York") == "EDT -0400")
        #expect(try format("%Z %:z", at: "2026-07-01T12:00:00Z", zone: "Asia/Kolkata") == "IST +05:30")
        #expect(try format("%Z %::z", at: "2026-07-01T12:00:00Z", zone: "Asia/Kathmandu") == "+0545 +05:45:00")
        #expect(try format("%Z", at: "2026-07-01T12:00:00Z", zone: "Etc/UTC") == "UTC")
    }

    @Test func nanosecondsAndTheirForms() throws {
        let now = Instant(secondsSince1970: 1_772_870_709.5)
        func render(_ format: String) throws -> String {
            try Responder.strftime(format, now: now, zone: try timeZone("Etc/UTC"), language: .en)
        }
        #expect(try render("%N|%3N|%-N|%_N|%_3N|%12N|%1N") == "500000000|500|500000000|5        |5  |500000000000|5")
        #expect(try render("%s") == "1772870709")
        #expect(try Responder.strftime("%s %N", now: Instant(secondsSince1970: -1.5), zone: try timeZone("Etc/UTC"), language: .en) == "-2 500000000")
    }

    @Test(arguments: [
        ("%Q", "ERR bad-argument '%Q' is not a conversion; GNU date would print it as written. Write %% for a literal %"),
        ("%:Y", "ERR bad-argument '%:Y': colons go only before z (%:z, %::z, %:::z); GNU date would print it as written. Write %% for a literal %"),
        ("%H %", "ERR bad-argument '%' at the end is not a conversion; GNU date would print it as written. Write %% for a literal %"),
        ("%H %-_5", "ERR bad-argument '%-_5' at the end is not a conversion; GNU date would print it as written. Write %% for a literal %"),
        ("%Ed", "ERR bad-argument '%Ed': %d takes no E modifier; GNU date would print it as written. Write %% for a literal %"),
        ("%Oa", "ERR bad-argument '%Oa': %a takes no O modifier; GNU date would print it as written. Write %% for a literal %"),
        ("%5%", "ERR bad-argument '%5%': %% takes no flags, width or modifier; GNU date would print it as written. Write %% for a literal %"),
        ("%::::z", "ERR bad-argument '%::::z': at most three colons (%:::z); GNU date would print it as written. Write %% for a literal %"),
        ("%O:z", "ERR bad-argument '%O:z': the O modifier does not go with %:z; GNU date would print it as written. Write %% for a literal %"),
        ("%Q and %_10J", "ERR bad-argument '%Q' is not a conversion; '%_10J' is not a conversion; GNU date would print them as written. Write %% for a literal %"),
        ("%中", "ERR bad-argument '%中' is not a conversion; GNU date would print it as written. Write %% for a literal %"),
        ("%1025Y", "ERR bad-argument '%1025Y' asks for a width of 1025; zaoan allows widths up to 1024"),
        ("%99999999999999999999999Y", "ERR bad-argument '%99999999999999999999999Y' asks for a width of 2147483647; zaoan allows widths up to 1024"),
        (String(repeating: "%1024c", count: 20), "ERR bad-argument the pattern formats to more than 16 KiB; zaoan answers at most that"),
        (String(repeating: "%", count: 1025), "ERR bad-argument the pattern is 1025 characters long; at most 1024"),
    ])
    func refusesWhatDateDoesNotConvert(format: String, message: String) throws {
        #expect(try error(format) == message)
    }

    /// Today's errors named `%_d %Ey %10Y %:z` as `%_ %E %1 %:`; they now format, and what is
    /// refused is named as written.
    @Test func errorsNameWhatWasWritten() throws {
        #expect(try error("%_d %Ey %10Y %:z") == "no error")
        let message = try error("%_Q %EQ %10:Y")
        for written in ["'%_Q'", "'%EQ'", "'%10:Y'"] { #expect(message.contains(written), "\(message)") }
    }

    @Test func theWidestFieldsAndAnswersFit() throws {
        #expect(try format("%1024Y").count == 1024)
        #expect(try format(String(repeating: "%1024c", count: 16)).utf8.count == 16 * 1024)
        #expect(try format("%1024F").count == 1024)
    }

    /// Kept once compiled, the same as compiling it again, and bounded: a flood of formats
    /// drops the oldest (this test's own texts, which no other test asks for).
    @Test func compiledFormatsAreCachedAndBounded() throws {
        let first = "%H:%M:%S cache test"
        #expect(try StrftimeFormat.cached(first).pieces == StrftimeFormat(first).pieces)
        #expect(StrftimeFormat.isCached(first), "a compiled format is kept")
        #expect(try StrftimeFormat.cached(first).pieces == StrftimeFormat(first).pieces, "and the kept one is the same")
        for index in 0..<(3 * StrftimeFormat.cacheCapacity) {
            _ = try StrftimeFormat.cached("%H cache test \(index)")  // only its place in the cache matters
            #expect(StrftimeFormat.cachedCount <= StrftimeFormat.cacheCapacity)
        }
        #expect(!StrftimeFormat.isCached(first), "the oldest is dropped when the cache is full")
        #expect(StrftimeFormat.isCached("%H cache test \(3 * StrftimeFormat.cacheCapacity - 1)"), "the newest is kept")
    }

    /// Random formats heavy in `%`, flags, long digit runs, modifiers and colons, at random
    /// instants up to 2^53 s either side of 1970, in zones with odd rules: every one either
    /// answers (within the limit) or is refused; none traps.
    @Test func randomFormatsNeverTrap() throws {
        let pieces = ["%", "%", "%", "-", "_", "0", "+", "^", "#", "E", "O", ":", "::", "1", "9", "99999999999999999999", "1024",
                      "a", "C", "F", "G", "N", "Y", "c", "g", "s", "y", "z", "Z", "Q", "'", " ", "中", "\t", "\u{0}", "%%"]
        let zones = try ["Etc/UTC", "Europe/Dublin", "Australia/Lord_Howe", "America/St_Johns", "Asia/Kathmandu"].map { try timeZone($0) }
        var generator = SplitMix(seed: 2026)
        var answered = 0
        for _ in 0..<5000 {
            let format = (0..<(1 + Int(generator.next() % 12))).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let seconds = Double(Int64(bitPattern: generator.next()) >> (10 + Int(generator.next() % 40)))
            let zone = zones[Int(generator.next() % UInt64(zones.count))]
            do throws(ProtocolError) {
                let text = try Responder.strftime(format, now: Instant(secondsSince1970: seconds), zone: zone, language: generator.next() % 2 == 0 ? .en : .zh)
                #expect(text.utf8.count <= StrftimeFormat.maxOutputBytes)
                answered += 1
            } catch {
                #expect(error.code == .badArgument)
            }
        }
        #expect(answered > 250)
        for seconds in [Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18] {
            #expect(throws: ProtocolError.self) {
                try Responder.strftime("%c", now: Instant(secondsSince1970: seconds), zone: try timeZone("Etc/UTC"), language: .en)
            }
        }
    }

    /// Through the responder: strftime no longer goes through the ICU formatter cache.
    @Test func theResponderAnswersStrftimeWithoutICU() throws {
        let responder = Responder(settings: try makeSettings(language: "zh", timezone: "Asia/Shanghai"))
        let now = try instant("2026-12-01T01:30:00Z")
        let reply = responder.answer(.time(pattern: "%a %e %k"), now: now, counters: ServiceFigures(startedAt: now))
        #expect(reply.text == "二  1  9")
        #expect(responder.formatters.statistics.misses == 0)
        #expect(try responder.time(pattern: "HH:mm", now: now) == "09:30")  // LDML as before
    }
}
