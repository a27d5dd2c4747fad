/// `b` (noon, else AM/PM) and `B` (CLDR's flexible day periods: "in the morning", 凌晨, 上午,
/// 中午, 下午, 晚上), by ICU's SimpleDateFormat rules: noon is 12:00 with the minutes and
/// seconds the pattern shows at zero (those it does not show do not count); midnight, which
/// ICU deliberately never writes, is the period its hour falls in; and a period without a
/// name at the width falls back to AM/PM (`a` at the same width).
extension LDMLRenderer {
    static func dayPeriod(_ field: LDMLPattern.Field, width: Int, _ context: Context) -> String {
        let (time, words) = (context.time, context.words)
        let atNoon = time.hour == 12 && (!context.pattern.showsMinutes || time.minute == 0)
            && (!context.pattern.showsSeconds || time.second == 0)
        let noon = 1
        var period: Int?
        if field == .noonPeriod {
            period = atNoon ? noon : nil
        } else if atNoon, words.hasNoonRule {
            period = noon
        } else if words.flexibleDayPeriodOfHour.indices.contains(time.hour) {
            period = words.flexibleDayPeriodOfHour[time.hour]
        }
        if let period {
            let text = name(words.flexibleDayPeriods, period, width: width)
            if !text.isEmpty { return text }
        }
        return name(words.dayPeriods, time.hour < 12 ? 0 : 1, width: width)
    }
}
