import Testing
@testable import ZaoanTime

/// Answers pinned by hand from CLDR 47 and ICU's rules, one for each mistake the
/// differential test finds only among many others: each line names what it guards.
@Suite struct LDMLRendererTests {
    static func render(_ text: String, _ local: (Int, Int, Int, Int, Int, Int), zone: String = "UTC", nanoseconds: Int = 0,
                       _ language: LDMLLanguage = .en) throws -> String {
        let zone = try ZoneInfoStore.shared.zoneInfo(named: zone)
        let wall = WallClock.localSeconds(year: local.0, month: local.1, day: local.2, hour: local.3, minute: local.4, second: local.5)
        let instant = WallClock.resolve(wall, in: zone).first
        return LDMLRenderer.render(try LDMLPattern(text), instant: instant, nanoseconds: nanoseconds, zone: zone, language: language)
    }

    @Test("stand-alone and format months differ where CLDR has them differ (de abbreviated)")
    func standaloneMonths() throws {
        #expect(try Self.render("MMM|LLL|MMMM|LLLLL", (2026, 9, 1, 0, 0, 0), .de) == "Sept.|Sep|September|S")
        #expect(try Self.render("cccc|EEEE|EEEEEE", (2026, 12, 6, 0, 0, 0), .de) == "Sonntag|Sonntag|So.")
    }

    @Test("the four hour cycles at midnight, noon and one")
    func hours() throws {
        #expect(try Self.render("h K k H", (2026, 1, 1, 0, 5, 0)) == "12 0 24 0")
        #expect(try Self.render("h K k H", (2026, 1, 1, 12, 5, 0)) == "12 0 12 12")
        #expect(try Self.render("hh KK kk HH a", (2026, 1, 1, 13, 5, 0)) == "01 01 13 13 PM")
    }

    @Test("fractions truncate to their width after the instant is taken to the millisecond")
    func fractions() throws {
        #expect(try Self.render("s.S|SS|SSS|SSSS", (2026, 1, 1, 0, 0, 7), nanoseconds: 987_654_321) == "7.9|98|988|9880")
        #expect(try Self.render("s.SSS", (2026, 1, 1, 0, 0, 7), nanoseconds: 999_600_000) == "8.000")
    }

    @Test("offsets: quarter hours, negative half hours, and the seconds of local mean time")
    func offsets() throws {
        #expect(try Self.render("Z|ZZZZ|ZZZZZ|x|xxx|O|OOOO", (2026, 1, 1, 12, 0, 0), zone: "Pacific/Chatham")
                == "+1345|GMT+13:45|+13:45|+1345|+13:45|GMT+13:45|GMT+13:45")
        #expect(try Self.render("X|XX|O", (2026, 1, 1, 12, 0, 0), zone: "America/St_Johns", .fr) == "-0330|-0330|UTC−3:30")
        #expect(try Self.render("X|O|ZZZZ", (2026, 1, 1, 12, 0, 0), zone: "UTC", .fr) == "Z|UTC|UTC")
        // Kathmandu kept local mean time, +05:41:16, until 1920.
        #expect(try Self.render("x|xxxx|XXXXX|O|OOOO", (1910, 1, 1, 12, 0, 0), zone: "Asia/Kathmandu")
                == "+0541|+054116|+05:41:16|GMT+5:41:16|GMT+05:41:16")
    }
}
