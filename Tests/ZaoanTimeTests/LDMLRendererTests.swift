import Testing
@testable import ZaoanTime

/// Answers pinned by hand from CLDR 47 and ICU's rules, one for each mistake the
/// differential test finds only among many others: each line names what it guards.
@Suite struct LDMLRendererTests {
    static func render(_ text: String, _ local: (Int, Int, Int, Int, Int, Int), zone: String = "UTC", nanoseconds: Int = 0,
                       _ language: LDMLLanguage = .en) throws -> String {
        let info = try ZoneInfoStore.shared.zoneInfo(named: zone)
        let wall = WallClock.localSeconds(year: local.0, month: local.1, day: local.2, hour: local.3, minute: local.4, second: local.5)
        let instant = WallClock.resolve(wall, in: info).first
        return LDMLRenderer.render(try LDMLPattern(text), instant: instant, nanoseconds: nanoseconds, zone: info,
                                   zoneIdentifier: zone, language: language)
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

    @Test("zone names: metazone names by daylight, the location format, Ireland's rearguard daylight, fixed offsets")
    func zoneNames() throws {
        #expect(try Self.render("z|zzzz|v|vvvv|VV|VVV|VVVV", (2026, 7, 1, 12, 0, 0), zone: "America/Los_Angeles")
                == "PDT|Pacific Daylight Time|PT|Pacific Time|America/Los_Angeles|Los Angeles|Los Angeles Time")
        #expect(try Self.render("z|zzzz|v|vvvv|VVV", (2026, 1, 1, 12, 0, 0), zone: "Asia/Shanghai", .zh)
                == "GMT+8|中国标准时间|上海时间|中国标准时间|上海")
        // Kolkata is Asia/Calcutta to CLDR; India has one zone, so the location is the country.
        #expect(try Self.render("zzzz|VVVV|VVV", (2026, 1, 1, 12, 0, 0), zone: "Asia/Kolkata", .de)
                == "Indische Normalzeit|Indien (Ortszeit)|Kalkutta")
        // Irish summer time is daylight to ICU though Debian's file marks the winter so.
        #expect(try Self.render("zzzz", (2026, 7, 1, 12, 0, 0), zone: "Europe/Dublin") == "Irish Standard Time")
        #expect(try Self.render("zzzz", (2026, 1, 1, 12, 0, 0), zone: "Europe/Dublin") == "Greenwich Mean Time")
        // Before 1970 no zone has a metazone (ICU's default start).
        #expect(try Self.render("zzzz", (1969, 1, 1, 12, 0, 0), zone: "Asia/Tokyo") == "GMT+09:00")
        // No DST within 184 days: the generic name is the standard one.
        #expect(try Self.render("vvvv", (2026, 1, 1, 12, 0, 0), zone: "America/Phoenix") == "Mountain Standard Time")
        let fixed = ZoneInfo.fixed(utcOffset: -(3 * 3_600 + 30 * 60))
        let pattern = try LDMLPattern("z|zzzz|v|vvvv|VV|VVV|VVVV")
        #expect(LDMLRenderer.render(pattern, instant: 0, zone: fixed, language: .fr)
                == "UTC−3:30|UTC−03:30|UTC−3:30|UTC−03:30|GMT-03:30|ville inconnue|UTC−03:30")
    }

    @Test("week fields by each language's week data, at the turn of the year")
    func weeks() throws {
        // 2027-01-01 is a Friday: en (Sunday, 1 day) puts it in week 1 of 2027; de (Monday,
        // 4 days) in week 53 of 2026, and in week 0 of its month.
        #expect(try Self.render("Y-w-W", (2027, 1, 1, 12, 0, 0)) == "2027-1-1")
        #expect(try Self.render("YYYY-ww-W", (2027, 1, 1, 12, 0, 0), .de) == "2026-53-0")
        #expect(try Self.render("YY-ww", (2026, 12, 31, 12, 0, 0)) == "27-01")
    }

    @Test("day periods: noon only when the shown minutes are zero, flexible periods by the language's rules")
    func dayPeriods() throws {
        // Minutes the pattern does not show do not count (ICU looks at the whole pattern).
        #expect(try Self.render("h b", (2026, 1, 1, 12, 30, 0)) == "12 noon")
        #expect(try Self.render("h:mm b|bbbbb", (2026, 1, 1, 12, 30, 0)) == "12:30 PM|p")
        #expect(try Self.render("h:mm bbbbb", (2026, 1, 1, 12, 0, 0)) == "12:00 n")
        #expect(try Self.render("h B|BBBB", (2026, 1, 1, 12, 0, 0), .zh) == "12 中午|中午")
        #expect(try Self.render("h B", (2026, 1, 1, 3, 0, 0), .zh) == "3 凌晨")
        #expect(try Self.render("h B", (2026, 1, 1, 0, 0, 0), .en) == "12 at night")  // never "midnight", as ICU
        #expect(try Self.render("h B", (2026, 1, 1, 12, 0, 0), .de) == "12 mittags")  // no noon rule in de
    }

    @Test("every new field at every width renders for instants at the ends of Int, in zones with and without DST")
    func farInstants() throws {
        for zone in ["Europe/Dublin", "America/New_York", "Australia/Lord_Howe", "UTC"] {
            let info = try ZoneInfoStore.shared.zoneInfo(named: zone)
            for text in ["z", "zz", "zzz", "zzzz", "v", "vvvv", "VV", "VVV", "VVVV", "Y", "YY", "YYYYY", "w", "ww", "W",
                         "b", "bbbb", "bbbbb", "B", "BBBB", "BBBBB"] {
                let pattern = try LDMLPattern(text)
                for instant in [Int.min, Int.min + 1, -(1 << 53), -62_135_596_800, 0, 1 << 53, Int.max - 1, Int.max] {
                    for language in LDMLLanguage.allCases {
                        let output = LDMLRenderer.render(pattern, instant: instant, nanoseconds: 999_999_999, zone: info,
                                                         zoneIdentifier: zone, language: language)
                        #expect(!output.isEmpty && output.utf8.count < 128, "\(zone) \(text) @\(instant): '\(output)'")
                    }
                }
            }
        }
    }
}
