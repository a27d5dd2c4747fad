import Foundation
import Testing
import ZaoanAlmanac
@testable import ZaoanCore

/// The words of zh-Hant, ja, ko, de, fr and es: greetings with their city and separator,
/// countdowns, phase notices, city names, the Chinese calendar's words and the dates ICU
/// writes for them. (`ago`'s words: RelativeTimeTextTests; strftime: the date oracle.)
@Suite struct LanguageWordingTests {
    /// `greeting` with no city at 07:00 in the zone configured: the table's morning row,
    /// the separator and the zone's city, all in the language.
    @Test(arguments: [
        ("zh-Hant", "Asia/Taipei", "早安·臺北"),
        ("zh-TW", "Asia/Shanghai", "早安·北京"),
        ("ja", "Asia/Tokyo", "おはよう·東京"),
        ("ja", "Asia/Seoul", "おはよう·ソウル"),
        ("ko", "Asia/Seoul", "좋은 아침이에요·서울"),
        ("ko-KR", "Asia/Tokyo", "좋은 아침이에요·도쿄"),
        ("de", "Europe/Berlin", "Guten Morgen · Berlin"),
        ("de-AT", "Asia/Shanghai", "Guten Morgen · Peking"),
        ("fr", "Europe/London", "Bonjour · Londres"),
        ("fr", "Asia/Shanghai", "Bonjour · Pékin"),
        ("es", "America/New_York", "Buenos días · Nueva York"),
        ("es", "Asia/Shanghai", "Buenos días · Pekín"),
        ("zh", "Asia/Tokyo", "早安·东京"),
        ("zh", "Asia/Seoul", "早安·首尔"),
        ("zh-Hant", "Asia/Seoul", "早安·首爾"),
        ("en", "Asia/Tokyo", "Good morning · Tokyo"),
    ])
    func morningGreeting(language: String, zone: String, expected: String) throws {
        let responder = Responder(settings: try makeSettings(language: language, timezone: zone))
        #expect(try responder.greeting(city: nil, now: try localInstant(2026, 11, 18, 7, 0, in: zone)) == expected)
    }

    /// Each new table at and just before each of its rows, with the day part bars see.
    /// Issue 33 changed zh-Hant's afternoon and evening (午安, 晚安: Taiwan's words, not the
    /// mainland's 下午好, 晚上好), ko's (안녕하세요 all day, 좋은 아침이에요 in the morning)
    /// and fr's (Bonjour until 18:00, then Bonsoir): docs/languages.md.
    @Test(arguments: [
        (Language.zhHant, 4, 59, "晚安", DayPart.night), (.zhHant, 5, 0, "早安", .morning), (.zhHant, 11, 0, "午安", .noon),
        (.zhHant, 14, 0, "午安", .afternoon), (.zhHant, 18, 0, "晚安", .evening), (.zhHant, 23, 0, "晚安", .night),
        (.ja, 4, 59, "おやすみ", .night), (.ja, 5, 0, "おはよう", .morning), (.ja, 10, 59, "おはよう", .morning),
        (.ja, 11, 0, "こんにちは", .afternoon), (.ja, 18, 0, "こんばんは", .evening), (.ja, 23, 0, "おやすみ", .night),
        (.ko, 5, 0, "좋은 아침이에요", .morning), (.ko, 11, 0, "안녕하세요", .afternoon), (.ko, 18, 0, "안녕하세요", .evening),
        (.ko, 23, 0, "안녕하세요", .night), (.ko, 4, 59, "안녕하세요", .night),
        (.de, 5, 0, "Guten Morgen", .morning), (.de, 11, 0, "Guten Tag", .afternoon), (.de, 18, 0, "Guten Abend", .evening),
        (.de, 23, 0, "Gute Nacht", .night),
        (.fr, 5, 0, "Bonjour", .morning), (.fr, 11, 59, "Bonjour", .morning), (.fr, 12, 0, "Bonjour", .afternoon),
        (.fr, 17, 59, "Bonjour", .afternoon), (.fr, 18, 0, "Bonsoir", .evening), (.fr, 23, 0, "Bonsoir", .night),
        (.fr, 4, 59, "Bonsoir", .night),
        (.es, 5, 0, "Buenos días", .morning), (.es, 12, 0, "Buenas tardes", .afternoon), (.es, 19, 59, "Buenas tardes", .afternoon),
        (.es, 20, 0, "Buenas noches", .evening), (.es, 23, 0, "Buenas noches", .night), (.es, 4, 59, "Buenas noches", .night),
    ])
    func tables(language: Language, hour: Int, minute: Int, text: String, part: DayPart) {
        let period = GreetingTable.standard(for: language).period(hour: hour, minute: minute)
        #expect(period.text == text)
        #expect(period.dayPart == part)
    }

