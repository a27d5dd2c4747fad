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

    /// The count and unit of a past and a future answer: the words for before and after
    /// taken off.
    static func count(past: String, future: String, _ language: Language) -> (String, String) {
        switch language {
        case .zh, .zhHant: return (String(past.dropLast()), String(future.dropLast()))
        case .en: return (String(past.dropLast(4)), String(future.dropFirst(3)))
        case .ja: return (String(past.dropLast()), String(future.dropLast()))
        case .ko: return (String(past.dropLast(2)), String(future.dropLast(2)))
        case .de: return (String(past.dropFirst(4)), String(future.dropFirst(3)))
        case .fr: return (String(past.dropFirst(7)), String(future.dropFirst(5)))
        case .es: return (String(past.dropFirst(5)), String(future.dropFirst(10)))
        }
    }

    /// Each language's words at the boundaries where its forms change: now, the
    /// abbreviated units, singular and plural. CLDR 47's (issue 33: zh-Hant's seconds are
    /// 秒 like its 小時, ja's future 後, es's future «dentro de», fr's no-break space).
    @Test(arguments: [
        // (seconds, language, past, future)
        (5, Language.zhHant, "剛剛", "剛剛"),
        (20, .zhHant, "20 秒前", "20 秒後"),
        (300, .zhHant, "5 分鐘前", "5 分鐘後"),
        (3 * 3_600, .zhHant, "3 小時前", "3 小時後"),
        (2 * 604_800, .zhHant, "2 週前", "2 週後"),
        (3 * 2_629_746, .zhHant, "3 個月前", "3 個月後"),
        (5, .ja, "たった今", "たった今"),
        (300, .ja, "5分前", "5分後"),
        (3 * 3_600, .ja, "3時間前", "3時間後"),
        (2 * 604_800, .ja, "2週間前", "2週間後"),
        (3 * 2_629_746, .ja, "3か月前", "3か月後"),
        (5, .ko, "방금", "방금"),
        (300, .ko, "5분 전", "5분 후"),
        (86_400, .ko, "1일 전", "1일 후"),
        (3 * 2_629_746, .ko, "3개월 전", "3개월 후"),
        (2 * 31_556_952, .ko, "2년 전", "2년 후"),
        (5, .de, "gerade eben", "gerade eben"),
        (30, .de, "vor 30 Sek.", "in 30 Sek."),
        (300, .de, "vor 5 Min.", "in 5 Min."),
        (3 * 3_600, .de, "vor 3 Std.", "in 3 Std."),
        (86_400, .de, "vor 1 Tag", "in 1 Tag"),
        (2 * 86_400, .de, "vor 2 Tagen", "in 2 Tagen"),
        (604_800, .de, "vor 1 Woche", "in 1 Woche"),
        (2 * 2_629_746, .de, "vor 2 Monaten", "in 2 Monaten"),
        (31_556_952, .de, "vor 1 Jahr", "in 1 Jahr"),
        (5, .fr, "à l’instant", "à l’instant"),
        (300, .fr, "il y a 5\u{00A0}min", "dans 5\u{00A0}min"),
        (3 * 3_600, .fr, "il y a 3\u{00A0}h", "dans 3\u{00A0}h"),
        (86_400, .fr, "il y a 1 jour", "dans 1 jour"),
        (2 * 86_400, .fr, "il y a 2 jours", "dans 2 jours"),
        (2 * 2_629_746, .fr, "il y a 2 mois", "dans 2 mois"),
        (2 * 31_556_952, .fr, "il y a 2 ans", "dans 2 ans"),
        (5, .es, "ahora mismo", "ahora mismo"),
        (300, .es, "hace 5 min", "dentro de 5 min"),
        (86_400, .es, "hace 1 día", "dentro de 1 día"),
        (2 * 604_800, .es, "hace 2 semanas", "dentro de 2 semanas"),
        (2 * 2_629_746, .es, "hace 2 meses", "dentro de 2 meses"),
        (31_556_952, .es, "hace 1 año", "dentro de 1 año"),
    ])
    func otherLanguages(seconds: Int, language: Language, past: String, future: String) {
        #expect(text(-seconds, language) == past)
        #expect(text(seconds, language) == future)
    }

    /// The same magnitude reads the same both ways, for every distance up to two years in
    /// steps that cross each boundary.
    @Test func sameMagnitudeBothWays() {
        var distance = 10
        while distance < 2 * 31_556_952 {
            for language in Language.allCases {
                let past = text(-distance, language), future = text(distance, language)
                let (strippedPast, strippedFuture) = Self.count(past: past, future: future, language)
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
