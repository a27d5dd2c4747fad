/// Finds when an angle that grows steadily with time (the Sun's longitude, the Moon's
/// elongation from the Sun) reaches a given value, by secant steps from a guess.
enum AngleSearch {
    /// The instant near `guess` at which `angle` equals `target` (radians, modulo 2π).
    /// - Parameters:
    ///   - meanRate: radians per day on average, for the first step; the secant then uses
    ///     the rate actually seen.
    ///   - tolerance: stop when a step is shorter than this many days (1e-7 days ≈ 9 ms).
    static func instant(
        where angle: (TerrestrialTime) -> Double,
        reaches target: Double,
        near guess: TerrestrialTime,
        meanRate: Double,
        tolerance: Double = 1e-7
    ) -> TerrestrialTime {
        var time = guess
        var miss = signedDifference(target, angle(time))
        var step = miss / meanRate
        for _ in 0..<30 {
            let next = time.adding(days: step)
            let nextMiss = signedDifference(target, angle(next))
            let gained = miss - nextMiss
            time = next
            if abs(step) < tolerance { break }
            // The angle moved by `gained` over `step`: the rate here.
            let rate = gained != 0 ? gained / step : meanRate
            miss = nextMiss
            step = miss / (rate > 0 ? rate : meanRate)
        }
        return time
    }

    /// target − value, folded into (−π, π].
    static func signedDifference(_ target: Double, _ value: Double) -> Double {
        let difference = ApparentPlace.normalized(target - value)
        return difference > .pi ? difference - 2 * .pi : difference
    }
}
