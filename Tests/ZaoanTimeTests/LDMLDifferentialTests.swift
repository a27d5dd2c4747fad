import Foundation
import Testing
@testable import ZaoanTime

/// The LDML engine against ICU's DateFormatter (the toolchain's Foundation: ICU 76, CLDR 46),
/// set up as the service sets it (FormatterCache: the language's locale identifier, the zone,
/// the proleptic Gregorian calendar), over random instants of 1900–2100 and instants around
/// each zone's offset changes, in zones with DST, negative DST, and odd offsets, for every
/// supported field at every width and some whole patterns, in the eight languages. A
/// difference passes only if it is listed in `LDMLKnownDifferences` (CLDR 46 against 47).
@Suite struct LDMLDifferentialTests {
    static let patterns: [String] = {
        var patterns: [String] = []
        for (letter, widths) in [("G", 1...5), ("y", 1...5), ("Q", 1...5), ("q", 1...5), ("M", 1...5), ("L", 1...5),
                                 ("d", 1...2), ("D", 1...3), ("E", 1...6), ("e", 1...6), ("c", 1...6), ("a", 1...5),
                                 ("h", 1...2), ("H", 1...2), ("K", 1...2), ("k", 1...2), ("m", 1...2), ("s", 1...2),
                                 ("S", 1...6), ("Z", 1...5), ("x", 1...5), ("X", 1...5), ("z", 1...4), ("V", 2...4),
                                 ("Y", 1...5), ("w", 1...2), ("W", 1...1), ("b", 1...5), ("B", 1...5)] {
            for width in widths { patterns.append(String(repeating: letter, count: width)) }
        }
        return patterns + ["v", "vvvv", "h:mm b", "h:mm:ss bbbb", "h b", "h:mm B", "h:mm:ss BBBB", "HH BBBBB", "h:mm bbbbb",
                           "YYYY-'W'ww-e", "YY w W", "HH:mm zzzz", "HH:mm z (VVV)", "HH:mm v", "O", "OOOO", "yyyy-MM-dd HH:mm", "EEEE d MMMM y", "HH:mm 'Uhr'", "h:mm a", "''yy 'o''clock' K",
                           "yyyy-MM-dd'T'HH:mm:ss.SSSxxx", "MMM d, y G", "y年M月d日 EEEE", "cccc LLLL", "QQQ yyyy", "HH:mm:ss ZZZZ"]
    }()

    static let zones = ["UTC", "Asia/Shanghai", "Asia/Taipei", "Asia/Tokyo", "Asia/Seoul", "Europe/Berlin", "Europe/Paris",
                        "Europe/Madrid", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe",
                        "America/St_Johns", "Pacific/Chatham", "Europe/Dublin", "Africa/Casablanca",
                        "America/Sao_Paulo", "Pacific/Kiritimati", "America/Caracas", "Antarctica/Troll",
                        "America/Los_Angeles", "America/Phoenix", "Europe/London", "Asia/Calcutta", "+05:45"]

    /// A zone of the list: its tz name, or for "+05:45" a fixed offset without one (the
    /// renderer's nil identifier; Foundation's TimeZone(secondsFromGMT:)).
    static func zone(_ name: String) throws -> (zone: ZoneInfo, identifier: String?, icu: TimeZone?) {
        guard name == "+05:45" else { return (try ZoneInfoStore.shared.zoneInfo(named: name), name, TimeZone(identifier: name)) }
        return (ZoneInfo.fixed(utcOffset: 20_700), nil, TimeZone(secondsFromGMT: 20_700))
    }

    /// The service's locale identifiers (ZaoanProtocol's `Language.localeIdentifier`).
    static func icuLocale(_ language: LDMLLanguage) -> String {
        switch language {
        case .zh: return "zh_CN"
        case .zhHant: return "zh_TW"
        case .en: return "en_US"
        case .ja: return "ja_JP"
        case .ko: return "ko_KR"
        case .de: return "de_DE"
        case .fr: return "fr_FR"
        case .es: return "es_ES"
        }
    }