    @Test func separators() {
        #expect(Language.allCases.map(GreetingTable.separator(for:)) == ["·", " · ", "·", "·", "·", " · ", " · ", " · "])
    }

    /// A room before, during and after, and with days, in full and short. The days are
    /// CLDR 47's duration-day unit since issue 33 (`2 T`, was `2T`; `2 天`, `2 日`).
    @Test(arguments: [
        (Language.zhHant, "距開播 00:05:00", "直播中 01:02:03", "已結束", "距開播 2 天 03:04:05", "-2 天"),
        (.ja, "配信開始まで 00:05:00", "配信中 01:02:03", "終了", "配信開始まで 2 日 03:04:05", "-2 日"),
        (.ko, "방송 시작까지 00:05:00", "방송 중 01:02:03", "종료", "방송 시작까지 2일 03:04:05", "-2일"),
        (.de, "beginnt in 00:05:00", "live 01:02:03", "beendet", "beginnt in 2 T 03:04:05", "-2 T"),
        (.fr, "commence dans 00:05:00", "en direct 01:02:03", "terminé", "commence dans 2j 03:04:05", "-2j"),
        (.es, "empieza en 00:05:00", "en directo 01:02:03", "terminado", "empieza en 2d 03:04:05", "-2d"),
        (.zh, "距开播 00:05:00", "直播中 01:02:03", "已结束", "距开播 2天 03:04:05", "-2天"),
        (.en, "starts in 00:05:00", "live 01:02:03", "ended", "starts in 2d 03:04:05", "-2d"),
    ])
    func countdowns(language: Language, upcoming: String, live: String, ended: String, days: String, shortDays: String) {
        #expect(CountdownText.render(.upcoming(seconds: 300), language: language) == upcoming)
        #expect(CountdownText.render(.live(seconds: 3723), language: language) == live)
        #expect(CountdownText.render(.ended, language: language) == ended)
        #expect(CountdownText.short(.ended, language: language) == ended)
        let twoDays = 2 * 86_400 + 3 * 3600 + 4 * 60 + 5
        #expect(CountdownText.render(.upcoming(seconds: twoDays), language: language) == days)
        #expect(CountdownText.short(.upcoming(seconds: twoDays), language: language) == shortDays)
        #expect(CountdownText.short(.live(seconds: twoDays), language: language) == "+" + shortDays.dropFirst())
        #expect(CountdownText.short(.upcoming(seconds: 300), language: language) == "-00:05:00")
    }

