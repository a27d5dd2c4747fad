import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Numeric LDML patterns go through the strftime engine (`NumericDatePattern`); ICU's
/// DateFormatter is the oracle: the same text for every pattern, zone and instant here.
@Suite struct NumericDatePatternTests {
    static let patterns = [
        "yyyy-MM-dd HH:mm:ss", "HH:mm", "H:m:s", "d/M/yy", "yyy.M.d", "y年M月d日 H时mm分", "'at' HH:mm''ss''",
        "'It''s' H 'o''clock'", "yyyyMMddHHmmss", "HH:mm:ss 🕐", "dd. MM. yyyy", "—HH—",
    ]
    static let zones = ["UTC", "Asia/Shanghai", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
                        "Pacific/Chatham", "Europe/Berlin", "America/St_Johns"]

    @Test("what is taken and what stays with ICU")
    func translation() {
        #expect(NumericDatePattern.strftimeFormat(for: "yyyy-MM-dd HH:mm:ss") == "%Y-%m-%d %H:%M:%S")
        #expect(NumericDatePattern.strftimeFormat(for: "H:m:s") == "%-H:%-M:%-S")
        #expect(NumericDatePattern.strftimeFormat(for: "'at' HH:mm 100''") == "at %H:%M 100'")
        #expect(NumericDatePattern.strftimeFormat(for: "'50%' HH") == "50%% %H")
        for other in ["EEEE HH:mm", "MMM d", "h:mm a", "HH:mm z", "HH:mm:ss.SSS", "yyyyy", "HHH", "U年MMMd", "G y", "Y-ww", "k:mm"] {
            #expect(NumericDatePattern.strftimeFormat(for: other) == nil, "\(other) stays with ICU")
        }
    }

    @Test("the same text as ICU for 12 patterns, 8 zones, both languages, years 1000–9999 and every DST change of 2026")
    func sameAsICU() throws {
        var instants: [Int] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 { instants.append(Int.random(in: -30_610_137_600...253_402_128_000, using: &generator)) }
        for _ in 0..<400 { instants.append(Int.random(in: 0...4_102_444_800, using: &generator)) }
        // Around each 2026 DST change in these zones: a second before, at and after.
        for zone in Self.zones.compactMap(TimeZone.init(identifier:)) {
            var date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
            while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 1_798_761_600 {
                let t = Int(clampingSeconds: next.timeIntervalSince1970)
                instants += [t - 1, t, t + 1]
                date = next
            }
        }
        let icu = ICUOracle()
        var compared = 0
        var differences: [String] = []
        for language in Language.allCases {
            let responder = Responder(settings: try makeSettings(language: language.rawValue))
            for name in Self.zones {
                let zone = try timeZone(name)
                for pattern in Self.patterns {
                    let format = try #require(NumericDatePattern.strftimeFormat(for: pattern), "\(pattern)")
                    for instant in instants {
                        let now = Instant(secondsSince1970: Double(instant))
                        let ours = try responder.strftime(format, now: now, zone: zone, language: language)
                        let theirs = icu.string(now, pattern: pattern, locale: language.localeIdentifier, zone: name)
                        compared += 1
                        if ours != theirs && differences.count < 10 { differences.append("\(pattern) @\(instant) \(name): \(ours) vs ICU \(theirs)") }
                    }
                }
            }
        }
        print("numeric LDML patterns: \(compared) comparisons with ICU")
        #expect(differences.isEmpty, "\(differences)")
    }

    @Test("time with a numeric pattern answers as before, outside 1000–9999 too")
    func throughTheResponder() throws {
        let responder = Responder(settings: try makeSettings(language: "en"))
        let zone = try timeZone("Asia/Shanghai")
        for instant in [0, 1_780_000_000, -62_135_596_800 - 86_400 * 400, 253_402_300_800 + 86_400 * 400] {
            let now = Instant(secondsSince1970: Double(instant))
            let answer = try responder.time(pattern: "y-MM-dd HH:mm:ss", now: now, zone: zone)
            let icu = ICUOracle().string(now, pattern: "y-MM-dd HH:mm:ss", locale: "en_US", zone: "Asia/Shanghai")
            #expect(answer == icu, "@\(instant): \(answer) vs \(icu)")
        }
    }

    @Test("isoTime (schedule, live show, watch events) is ICU's yyyy-MM-dd'T'HH:mm:ssxxx over years 1–9999, 12 zones and their changes")
    func isoTimeSameAsICU() throws {
        var instants: [Int] = [-62_135_596_800, 253_402_300_799, 0, -1]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_500 { instants.append(Int.random(in: -62_135_596_800...253_402_300_799, using: &generator)) }
        for _ in 0..<1_500 { instants.append(Int.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        let names = Self.zones + ["Europe/Amsterdam", "Africa/Monrovia", "Asia/Kolkata", "America/Sao_Paulo"]
        let icu = ICUOracle()
        var differences: [String] = []
        var databasesDiffer = 0
        for name in names {
            let zone = try #require(TimeZone(identifier: name))
            var transitions: [Int] = []
            var date = Date(timeIntervalSince1970: -2_208_988_800)  // 1900: local mean times, odd offsets
            while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 1_900_000_000, transitions.count < 600 {
                let t = Int(clampingSeconds: next.timeIntervalSince1970)
                transitions += [t - 1, t, t + 1]
                date = next
            }
            let responder = Responder(settings: try makeSettings(timezone: name))
            let files = try ZoneInfoStore.shared.zoneInfo(named: name)
            for instant in instants + transitions {
                let now = Instant(secondsSince1970: Double(instant))
                // ICU carries its own tz database; zaoan reads the system's, as `date` does.
                // Where the two say different offsets (Europe/Amsterdam before 1940: the
                // system's tzdata links it to Brussels), the system's is the one compared.
                guard files.localTimeType(at: instant).utcOffset == zone.secondsFromGMT(for: Date(timeIntervalSince1970: now.secondsSince1970)) else {
                    databasesDiffer += 1
                    continue
                }
                let theirs = icu.string(now, pattern: "yyyy-MM-dd'T'HH:mm:ssxxx", locale: "en_US_POSIX", zone: name)
                let ours = responder.isoTime(now)
                if ours != theirs && differences.count < 10 { differences.append("@\(instant) \(name): \(ours) vs ICU \(theirs)") }
            }
        }
        print("isoTime: \(databasesDiffer) instants left out where ICU's and the system's tz databases differ")
        #expect(differences.isEmpty, "\(differences)")
    }
}