    /// Seeded, so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Random instants of 1900–2100 and, for each offset change found among them, the
    /// seconds around it.
    static func instants(in zone: ZoneInfo, random: inout Generator) -> [Int] {
        let low = WallClock.localSeconds(year: 1900, month: 1, day: 2)
        let high = WallClock.localSeconds(year: 2100, month: 12, day: 30)
        var instants: [Int] = []
        for _ in 0..<40 {
            let instant = Int.random(in: low...high, using: &random)
            instants.append(instant)
            // The next change within 200 days, found by halving.
            var (before, after) = (instant, instant + 200 * 86_400)
            guard WallClock.offset(zone, at: before) != WallClock.offset(zone, at: after) else { continue }
            while after - before > 1 {
                let middle = before + (after - before) / 2
                if WallClock.offset(zone, at: middle) == WallClock.offset(zone, at: before) { before = middle } else { after = middle }
            }
            instants += [after - 3_601, after - 1, after, after + 1, after + 1_799]
        }
        return instants
    }

    @Test("the LDML engine formats as ICU's DateFormatter, but for CLDR 46–47 differences listed by name")
    func differential() throws {
        var random = Generator(state: 0x5A0A_4E1D)
        var compared = 0
        var documented: [String: Int] = [:]
        var failures: [String: (count: Int, first: String)] = [:]
        for zoneName in Self.zones {
            let (zone, identifier, icuZone) = try Self.zone(zoneName)
            let instants = Self.instants(in: zone, random: &random)
            let fractions = instants.map { _ in Int.random(in: 0...998, using: &random) * 1_000_000 + (Bool.random(using: &random) ? 250_000 : 750_000) }
            for language in LDMLLanguage.allCases {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: Self.icuLocale(language))
                formatter.timeZone = icuZone
                formatter.gregorianStartDate = Date.distantPast
                for text in Self.patterns {
                    let pattern = try LDMLPattern(text)
                    formatter.dateFormat = text
                    for (instant, nanoseconds) in zip(instants, fractions) {
                        let date = Date(timeIntervalSince1970: Double(instant) + Double(nanoseconds) / 1e9)
                        let icu = formatter.string(from: date)
                        let ours = LDMLRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone,
                                                       zoneIdentifier: identifier, language: language)
                        compared += 1
                        if icu == ours { continue }
                        let candidates = LDMLKnownDifferences.candidates(text, language, zone: zoneName, instant: instant, ours: ours)
                        if !candidates.isEmpty {
                            let icuData = LDMLKnownDifferences.icuVariant(language, identifier: identifier, candidates)
                            if LDMLRenderer.render(pattern, instant: instant, nanoseconds: nanoseconds, zone: zone,
                                                   zoneIdentifier: icuData.identifier, words: icuData.words,
                                                   zoneWords: icuData.zoneWords, zoneData: icuData.zoneData) == icu {
                                for entry in candidates { documented[entry.name, default: 0] += 1 }
                                continue
                            }
                        }
                        let key = "\(language) '\(text)' \(zoneName)"
                        let example = "\(zoneName) @\(instant).\(nanoseconds): ICU '\(icu)', ours '\(ours)'"
                        failures[key] = ((failures[key]?.count ?? 0) + 1, failures[key]?.first ?? example)
                    }
                }
            }
        }
        let listed = failures.sorted { $0.key < $1.key }.prefix(80).map { "\($0.key) ×\($0.value.count): \($0.value.first)" }
        #expect(failures.isEmpty, "\(failures.values.reduce(0) { $0 + $1.count }) differences:\n\(listed.joined(separator: "\n"))")
        #expect(compared > 100_000)
        for entry in LDMLKnownDifferences.entries {
            #expect(documented[entry.name, default: 0] > 0, "no case needs the known difference '\(entry.name)'")
        }
        print("LDMLDifferentialTests: \(compared) cases compared, \(documented.values.reduce(0, +)) answers differ as listed "
              + "(by entry: \(documented.sorted { $0.key < $1.key })), \(failures.values.reduce(0) { $0 + $1.count }) otherwise")
    }
}