    /// A calendar event or festival is no broadcast: it counts down in a calendar's words
    /// (issue 33), a room keeps the broadcast's.
    @Test(arguments: [
        (Language.zh, "距开始 00:05:00", "进行中 01:02:03"),
        (.zhHant, "距開始 00:05:00", "進行中 01:02:03"),
        (.en, "starts in 00:05:00", "in progress 01:02:03"),
        (.ja, "開始まで 00:05:00", "進行中 01:02:03"),
        (.ko, "시작까지 00:05:00", "진행 중 01:02:03"),
        (.de, "beginnt in 00:05:00", "läuft 01:02:03"),
        (.fr, "commence dans 00:05:00", "en cours 01:02:03"),
        (.es, "empieza en 00:05:00", "en curso 01:02:03"),
    ])
    func eventCountdowns(language: Language, upcoming: String, live: String) {
        var event = LiveRoom(id: "cal:1", title: "", start: Instant(secondsSince1970: 0))
        event.source = "/home/me/work.ics"
        #expect(CountdownText.render(.upcoming(seconds: 300), of: event, language: language) == upcoming)
        #expect(CountdownText.render(.live(seconds: 3723), of: event, language: language) == live)
        let room = LiveRoom(id: "tea", title: "", start: Instant(secondsSince1970: 0))
        #expect(CountdownText.render(.live(seconds: 3723), of: room, language: language) == CountdownText.render(.live(seconds: 3723), language: language))
        #expect(CountdownText.render(.live(seconds: 3723), of: room, language: language) != live)
    }

    @Test(arguments: [
        (Language.zhHant, false, "將於 05:42:30 開播", "正在直播 · 05:42:30 開播", "已於 06:42:30 結束"),
        (.zhHant, true, "將於 05:42:30 開始", "正在進行 · 05:42:30 開始", "已於 06:42:30 結束"),
        (.ja, false, "05:42:30 に配信開始", "配信中 · 05:42:30 開始", "06:42:30 に終了"),
        (.ja, true, "05:42:30 に開始", "進行中 · 05:42:30 開始", "06:42:30 に終了"),
        (.ko, false, "05:42:30에 방송 시작", "방송 중 · 05:42:30 시작", "06:42:30에 종료"),
        (.ko, true, "05:42:30에 시작", "진행 중 · 05:42:30 시작", "06:42:30에 종료"),
        (.de, false, "bald — beginnt um 05:42:30", "jetzt live — seit 05:42:30", "beendet um 06:42:30"),
        (.de, true, "bald — beginnt um 05:42:30", "läuft — seit 05:42:30", "beendet um 06:42:30"),
        (.fr, false, "bientôt — commence à 05:42:30", "en direct — depuis 05:42:30", "terminé à 06:42:30"),
        (.fr, true, "bientôt — commence à 05:42:30", "en cours — depuis 05:42:30", "terminé à 06:42:30"),
        (.es, false, "pronto — empieza a las 05:42:30", "en directo — desde las 05:42:30", "terminó a las 06:42:30"),
        (.es, true, "pronto — empieza a las 05:42:30", "en curso — desde las 05:42:30", "terminó a las 06:42:30"),
    ])
    func phaseNotices(language: Language, event: Bool, soon: String, live: String, ended: String) {
        func say(_ phase: PhaseTransition.Phase) -> String {
            PhaseNoticeText.render(phase, start: "05:42:30", end: "06:42:30", calendarEvent: event, language: language)
        }
        #expect(say(.soon) == soon)
        #expect(say(.live) == live)
        #expect(say(.ended) == ended)
    }

