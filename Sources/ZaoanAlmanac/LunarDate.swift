/// A date of the Chinese calendar: 丙午年十月十二 is the 12th day of the 10th month of the
/// year 丙午 (43rd of the sexagenary cycle), which began in 2026.
public struct LunarDate: Hashable, Sendable, CustomStringConvertible {
    /// The Gregorian year in which this lunar year's first month (正月) began.
    public let relatedYear: Int
    /// 1–12.
    public let month: Int
    /// An intercalary month, which repeats the number of the month before it (闰六月).
    public let isLeapMonth: Bool
    /// 1–30.
    public let day: Int

    public init(relatedYear: Int, month: Int, isLeapMonth: Bool, day: Int) {
        self.relatedYear = relatedYear
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
    }

    /// The year's place in the sexagenary cycle: 1 for 甲子 … 60 for 癸亥 (1984 was 甲子).
    public var cycleYear: Int {
        ((relatedYear - 4) % 60 + 60) % 60 + 1
    }

    /// `丙午年十月十二`, `甲辰年闰冬月初三`: the year's stem and branch, the month as
    /// almanacs name it (正月 … 十月, 冬月, 腊月), the day as 初一 … 三十.
    public var chineseText: String {
        let index = cycleYear - 1
        let year = Self.stems[index % 10] + Self.branches[index % 12]
        return year + "年" + (isLeapMonth ? "闰" : "") + Self.monthNames[month - 1] + Self.dayNames[day - 1]
    }

    /// `Year of Bing-Wu, month 10, day 12`; a leap month reads `leap month 6`.
    public var englishText: String {
        let index = cycleYear - 1
        let year = Self.stemsLatin[index % 10] + "-" + Self.branchesLatin[index % 12]
        return "Year of \(year), \(isLeapMonth ? "leap month" : "month") \(month), day \(day)"
    }

    /// `2026 10 12`, `2025 6L 3` for a leap month: for tests and logs.
    public var description: String {
        "\(relatedYear) \(month)\(isLeapMonth ? "L" : "") \(day)"
    }

    package static let stems = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]
    package static let branches = ["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]
    package static let stemsLatin = ["Jia", "Yi", "Bing", "Ding", "Wu", "Ji", "Geng", "Xin", "Ren", "Gui"]
    package static let branchesLatin = ["Zi", "Chou", "Yin", "Mao", "Chen", "Si", "Wu", "Wei", "Shen", "You", "Xu", "Hai"]
    package static let monthNames = ["正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "冬月", "腊月"]
    package static let dayNames: [String] = {
        let digits = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
        return (1...30).map { day in
            switch day {
            case 1...10: return "初" + digits[day - 1]
            case 11...19: return "十" + digits[day - 11]
            case 20: return "二十"
            case 21...29: return "廿" + digits[day - 21]
            default: return "三十"
            }
        }
    }()
}
