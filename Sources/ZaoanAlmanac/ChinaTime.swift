/// The clock Chinese almanacs reckon days by: the day a solar term falls on, and the day a
/// new moon starts a month.
///
/// - From 1929: UTC+8, the standard time of 120°E, as the Purple Mountain Observatory's
///   almanacs and GB/T 33661-2017 have it.
/// - 1912–1928: the Republic's Central Observatory computed for Beijing's own meridian,
///   116°25′E, i.e. local mean time UTC+7:45:40. Three new moons of those years fell between
///   the two midnights (1914-11-17 23:47, 1916-02-03 23:50, 1920-11-10 23:50 Beijing mean
///   time), and the almanacs start those months a day earlier than UTC+8 would.
/// - Before 1912: the Qing almanacs (时宪历) came from older astronomy, which no modern
///   computation reproduces in general. In 1901–1911 reckoning at UTC+8 gives their dates:
///   the one new moon near midnight, 1906-04-23 23:52 Beijing mean time (00:06 at UTC+8),
///   started its month on 04-24.
///
/// lunar-python, built on the published almanacs, agrees with these rules on every day of
/// 1901–2100; ICU reckons every year at UTC+8 (and so differs in 1914, 1916 and 1920).
public enum ChinaTime {
    /// 1912-01-01 00:00 Beijing mean time, in Unix seconds.
    public static let beijingMeanTimeFrom: Double = -1_830_411_940
    /// 1929-01-01 00:00 UTC+8, in Unix seconds.
    public static let standardTimeFrom: Double = -1_293_868_800
    public static let standardOffsetSeconds = 8 * 3600
    public static let beijingMeanTimeOffsetSeconds = 7 * 3600 + 45 * 60 + 40

    /// Seconds east of UTC that the almanac reckons an instant's day in.
    public static func offsetSeconds(at unixSeconds: Double) -> Int {
        (beijingMeanTimeFrom..<standardTimeFrom).contains(unixSeconds) ? beijingMeanTimeOffsetSeconds : standardOffsetSeconds
    }

    /// The almanac's day of an instant.
    public static func day(of unixSeconds: Double) -> CivilDay {
        CivilDay(unixSeconds: unixSeconds, offsetSeconds: offsetSeconds(at: unixSeconds))
    }
}
