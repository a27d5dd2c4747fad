import CAstronomy
import Glibc

/// The apparent geocentric ecliptic longitudes of the Sun and the Moon: the direction an
/// observer at the Earth's centre sees, referred to the true equinox and ecliptic of date.
///
/// Both bodies go through the same steps, with ERFA:
/// 1. Geometric positions in the GCRS: the Earth's from `eraEpv00` (SOFA's fit to VSOP2000,
///    a few km over 1900–2100); the Moon's from one of two `MoonTheory`s — `eraMoon98`
///    (Meeus's truncation of ELP-2000/82, 2.9″ RMS, 18″ at worst, ~20 µs) or libnova's full
///    ELP 2000-82B (37,000 terms, ~2.6 ms), which puts new moons within 1.2 s (s.d.) of
///    PyEphem's where Meeus's series is 5.6 s off.
/// 2. Light time: the body where it was when the light left it (8.3 minutes for the Sun,
///    1.3 seconds for the Moon), from its barycentric velocity.
/// 3. Annual aberration (`eraAb`, relativistic) with the Earth's barycentric velocity:
///    about 20.5″, i.e. the Sun is seen 20.5″ behind its geometric place.
/// 4. The ecliptic and equinox of date, IAU 2006 precession with the frame bias
///    (`eraEcm06`), then the IAU 2000A nutation in longitude Δψ (`eraNut06a`): the equinox
///    moves along the ecliptic by Δψ, so the true longitude is the mean one plus Δψ.
enum ApparentPlace {
    /// The time light takes over one au, in days (499 s): ERFA's ERFA_AULT, a macro Swift
    /// does not import.
    static let lightDaysPerAU = ERFA_DAU / ERFA_CMPS / ERFA_DAYSEC

    /// The Sun's apparent longitude, radians in [0, 2π).
    static func sunLongitude(at time: TerrestrialTime) -> Double {
        let frame = EclipticOfDate(time)
        return frame.longitude(of: sunDirection(time, earth: EarthState(time)))
    }

    /// Where the Moon's geometric position comes from.
    enum MoonTheory {
        /// ERFA's `eraMoon98`: fast, 2.9″ RMS — new moons to about 6 s.
        case meeus
        /// libnova's full ELP 2000-82B: 130 times slower, new moons to about a second.
        case elp2000
    }

    /// The Moon's apparent longitude minus the Sun's, radians in [0, 2π): 0 at new moon.
    static func moonSunElongation(at time: TerrestrialTime, theory: MoonTheory) -> Double {
        let frame = EclipticOfDate(time)
        let earth = EarthState(time)
        let moon = moonDirection(time, earth: earth, theory: theory)
        return normalized(frame.longitude(of: moon) - frame.longitude(of: sunDirection(time, earth: earth)))
    }

    /// Radians folded into [0, 2π).
    static func normalized(_ angle: Double) -> Double {
        let folded = angle.truncatingRemainder(dividingBy: 2 * .pi)
        return folded < 0 ? folded + 2 * .pi : folded
    }

    /// The Earth's heliocentric and barycentric position and velocity (au, au/day).
    private struct EarthState {
        var heliocentric: Vector.PositionVelocity
        var barycentric: Vector.PositionVelocity

        init(_ time: TerrestrialTime) {
            var helio: [Vector.Triple] = [(0, 0, 0), (0, 0, 0)]
            var bary: [Vector.Triple] = [(0, 0, 0), (0, 0, 0)]
            // eraEpv00 warns (returns 1) for dates outside 1900–2100, where it is still good
            // to a few arcseconds: enough for the day a term falls on.
            _ = eraEpv00(TerrestrialTime.j2000, time.daysSinceJ2000, &helio, &bary)
            heliocentric = Vector.PositionVelocity(position: Vector(helio[0]), velocity: Vector(helio[1]))
            barycentric = Vector.PositionVelocity(position: Vector(bary[0]), velocity: Vector(bary[1]))
        }

        /// The Earth's barycentric velocity in units of the speed of light.
        var velocityOverC: Vector { barycentric.velocity.scaled(by: ApparentPlace.lightDaysPerAU) }
    }

