import Testing
@testable import ZaoanCore
@testable import ZaoanTime

@Suite struct RelativeTimeTextTests {
    static let now = 1_796_000_000  // any instant: the text depends only on the distance

    private func text(_ distance: Int, _ language: Language) -> String {
        RelativeTimeText.describe(Self.now + distance, from: Self.now, language: language)
    }

    /// Every unit boundary, one second before and at it, both ways, both languages.
    @Test(arguments: [
        // (seconds, past en, future en, past zh, future zh)
        (0, "just now", "just now", "刚刚", "刚刚"),
        (9, "just now", "just now", "刚刚", "刚刚"),
        (10, "10 seconds ago", "in 10 seconds", "10秒钟前", "10秒钟后"),
        (59, "59 seconds ago", "in 59 seconds", "59秒钟前", "59秒钟后"),
        (60, "1 minute ago", "in 1 minute", "1分钟前", "1分钟后"),
        (119, "1 minute ago", "in 1 minute", "1分钟前", "1分钟后"),
        (120, "2 minutes ago", "in 2 minutes", "2分钟前", "2分钟后"),
        (3_599, "59 minutes ago", "in 59 minutes", "59分钟前", "59分钟后"),
        (3_600, "1 hour ago", "in 1 hour", "1小时前", "1小时后"),
        (86_399, "23 hours ago", "in 23 hours", "23小时前", "23小时后"),
        (86_400, "1 day ago", "in 1 day", "1天前", "1天后"),
        (46 * 3_600, "1 day ago", "in 1 day", "1天前", "1天后"),
        (604_799, "6 days ago", "in 6 days", "6天前", "6天后"),
        (604_800, "1 week ago", "in 1 week", "1周前", "1周后"),
        (10 * 86_400, "1 week ago", "in 1 week", "1周前", "1周后"),
        (2_629_745, "4 weeks ago", "in 4 weeks", "4周前", "4周后"),
        (2_629_746, "1 month ago", "in 1 month", "1个月前", "1个月后"),
        (60 * 86_400, "1 month ago", "in 1 month", "1个月前", "1个月后"),
        (742 * 3_600, "1 month ago", "in 1 month", "1个月前", "1个月后"),
        (364 * 86_400, "11 months ago", "in 11 months", "11个月前", "11个月后"),
        (31_556_951, "11 months ago", "in 11 months", "11个月前", "11个月后"),
        (31_556_952, "1 year ago", "in 1 year", "1年前", "1年后"),
        (100 * 31_556_952, "100 years ago", "in 100 years", "100年前", "100年后"),
    ])
    func boundaries(_ seconds: Int, _ pastEN: String, _ futureEN: String, _ pastZH: String, _ futureZH: String) {
        #expect(text(-seconds, .en) == pastEN)
        #expect(text(seconds, .en) == futureEN)
        #expect(text(-seconds, .zh) == pastZH)
        #expect(text(seconds, .zh) == futureZH)
    }

    /// The same magnitude reads the same both ways, for every distance up to two years in
    /// steps that cross each boundary.
    @Test func sameMagnitudeBothWays() {
        var distance = 10
        while distance < 2 * 31_556_952 {
            for language in Language.allCases {
                let past = text(-distance, language), future = text(distance, language)
                let strippedPast = language == .zh ? String(past.dropLast()) : String(past.dropLast(4))
                let strippedFuture = language == .zh ? String(future.dropLast()) : String(future.dropFirst(3))
                #expect(strippedPast == strippedFuture, "\(distance) s: \(past) / \(future)")
            }
            distance += distance / 7 + 1
        }
    }

    @Test func extremeInstantsDoNotTrap() {
        #expect(RelativeTimeText.describe(Int.max, from: Int.min, language: .en).hasPrefix("in "))
        #expect(RelativeTimeText.describe(Int.min, from: Int.max, language: .zh).hasSuffix("年前"))
    }
}
