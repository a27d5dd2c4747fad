import Testing
@testable import ZaoanTime

/// `ZoneInfo.localPeriod`: the instants a minute's (or an hour's) rendering stays right for,
/// on the zone's wall clock, cut where the offset changes.
@Suite struct LocalPeriodTests {
    private func zone(_ name: String) throws -> ZoneInfo { try ZoneInfoStore().zoneInfo(named: name) }

    @Test("every instant's period holds it, turns on the local minute, and keeps one offset", arguments: [
        "Europe/Berlin", "Asia/Kathmandu", "America/St_Johns", "Africa/Monrovia", "Australia/Lord_Howe", "Etc/UTC",
    ])
    func minutes(_ name: String) throws {
        let info = try zone(name)
        // Around a spring and an autumn change, and in 1971 (Monrovia's offset had seconds).
        let starts = [WallClock.localSeconds(year: 2026, month: 3, day: 29) - 7200, WallClock.localSeconds(year: 2026, month: 10, day: 25) - 7200,
                      WallClock.localSeconds(year: 2026, month: 4, day: 5) - 7200, WallClock.localSeconds(year: 1971, month: 6, day: 1)]
        for start in starts {
            for instant in stride(from: start, to: start + 6 * 3600, by: 37) {
                let period = info.localPeriod(around: instant, seconds: 60)
                #expect(period.contains(instant), "\(name) \(instant)")
                #expect(period.count <= 60)
                let offset = info.localTime(at: instant).offset
                #expect(info.localTime(at: period.lowerBound).offset == offset && info.localTime(at: period.upperBound - 1).offset == offset,
                        "\(name) \(instant): the offset changes inside \(period)")
                #expect((period.lowerBound + offset) / 60 == (period.upperBound - 1 + offset) / 60, "\(name) \(instant): two local minutes")
                // Full length unless an offset change cuts it.
                if info.localTime(at: period.lowerBound - 1).offset == offset && info.localTime(at: period.upperBound).offset == offset {
                    #expect(period.count == 60, "\(name) \(instant): \(period)")
                    #expect((period.lowerBound + offset) % 60 == 0)
                }
            }
        }
    }

    @Test("the period ends at the instant the clocks change")
    func endsAtChange() throws {
        let berlin = try zone("Europe/Berlin")
        let change = 1_774_746_000  // 2026-03-29 01:00 UTC: 02:00 CET becomes 03:00 CEST
        #expect(berlin.localPeriod(around: change - 1, seconds: 3600).upperBound == change)
        #expect(berlin.localPeriod(around: change, seconds: 60).lowerBound == change)
        // Caracas, 2016-05-01 02:30 at -04:30 became 03:00 at -04:00: mid-hour on the old
        // clock, so the hour 02:00-03:00 ends half-way, at the change.
        let caracas = try zone("America/Caracas")
        let halfHour = 1_462_086_000  // 07:00 UTC
        #expect(caracas.localPeriod(around: halfHour - 600, seconds: 3600) == (halfHour - 1800)..<halfHour)
        #expect(caracas.localPeriod(around: halfHour, seconds: 3600) == halfHour..<(halfHour + 3600))
    }

    @Test("outside input far out of range gives a period, never a trap")
    func extremes() throws {
        let berlin = try zone("Europe/Berlin")
        for instant in [Int.min, Int.max, -(1 << 62), 1 << 62] {
            _ = berlin.localPeriod(around: instant, seconds: 60)
            _ = berlin.localPeriod(around: instant, seconds: Int.max)
            _ = berlin.localPeriod(around: instant, seconds: Int.min)
        }
    }
}