    /// The Sun's apparent direction (unit vector, GCRS axes).
    private static func sunDirection(_ time: TerrestrialTime, earth: EarthState) -> Vector {
        // The Sun's barycentric position and velocity: the Earth's barycentric one less its
        // heliocentric one.
        let sunVelocity = earth.barycentric.velocity - earth.heliocentric.velocity
        let distance = earth.heliocentric.position.length
        let lightTime = distance * lightDaysPerAU
        // Where the Sun was when the light left it, seen from where the Earth is now.
        let geometric = earth.heliocentric.position.scaled(by: -1) - sunVelocity.scaled(by: lightTime)
        return aberrated(geometric, earth: earth, sunDistance: distance)
    }

    /// The Moon's apparent direction (unit vector, GCRS axes).
    private static func moonDirection(_ time: TerrestrialTime, earth: EarthState, theory: MoonTheory) -> Vector {
        var pv: [Vector.Triple] = [(0, 0, 0), (0, 0, 0)]
        eraMoon98(TerrestrialTime.j2000, time.daysSinceJ2000, &pv)
        var geocentric = Vector(pv[0])
        // eraMoon98's velocity serves both theories: the light-time step it feeds is 0.7″.
        let velocity = Vector(pv[1])
        let lightTime = geocentric.length * lightDaysPerAU
        if theory == .elp2000 {
            geocentric = elp2000Position(time).scaled(by: geocentric.length)
        }
        // The Moon's barycentric place when the light left, less the Earth's now: its
        // geocentric motion and the Earth's both move it back along the light path.
        let geometric = geocentric - (velocity + earth.barycentric.velocity).scaled(by: lightTime)
        return aberrated(geometric, earth: earth, sunDistance: earth.heliocentric.position.length)
    }

    /// The Moon's geocentric direction by ELP 2000-82B (unit vector, GCRS axes). The theory
    /// gives it on the mean ecliptic and equinox of J2000: tilt that by the J2000 obliquity
    /// (IAU 2006, 84381.406″) onto the J2000 mean equator, then undo the frame bias.
    private static func elp2000Position(_ time: TerrestrialTime) -> Vector {
        var ecliptic = ln_rect_posn()
        ln_get_lunar_geo_posn(TerrestrialTime.j2000 + time.daysSinceJ2000, &ecliptic, 0)
        let obliquity = 84381.406 * ERFA_DAS2R
        var meanEquatorJ2000 = [ecliptic.X,
                                ecliptic.Y * cos(obliquity) - ecliptic.Z * sin(obliquity),
                                ecliptic.Y * sin(obliquity) + ecliptic.Z * cos(obliquity)]
        var bias: [Vector.Triple] = [(0, 0, 0), (0, 0, 0), (0, 0, 0)]
        var precession = bias
        var both = bias
        eraBp06(TerrestrialTime.j2000, 0, &bias, &precession, &both)
        var gcrs = [0.0, 0.0, 0.0]
        eraTrxp(&bias, &meanEquatorJ2000, &gcrs)
        return Vector((gcrs[0], gcrs[1], gcrs[2])).unit
    }

    private static func aberrated(_ geometric: Vector, earth: EarthState, sunDistance: Double) -> Vector {
        let velocity = earth.velocityOverC
        let inverseLorentz = (1 - velocity.dot(velocity)).squareRoot()
        let natural = geometric.unit
        var direction = [natural.x, natural.y, natural.z]
        var v = [velocity.x, velocity.y, velocity.z]
        var apparent = [0.0, 0.0, 0.0]
        eraAb(&direction, &v, sunDistance, inverseLorentz, &apparent)
        return Vector((apparent[0], apparent[1], apparent[2]))
    }

    /// The rotation from GCRS axes to the mean ecliptic and equinox of date, and the
    /// nutation in longitude that carries the mean equinox to the true one.
    private struct EclipticOfDate {
        var rows: (Vector, Vector, Vector)
        var nutationInLongitude: Double

        init(_ time: TerrestrialTime) {
            var matrix: [Vector.Triple] = [(0, 0, 0), (0, 0, 0), (0, 0, 0)]
            eraEcm06(TerrestrialTime.j2000, time.daysSinceJ2000, &matrix)
            rows = (Vector(matrix[0]), Vector(matrix[1]), Vector(matrix[2]))
            var dpsi = 0.0
            var deps = 0.0
            eraNut06a(TerrestrialTime.j2000, time.daysSinceJ2000, &dpsi, &deps)
            nutationInLongitude = dpsi
        }

        /// The true (apparent) ecliptic longitude of a GCRS direction, radians in [0, 2π).
        func longitude(of direction: Vector) -> Double {
            let x = rows.0.dot(direction)
            let y = rows.1.dot(direction)
            return normalized(atan2(y, x) + nutationInLongitude)
        }
    }
}
