import Foundation
import Testing
@testable import ZaoanCore

/// Runs `StrftimePattern.ldml`, returning the error instead of throwing it.
private func translate(_ format: String) -> Result<String, PatternError> {
    do throws(PatternError) { return .success(try StrftimePattern.ldml(from: format)) } catch { return .failure(error) }
}

@Suite struct StrftimePatternTests {
    @Test(arguments: [
        ("%H:%M", "HH:mm"),
        ("%Y-%m-%d", "yyyy-MM-dd"),
        ("%F %T", "yyyy-MM-dd HH:mm:ss"),
        ("%R", "HH:mm"),
        ("%D", "MM/dd/yy"),
        ("%y", "yy"),
        ("%S", "ss"),
        ("%I:%M %p", "hh:mm a"),
        ("%A %d %B", "EEEE dd MMMM"),
        ("%a %b %h", "EEE MMM MMM"),
        ("%j", "DDD"),
        ("%Z %z", "zzz xx"),
        ("%-d", "d"),
        ("%-m/%-d", "M/d"),
        ("%-H:%-M:%-S", "H:m:s"),
        ("%-I", "h"),
        ("%-j", "D"),
        ("%%", "%"),
        ("100%%", "100%"),
        ("%H%%", "HH%"),
        ("%Y年%m月%d日", "yyyy年MM月dd日"),
        ("", ""),
        ("at %H", "'at 'HH"),
        ("%Hh%M", "HH'h'mm"),
        ("%H o'clock", "HH' o''clock'"),
        ("%%Y", "'%Y'"),
        ("Day %j of %Y", "'Day 'DDD' of 'yyyy"),
        ("[%H]", "[HH]"),
    ])
    func translates(format: String, ldml: String) {
        #expect(translate(format) == .success(ldml))
    }

    /// The translations format as `date +FORMAT` would print, through the shared cache.
    @Test(arguments: [
        ("%H:%M", "08:05"),
        ("%Y-%m-%d", "2026-03-07"),
        ("%-d/%-m %-H:%-M", "7/3 8:5"),
        ("%j", "066"),
        ("%-j", "66"),
        ("%I %p", "08 AM"),
        ("%A %d %B", "Saturday 07 March"),
        ("100%%", "100%"),
        ("at %H", "at 08"),
        ("%Hh%M", "08h05"),
        ("%H o'clock", "08 o'clock"),
        ("%%Y is %Y", "%Y is 2026"),
        ("%z", "+0000"),
    ])
    func formatsLikeDate(format: String, expected: String) throws {
        let ldml = try translate(format).get()
        let cache = FormatterCache()
        let now = try instant("2026-03-07T08:05:09Z")
        #expect(cache.string(from: now, pattern: ldml, locale: "en_US", zone: try timeZone("UTC")) == expected)
    }

    @Test(arguments: [
        ("%e", ["%e"]),
        ("%s", ["%s"]),
        ("%N", ["%N"]),
        ("%H:%M:%S.%N", ["%N"]),
        ("%H %e %s", ["%e", "%s"]),
        ("%-Y", ["%-Y"]),
        ("%-e", ["%-e"]),
        ("%H %", ["% at the end"]),
        ("%H %-", ["%- at the end"]),
        ("%c %x %X %u %w %U %V %G %C %k %l %n %t", ["%c", "%x", "%X", "%u", "%w", "%U", "%V", "%G", "%C", "%k", "%l", "%n", "%t"]),
    ])
    func unsupportedConversionsAreNamed(format: String, unsupported: [String]) {
        guard case .failure(let error) = translate(format) else {
            Issue.record("\(format) should be refused")
            return
        }
        #expect(error.unsupported == unsupported)
        for name in unsupported {
            #expect(error.description.contains(name))
        }
    }

    @Test func errorSaysConversionOrConversions() {
        guard case .failure(let one) = translate("%e"), case .failure(let two) = translate("%e%s") else {
            Issue.record("both should be refused")
            return
        }
        #expect(one.description.hasPrefix("unsupported strftime conversion %e; supported: "))
        #expect(two.description.hasPrefix("unsupported strftime conversions %e %s; supported: "))
    }

    @Test(arguments: [("%H:%M", true), ("100%%", true), ("%", true), ("HH:mm", false), ("yyyy-MM-dd", false), ("", false)])
    func strftimeIsRecognisedByItsPercent(pattern: String, isStrftime: Bool) {
        #expect(StrftimePattern.isStrftime(pattern) == isStrftime)
    }

    /// `time %e` is answered with `ERR bad-argument` naming `%e`.
    @Test func responderRefusesUnsupportedConversions() throws {
        let responder = Responder(settings: try makeSettings(language: "en", timezone: "UTC"))
        let now = try instant("2026-03-07T08:05:09Z")
        let reply = responder.answer(.time(pattern: "%H %e"), now: now, counters: ServerCounters(startedAt: now))
        #expect(reply.isError)
        #expect(reply.text.hasPrefix("ERR bad-argument unsupported strftime conversion %e;"))
        #expect(responder.formatters.statistics.misses == 0)
    }

    /// A strftime format and its LDML translation share one cached formatter.
    @Test func strftimeAndLDMLShareTheCache() throws {
        let responder = Responder(settings: try makeSettings(language: "en", timezone: "UTC"))
        let now = try instant("2026-03-07T08:05:09Z")
        #expect(try responder.time(pattern: "%H:%M", now: now) == "08:05")
        #expect(try responder.time(pattern: "HH:mm", now: now) == "08:05")
        #expect(try responder.time(pattern: nil, now: now) == "08:05")  // the default time_format
        #expect(responder.formatters.statistics == FormatterCache.Statistics(entries: 1, hits: 2, misses: 1, evictions: 0))
    }
}
