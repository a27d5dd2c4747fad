/// The 24 solar terms (节气), in the order they come in a Gregorian year: 小寒 (Minor Cold,
/// the Sun at 285°) first, 冬至 (Winter Solstice, 270°) last. A term is the instant the Sun's
/// apparent ecliptic longitude reaches its multiple of 15°.
public enum SolarTerm: Int, CaseIterable, Sendable {
    case minorCold, majorCold, startOfSpring, rainWater, awakeningOfInsects, springEquinox
    case clearAndBright, grainRain, startOfSummer, grainBuds, grainInEar, summerSolstice
    case minorHeat, majorHeat, startOfAutumn, endOfHeat, whiteDew, autumnEquinox
    case coldDew, frostsDescent, startOfWinter, minorSnow, majorSnow, winterSolstice

    /// The Sun's apparent longitude at the term, in degrees: 285, 300, …, 345, 0, …, 270.
    public var longitudeDegrees: Int { (285 + 15 * rawValue) % 360 }

    /// 中气, the twelve principal terms at multiples of 30° (冬至, 大寒, 雨水, …): the month
    /// that holds none of them is the leap month of a 13-month year.
    public var isPrincipal: Bool { longitudeDegrees % 30 == 0 }

    public var chineseName: String { Self.chineseNames[rawValue] }
    public var englishName: String { Self.englishNames[rawValue] }

    private static let chineseNames = [
        "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
        "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
    ]
    private static let englishNames = [
        "Minor Cold", "Major Cold", "Start of Spring", "Rain Water", "Awakening of Insects", "Spring Equinox",
        "Clear and Bright", "Grain Rain", "Start of Summer", "Grain Buds", "Grain in Ear", "Summer Solstice",
        "Minor Heat", "Major Heat", "Start of Autumn", "End of Heat", "White Dew", "Autumn Equinox",
        "Cold Dew", "Frost's Descent", "Start of Winter", "Minor Snow", "Major Snow", "Winter Solstice",
    ]
}

/// One solar term of one year: when it happens and on which day in China.
public struct SolarTermInstant: Hashable, Sendable {
    public let term: SolarTerm
    /// The instant, in Unix seconds (UT).
    public let unixSeconds: Double
    /// The day it falls on in Beijing time (`ChinaTime`), as Chinese almanacs give it.
    public let day: CivilDay
}