    /// Every built-in city has a name in every language, and every name finds its zone.
    @Test func cityNames() throws {
        for city in BuiltinCities.all {
            for language in Language.allCases {
                let name = city.name(in: language)
                #expect(!name.isEmpty)
                #expect(BuiltinCities.byName[name] == city.zone, "\(language) \(name)")
                #expect(BuiltinCities.byName[name.lowercased()] == city.zone, "\(language) \(name)")
            }
        }
        #expect(BuiltinCities.name(forZone: "Asia/Taipei", language: .zhHant) == "臺北")
        #expect(BuiltinCities.name(forZone: "Asia/Taipei", language: .zh) == "台北")
        #expect(BuiltinCities.name(forZone: "Asia/Tokyo", language: .ja) == "東京")
        #expect(BuiltinCities.name(forZone: "Asia/Seoul", language: .ja) == "ソウル")
        #expect(BuiltinCities.name(forZone: "Europe/Moscow", language: .de) == "Moskau")
        #expect(BuiltinCities.name(forZone: "Etc/UTC", language: .ko) == "UTC")
        #expect(BuiltinCities.name(forZone: "America/Argentina/Buenos_Aires", language: .es) == "Buenos Aires")
        // A city may be named in any language and any case in `city` or a request; a built-in
        // one is named in the configured language (issue 33: it was shown as typed).
        let responder = Responder(settings: try makeSettings(language: "en"))
        let now = try localInstant(2026, 11, 18, 7, 0, in: "Asia/Seoul")
        #expect(try responder.greeting(city: "서울", now: now) == "Good morning · Seoul")
        #expect(try responder.greeting(city: "ソウル", now: now) == "Good morning · Seoul")
        #expect(try responder.greeting(city: "SEOUL", now: now) == "Good morning · Seoul")
        #expect(try makeSettings(city: "Nueva York").zone.identifier == "America/New_York")
        #expect(try makeSettings(city: "pékin").zone.identifier == "Asia/Shanghai")
    }

    /// `{lunar}`, `{solar_term}` and `{next_solar_term}`'s words.
    @Test func chineseCalendarWords() {
        let date = LunarDate(relatedYear: 2026, month: 10, isLeapMonth: false, day: 12)
        let leap = LunarDate(relatedYear: 2025, month: 6, isLeapMonth: true, day: 8)
        let twelfth = LunarDate(relatedYear: 2025, month: 12, isLeapMonth: false, day: 30)
        let expected: [(Language, String, String, String)] = [
            (.zh, "丙午年十月十二", "乙巳年闰六月初八", "乙巳年腊月三十"),
            (.zhHant, "丙午年十月十二", "乙巳年閏六月初八", "乙巳年臘月三十"),
            (.ja, "丙午年10月12日", "乙巳年閏6月8日", "乙巳年12月30日"),
            (.ko, "병오년 10월 12일", "을사년 윤6월 8일", "을사년 12월 30일"),
            (.de, "Jahr Bing-Wu, Monat 10, Tag 12", "Jahr Yi-Si, Schaltmonat 6, Tag 8", "Jahr Yi-Si, Monat 12, Tag 30"),
            (.fr, "année Bing-Wu, mois 10, jour 12", "année Yi-Si, mois intercalaire 6, jour 8", "année Yi-Si, mois 12, jour 30"),
            (.es, "año Bing-Wu, mes 10, día 12", "año Yi-Si, mes intercalar 6, día 8", "año Yi-Si, mes 12, día 30"),
            (.en, "Year of Bing-Wu, month 10, day 12", "Year of Yi-Si, leap month 6, day 8", "Year of Yi-Si, month 12, day 30"),
        ]
        for (language, plain, leapText, last) in expected {
            #expect(ChineseCalendar.text(of: date, language: language) == plain)
            #expect(ChineseCalendar.text(of: leap, language: language) == leapText)
            #expect(ChineseCalendar.text(of: twelfth, language: language) == last)
        }
        let names: [(Language, String, String)] = [
            (.zhHant, "驚蟄", "冬至"), (.ja, "啓蟄", "冬至"), (.ko, "경칩", "동지"), (.de, "Erwachen der Insekten", "Wintersonnenwende"),
            (.fr, "Réveil des insectes", "Solstice d’hiver"), (.es, "Despertar de los insectos", "Solsticio de invierno"),
        ]
        for (language, awakening, solstice) in names {
            #expect(ChineseCalendar.name(of: .awakeningOfInsects, language: language) == awakening)
            #expect(ChineseCalendar.name(of: .winterSolstice, language: language) == solstice)
            #expect(Set(SolarTerm.allCases.map { ChineseCalendar.name(of: $0, language: language) }).count == 24, "\(language)")
        }
    }

