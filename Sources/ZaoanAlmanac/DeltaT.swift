/// ΔT = TT − UT: how far the clock of the ephemerides (Terrestrial Time, uniform) runs ahead
/// of the clock the Earth's rotation keeps (Universal Time, which zaoan takes to be UTC).
///
/// The model is the set of polynomials of Espenak & Meeus, *Five Millennium Canon of Solar
/// Eclipses: −1999 to +3000* (NASA/TP-2006-214141), section 2.6 — fitted to observations up
/// to 2005 and extrapolated after. Between 2000 and 2100 it stays within 23 s of PyEphem's
/// `delta_t` (63.8 s vs 63.9 s in 2000, 225 s vs 203 s in 2100; the tests compare the solar
/// terms with PyEphem's), and within 6 s of the measured values up to 2025 (69.2 s measured,
/// 74.5 s here). The future part is a guess by nature: nobody knows ΔT in 2100 to better than
/// a minute or two, and with it the minute of a solar term in 2100.
public enum DeltaT {
    /// ΔT in seconds at a decimal year (2026.5 is the middle of 2026).
    public static func seconds(decimalYear year: Double) -> Double {
        switch year {
        case ..<(-500):
            return longTermParabola(year)
        case ..<500:
            return polynomial(year / 100, [10583.6, -1014.41, 33.78311, -5.952053, -0.1798452, 0.022174192, 0.0090316521])
        case ..<1600:
            return polynomial((year - 1000) / 100, [1574.2, -556.01, 71.23472, 0.319781, -0.8503463, -0.005050998, 0.0083572073])
        case ..<1700:
            return polynomial(year - 1600, [120, -0.9808, -0.01532, 1.0 / 7129])
        case ..<1800:
            return polynomial(year - 1700, [8.83, 0.1603, -0.0059285, 0.00013336, -1.0 / 1_174_000])
        case ..<1860:
            return polynomial(year - 1800, [13.72, -0.332447, 0.0068612, 0.0041116, -0.00037436, 0.0000121272, -0.0000001699, 0.000000000875])
        case ..<1900:
            return polynomial(year - 1860, [7.62, 0.5737, -0.251754, 0.01680668, -0.0004473624, 1.0 / 233_174])
        case ..<1920:
            return polynomial(year - 1900, [-2.79, 1.494119, -0.0598939, 0.0061966, -0.000197])
        case ..<1941:
            return polynomial(year - 1920, [21.20, 0.84493, -0.076100, 0.0020936])
        case ..<1961:
            return polynomial(year - 1950, [29.07, 0.407, -1.0 / 233, 1.0 / 2547])
        case ..<1986:
            return polynomial(year - 1975, [45.45, 1.067, -1.0 / 260, -1.0 / 718])
        case ..<2005:
            return polynomial(year - 2000, [63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599])
        case ..<2050:
            return polynomial(year - 2000, [62.92, 0.32217, 0.005589])
        case ..<2150:
            return longTermParabola(year) - 0.5628 * (2150 - year)
        default:
            return longTermParabola(year)
        }
    }

    /// Morrison & Stephenson's long-term parabola, which the model uses far from the present.
    private static func longTermParabola(_ year: Double) -> Double {
        let centuries = (year - 1820) / 100
        return -20 + 32 * centuries * centuries
    }

    /// c₀ + c₁t + c₂t² + … by Horner's rule.
    private static func polynomial(_ t: Double, _ coefficients: [Double]) -> Double {
        coefficients.reversed().reduce(0) { $0 * t + $1 }
    }
}
