/// An instant in Terrestrial Time, the time scale of the ephemerides, as a Julian date split
/// into J2000.0 and days from it (ERFA's "J2000 method", which keeps the most precision).
struct TerrestrialTime {
    /// Days since J2000.0 (2000-01-01 12:00 TT).
    let daysSinceJ2000: Double

    static let j2000 = 2_451_545.0
    /// J2000.0 in Unix seconds, taken as UT: 2000-01-01 12:00.
    static let j2000UnixSeconds = 946_728_000.0

    init(daysSinceJ2000: Double) {
        self.daysSinceJ2000 = daysSinceJ2000
    }

    /// The TT instant of a UT one, UT being read as Unix seconds (UT1 − UTC, under a second,
    /// is left out).
    init(unixSeconds: Double) {
        let utDays = (unixSeconds - Self.j2000UnixSeconds) / 86_400
        let year = 2000 + utDays / 365.25
        daysSinceJ2000 = utDays + DeltaT.seconds(decimalYear: year) / 86_400
    }

    /// Back to Unix seconds (UT); ΔT is taken at this instant, which is exact enough: ΔT
    /// changes by well under a millisecond in the minutes it shifts the instant by.
    var unixSeconds: Double {
        let year = 2000 + daysSinceJ2000 / 365.25
        return Self.j2000UnixSeconds + daysSinceJ2000 * 86_400 - DeltaT.seconds(decimalYear: year)
    }

    func adding(days: Double) -> TerrestrialTime {
        TerrestrialTime(daysSinceJ2000: daysSinceJ2000 + days)
    }
}