    /// The greeting's tooltip date and `time calendar=chinese`'s default, as ICU writes them;
    /// the built-in city typed 臺北 is named in the language (issue 33: no longer as typed).
    @Test(arguments: [
        // zh-Hant (Taiwan) and ko are 12-hour regions: CLDR's Bh:mm (清晨, the early
        // morning's day period) and aaaa h:mm (issue 33; was 07:00).
        (Language.zhHant, "臺北 2026年11月18日 星期三 清晨7:00", "丙午年十月初十"),
        (.en, "Taipei Wednesday, November 18, 2026 7:00 AM", "Year of bing-wu, month 10, day 10"),
        (.ja, "台北 2026年11月18日 水曜日 07:00", "丙午年10月10日"),
        (.ko, "타이베이 2026년 11월 18일 수요일 오전 7:00", "병오년 10월 10일"),
        (.de, "Taipeh Mittwoch, 18. November 2026 07:00", "Jahr bing-wu, Monat 10, Tag 10"),
        (.fr, "Taipei mercredi 18 novembre 2026 07:00", "année bing-wu, mois 10, jour 10"),
        (.es, "Taipéi miércoles, 18 de noviembre de 2026 07:00", "año bing-wu, mes 10, día 10"),
    ])
    func datesThroughICU(language: Language, tooltip: String, chineseDate: String) throws {
        let responder = Responder(settings: try makeSettings(language: language.rawValue, cities: ["臺北": "Asia/Taipei"]))
        let zone = try timeZone("Asia/Taipei")
        let now = try localInstant(2026, 11, 18, 7, 0, in: "Asia/Taipei")
        let shown = try responder.greetingAnswer(city: "臺北", now: now).tooltip
        #expect(shown == tooltip, "\(String(describing: shown))")
        #expect(try responder.chineseTime(pattern: nil, now: now, zone: zone) == chineseDate)
    }
}

/// Issue 33 point 8: a built-in city typed in any language or case is named in the
/// configured language; any other place as written.
@Suite struct TypedCityNameTests {
    @Test(arguments: [
        ("ja", "new york", "こんばんは·ニューヨーク"),
        ("ja", "NEW YORK", "こんばんは·ニューヨーク"),
        ("ja", "纽约", "こんばんは·ニューヨーク"),
        ("zh", "new york", "晚上好·纽约"),
        ("zh-Hant", "Nueva York", "晚安·紐約"),
        ("ko", "ニューヨーク", "안녕하세요·뉴욕"),
        ("de", "new york", "Guten Abend · New York"),
        ("fr", "NEW YORK", "Bonsoir · New York"),
        ("es", "new york", "Buenas tardes · Nueva York"),
        ("en", "ニューヨーク", "Good evening · New York"),
        ("ja", "pékin", "おはよう·北京"),
        ("de", "Beijing", "Guten Morgen · Peking"),
    ])
    func builtinCityInTheLanguage(language: String, typed: String, expected: String) throws {
        // 2026-11-18 07:00 in Beijing is 18:00 the day before in New York.
        let responder = Responder(settings: try makeSettings(language: language, timezone: "Asia/Shanghai"))
        let now = try localInstant(2026, 11, 18, 7, 0, in: "Asia/Shanghai")
        #expect(try responder.greeting(city: typed, now: now) == expected)
    }

    @Test func otherPlacesAsWritten() throws {
        let responder = Responder(settings: try makeSettings(language: "ja", cities: ["home": "Asia/Tokyo", "Paris": "Asia/Tokyo"]))
        let now = try localInstant(2026, 11, 18, 7, 0, in: "Asia/Tokyo")
        #expect(try responder.greeting(city: "home", now: now) == "おはよう·home")
        // The config's own Paris is not the built-in one: as written.
        #expect(try responder.greeting(city: "Paris", now: now) == "おはよう·Paris")
    }
}
