/// The 24 instants of a year's solar terms, each solved on the Sun's apparent longitude.
enum SolarTermSearch {
    /// The Sun's mean motion: 2π in a tropical year of 365.2422 days.
    static let sunRate = 2 * Double.pi / 365.2422

    /// The year's 24 terms, 小寒 first, 冬至 last.
    static func terms(ofYear year: Int) -> [SolarTermInstant] {
        let newYear = CivilDay(year: year, month: 1, day: 1).startUnixSeconds(offsetSeconds: 0)
        return SolarTerm.allCases.map { term in
            // Mean spacing from 小寒 on about 5 January: within two days of the truth.
            let guess = TerrestrialTime(unixSeconds: newYear + (5.5 + 15.2184 * Double(term.rawValue)) * 86_400)
            let time = instant(of: term, near: guess)
            let unixSeconds = time.unixSeconds
            return SolarTermInstant(term: term, unixSeconds: unixSeconds, day: ChinaTime.day(of: unixSeconds))
        }
    }

    static func instant(of term: SolarTerm, near guess: TerrestrialTime) -> TerrestrialTime {
        let target = Double(term.longitudeDegrees) * .pi / 180
        return AngleSearch.instant(where: ApparentPlace.sunLongitude(at:), reaches: target, near: guess, meanRate: sunRate)
    }
}

/// New moons: the instants the Moon's apparent longitude equals the Sun's.
enum NewMoonSearch {
    /// The mean synodic month, in days.
    static let synodicMonth = 29.530588861
    /// The mean new moon of lunation 0, in days since J2000.0 TT (6 January 2000, 18:14 TT).
    static let lunationZero = 5.09766

    /// The lunation whose mean new moon is nearest an instant.
    static func lunation(near unixSeconds: Double) -> Int {
        let days = TerrestrialTime(unixSeconds: unixSeconds).daysSinceJ2000
        return CivilDay.wholeNumber(((days - lunationZero) / synodicMonth).rounded())
    }

    /// How close to midnight (in China) a new moon found with Meeus's series must be for the
    /// day to be in doubt: that series is at worst 18″ off, 40 s of the Moon's motion.
    static let doubtfulSeconds = 120.0

    /// The day, in China, of the new moon of a lunation: the instant from Meeus's lunar
    /// series, and, when that lies within two minutes of midnight, again from ELP 2000-82B.
    /// Two new moons of 1901–2100 need the second, slower search: 2057-09-28 (23:59:58 by
    /// Meeus, 00:00:03 by ELP) and 2097-08-07 (23:59:34, 23:59:38).
    static func day(ofLunation lunation: Int) -> CivilDay {
        let quick = instant(ofLunation: lunation, theory: .meeus)
        let offset = Double(ChinaTime.offsetSeconds(at: quick))
        let secondsIntoDay = (quick + offset).truncatingRemainder(dividingBy: 86_400)
        let fromMidnight = min(abs(secondsIntoDay), 86_400 - abs(secondsIntoDay))
        guard fromMidnight < doubtfulSeconds else { return ChinaTime.day(of: quick) }
        return ChinaTime.day(of: instant(ofLunation: lunation, theory: .elp2000, near: quick))
    }

    /// The new moon of a lunation, in Unix seconds (UT).
    static func instant(ofLunation lunation: Int, theory: ApparentPlace.MoonTheory, near unixSeconds: Double? = nil) -> Double {
        let guess = unixSeconds.map { TerrestrialTime(unixSeconds: $0) }
            ?? TerrestrialTime(daysSinceJ2000: lunationZero + synodicMonth * Double(lunation))
        return AngleSearch.instant(where: { ApparentPlace.moonSunElongation(at: $0, theory: theory) }, reaches: 0,
                                   near: guess, meanRate: 2 * .pi / synodicMonth).unixSeconds
    }
}
