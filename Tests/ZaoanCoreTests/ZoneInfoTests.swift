import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// The TZif reader against the machine's real zone files, judged by an independent reader:
/// Python's `zoneinfo` (its own TZif and TZ-string code), and glibc through `date`.
@Suite struct ZoneInfoTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Calcutta", "Asia/Kathmandu",
        "Pacific/Chatham", "America/St_Johns", "Europe/Dublin", "Africa/Casablanca", "Antarctica/Troll", "America/Sao_Paulo",
        "Asia/Tehran", "Pacific/Apia", "Pacific/Kiritimati", "America/Santiago", "Europe/London", "Asia/Shanghai", "Etc/UTC",
        "Etc/GMT-14", "Etc/GMT+12", "America/Nuuk", "Europe/Moscow", "Asia/Gaza", "America/Havana", "Australia/Adelaide",
        "Pacific/Norfolk", "Asia/Dhaka", "America/Los_Angeles", "America/Caracas", "Africa/Cairo", "Asia/Jerusalem",
        "Europe/Lisbon", "America/Asuncion", "Pacific/Auckland", "Asia/Tokyo", "Australia/Eucla", "America/Mexico_City",
        "Europe/Kyiv", "America/Adak",
    ]

    /// Instants to ask about: a walk from 1900 to 2100 in steps of a week and a few hours
    /// (so every time of day comes up), each listed transition and 1 s either side, and the
    /// footer's changes until 2100 and 1 s either side.
    static func instants(for zone: ZoneInfo) -> [Int] {
        let from = -2_208_988_800  // 1900-01-01
        let to = 4_102_444_800  // 2100-01-01
        var instants = Array(stride(from: from, to: to, by: 7 * 86_400 + 3 * 3600 + 17 * 60 + 13))
        for transition in zone.transitions where transition > from && transition < to {
            instants += [transition - 1, transition, transition + 1]
        }
        if zone.footer != nil {
            for year in 2030...2100 {
                if let changes = zone.footer?.changes(inYear: year) {
                    instants += [changes.start - 1, changes.start, changes.start + 1, changes.end - 1, changes.end, changes.end + 1]
                }
            }
        }
        return instants
    }

    /// Python's answer for each instant: offset, DST flag, abbreviation.
    static func pythonLocalTimes(zone: String, instants: [Int]) throws -> [LocalTimeType] {
        let script = """
            import sys, zoneinfo, datetime
            z = zoneinfo.ZoneInfo(sys.argv[1])
            out = []
            for line in sys.stdin:
                d = datetime.datetime.fromtimestamp(int(line), z)
                out.append("%d %d %s" % (d.utcoffset().total_seconds(), d.dst() != datetime.timedelta(0), d.tzname()))
            sys.stdout.write("\\n".join(out) + "\\n")
            """
        let result = DateOracle.run("/usr/bin/python3", ["-c", script, zone], environment: [:],
                                    input: instants.map(String.init).joined(separator: "\n") + "\n")
        guard result.status == 0 else { throw DateOracle.TestLocaleFailure(description: "python3 zoneinfo failed for \(zone): \(result.errorText)") }
        return result.output.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return LocalTimeType(utcOffset: Int(fields[0])!, isDST: fields[1] == "1", abbreviation: String(fields[2]))
        }
    }

    @Test("offsets, DST flags and abbreviations of real zones match Python's zoneinfo, 1900–2100", arguments: zones)
    func realZone(_ name: String) throws {
        let store = ZoneInfoStore()
        let zone = try store.zoneInfo(named: name)
        let instants = Self.instants(for: zone)
        let expected = try Self.pythonLocalTimes(zone: name, instants: instants)
        var differences: [String] = []
        for (instant, oracle) in zip(instants, expected) {
            let mine = zone.localTimeType(at: instant)
            if mine != oracle {
                differences.append("\(instant): \(mine) vs python \(oracle)")
            }
        }
        let count = differences.count
        #expect(count == 0, "\(name): \(count) of \(instants.count) instants differ, e.g. \(differences.prefix(5))")
        #expect(instants.count > 10_000)
    }

    /// The footer decides everything after the last listed transition; 2100 is far past it.
    @Test("far-future instants follow the POSIX footer", arguments: [
        // (zone, UTC instant, offset, DST, abbreviation)
        ("Europe/Berlin", "2100-03-28T00:59:59Z", 3600, false, "CET"),
        ("Europe/Berlin", "2100-03-28T01:00:00Z", 7200, true, "CEST"),
        ("Europe/Berlin", "2100-10-31T00:59:59Z", 7200, true, "CEST"),
        ("Europe/Berlin", "2100-10-31T01:00:00Z", 3600, false, "CET"),
        ("America/New_York", "2100-03-14T06:59:59Z", -18000, false, "EST"),
        ("America/New_York", "2100-03-14T07:00:00Z", -14400, true, "EDT"),
        ("America/New_York", "2100-11-07T05:59:59Z", -14400, true, "EDT"),
        ("America/New_York", "2100-11-07T06:00:00Z", -18000, false, "EST"),
        // Lord Howe: +10:30 standard, +11 in summer, changing at 02:00 local.
        ("Australia/Lord_Howe", "2100-04-03T14:59:59Z", 39600, true, "+11"),
        ("Australia/Lord_Howe", "2100-04-03T15:00:00Z", 37800, false, "+1030"),
        ("Australia/Lord_Howe", "2100-10-02T15:29:59Z", 37800, false, "+1030"),
        ("Australia/Lord_Howe", "2100-10-02T15:30:00Z", 39600, true, "+11"),
        ("Asia/Kathmandu", "2100-06-01T00:00:00Z", 20700, false, "+0545"),
        ("Pacific/Chatham", "2100-01-01T00:00:00Z", 49500, true, "+1345"),
        ("Pacific/Chatham", "2100-07-01T00:00:00Z", 45900, false, "+1245"),
    ])
    func footerFarFuture(zone name: String, utc: String, offset: Int, isDST: Bool, abbreviation: String) throws {
        let zone = try ZoneInfoStore().zoneInfo(named: name)
        let instant = Int(clampingSeconds: try instant(utc).secondsSince1970)
        #expect(instant > zone.transitions.last ?? 0, "the footer should be what decides")
        let local = zone.localTime(at: instant)
        #expect(local.offset == offset && local.isDST == isDST && local.abbreviation == abbreviation, "\(name) at \(utc): \(local)")
    }

    @Test("wall-clock times resolve to 0, 1 or 2 instants", arguments: [
        // (zone, local "yyyy-MM-dd HH:mm:ss" as if UTC, expected)
        ("Europe/Berlin", "2026-03-29T02:30:00Z", LocalTimeResolution.skipped(gapSeconds: 3600, transition: 1_774_746_000)),
        ("Europe/Berlin", "2026-03-29T01:59:59Z", .unique(1_774_745_999)),
        ("Europe/Berlin", "2026-03-29T03:00:00Z", .unique(1_774_746_000)),
        ("Europe/Berlin", "2026-10-25T02:30:00Z", .repeated([1_792_888_200, 1_792_891_800])),
        ("Europe/Berlin", "2026-10-25T03:00:00Z", .unique(1_792_893_600)),
        ("America/New_York", "2026-03-08T02:15:00Z", .skipped(gapSeconds: 3600, transition: 1_772_953_200)),
        ("America/New_York", "2026-11-01T01:15:00Z", .repeated([1_793_510_100, 1_793_513_700])),
        // Lord Howe moves its clocks by half an hour.
        ("Australia/Lord_Howe", "2026-10-04T02:15:00Z", .skipped(gapSeconds: 1800, transition: 1_791_041_400)),
        ("Australia/Lord_Howe", "2026-04-05T01:45:00Z", .repeated([1_775_313_900, 1_775_315_700])),
        ("Asia/Kolkata", "2026-06-01T12:00:00Z", .unique(1_780_295_400)),
        // Far future: only the footer knows.
        ("Europe/Berlin", "2100-03-28T02:30:00Z", .skipped(gapSeconds: 3600, transition: 4_109_878_800)),
        ("Europe/Berlin", "2100-10-31T02:30:00Z", .repeated([4_128_625_800, 4_128_629_400])),
    ])
    func resolvesLocalTimes(zone name: String, local: String, expected: LocalTimeResolution) throws {
        let zone = try ZoneInfoStore().zoneInfo(named: name)
        let localSeconds = Int(clampingSeconds: try instant(local).secondsSince1970)
        #expect(zone.instants(atLocal: localSeconds) == expected)
    }

    /// Every answer of the resolver shows the asked local time, and nothing it leaves out
    /// does: checked every 20 minutes through 2026 in zones with odd transitions.
    @Test("the resolver agrees with localTime", arguments: ["Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns", "Europe/Dublin", "Pacific/Apia"])
    func resolverAgrees(_ name: String) throws {
        let zone = try ZoneInfoStore().zoneInfo(named: name)
        var problems: [String] = []
        for local in stride(from: 1_767_225_600, to: 1_798_761_600, by: 1200) {  // 2026, local
            let resolution = zone.instants(atLocal: local)
            // Brute force: every offset the zone shows within a day either side.
            let offsets = Set(stride(from: local - 93_600, through: local + 93_600, by: 1800).map { zone.localTime(at: $0).offset })
            let shown = Set(offsets.map { local - $0 }.filter { $0 + zone.localTime(at: $0).offset == local })
            if shown != Set(resolution.instants) { problems.append("\(local): \(resolution) vs \(shown.sorted())") }
            if case .skipped(let gap, _) = resolution, gap <= 0 { problems.append("\(local): gap \(gap)") }
        }
        let count = problems.count
        #expect(count == 0, "\(name): \(problems.prefix(5))")
    }

    /// One rule for wall clocks that occur twice or never: read from a zone's offsets alone
    /// (a calendar file's VTIMEZONE) it gives what the tz database's transitions give,
    /// every 10 minutes through 2026 and through 2011, when Samoa skipped a whole day.
    @Test("a zone known by its offsets alone resolves wall clocks as its transitions do", arguments: ["Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns", "Europe/Dublin", "Pacific/Apia", "America/Santiago"])
    func offsetResolutionAgrees(_ name: String) throws {
        let zone = try ZoneInfoStore().zoneInfo(named: name)
        var problems: [String] = []
        for year in [(1_293_840_000, 1_325_376_000), (1_767_225_600, 1_798_761_600)] {
            for local in stride(from: year.0, to: year.1, by: 600) {
                let byTransitions = WallClock.resolve(local, in: zone)
                let byOffsets = WallClock.resolve(local) { zone.localTime(at: $0).offset }
                if byTransitions != byOffsets { problems.append("\(WallClock.describe(local: local)): \(byTransitions) vs \(byOffsets)") }
            }
        }
        let count = problems.count
        #expect(count == 0, "\(name): \(count) differ, \(problems.prefix(4))")
        #expect(WallClock.resolve(1_000) { _ in nil } == .unique(1_000), "no offset known: read as UTC")
    }

    @Test func fixedOffsetsAreNamedLikeTheTzDatabase() throws {
        #expect(ZoneInfo.fixed(utcOffset: 28_800).localTime(at: 0) == (28_800, false, "+08"))
        #expect(ZoneInfo.fixed(utcOffset: 19_800).localTime(at: 0).abbreviation == "+0530")
        #expect(ZoneInfo.fixed(utcOffset: -12_600).localTime(at: 0).abbreviation == "-0330")
        #expect(ZoneInfo.fixed(utcOffset: 20_730).localTime(at: 0).abbreviation == "+054530")
        #expect(ZoneInfo.fixed(utcOffset: 0).localTime(at: 0).abbreviation == "+00")
        // The tz database's own fixed zones say the same, and glibc prints these for a
        // quoted TZ string.
        #expect(try ZoneInfoStore().zoneInfo(named: "Etc/GMT-8").localTime(at: 0).abbreviation == "+08")
        for offset in [28_800, 19_800, -12_600] {
            let abbreviation = ZoneInfo.fixed(utcOffset: offset).localTime(at: 0).abbreviation
            let posix = "<\(abbreviation)>\(offset < 0 ? "+" : "-")\(abs(offset) / 3600):\(abs(offset) / 60 % 60)"
            #expect(try DateOracle.outputs("%Z %z", at: [0], zone: posix) == [abbreviation + " " + abbreviation.padding(toLength: 5, withPad: "0", startingAt: 0)])
        }
    }

    @Test("GMT/UTC offsets are fixed zones, never the Etc/GMT files of opposite sign; only tz names read files")
    func fixedOffsetZones() throws {
        let store = ZoneInfoStore()
        let eight = try #require(Zone.named("GMT+8", store: store))
        #expect(eight.identifier == "GMT+0800" && eight.fixedOffset == 28_800)
        #expect(eight.info(store: store).localTime(at: 0) == (28_800, false, "+08"))
        let india = try #require(Zone.named("UTC+5:30", store: store))
        #expect(india.identifier == "GMT+0530")
        #expect(india.info(store: store).localTime(at: 0).abbreviation == "+0530")
        #expect(Zone.named("UTC-03:30", store: store)?.fixedOffset == -12_600)
        #expect(store.fileReads == 0)
        let kolkata = try #require(Zone.named("Asia/Kolkata", store: store))
        #expect(kolkata.info(store: store).localTime(at: 1_780_000_000).abbreviation == "IST")
        // The tz database's Etc/GMT-8 is 8 hours east (POSIX signs), and stays a tz zone.
        #expect(Zone.named("Etc/GMT-8", store: store)?.info(store: store).localTime(at: 0).offset == 28_800)
        #expect(store.fileReads == 2)
        for refused in ["GMT+19", "UTC+8:0", "GMT+123", "GMT8", "UTC+", "GMT+08:60", "../etc/passwd", "Nowhere/City"] {
            #expect(Zone.named(refused, store: store) == nil, "\(refused)")
        }
    }
}
