import ZaoanProtocol

/// China's holidays and make-up workdays in words: the holidays' names (in Chinese as the
/// State Council's notices name them; in English as gov.cn's English pages do; in the other
/// languages as their press and Wikipedia articles on China's holidays do), `{workday}`'s
/// text and the grid's one-character marks with their legend.
public struct WorkdayWords: Sendable {
    /// In `ChinaHoliday.allCases` order.
    let names: [String]
    /// `{workday}` on a holiday: the name follows.
    let publicHoliday: String
    /// `{workday}` on a make-up workday.
    let makeupWorkday: String
    /// The grid's marks for a holiday and a make-up workday, as the language's calendars print
    /// them (休 and 班 on Chinese ones), each one or two columns wide.
    public let holidayMark: String
    public let makeupMark: String
    /// The legend's word for a day with rooms or events.
    public let eventsWord: String

    public func name(of holiday: ChinaHoliday) -> String {
        names[ChinaHoliday.allCases.firstIndex(of: holiday) ?? 0]
    }

    /// `{workday}`: `法定假日 · 春节`, `调休上班`, or nothing on an ordinary day.
    public func text(_ kind: WorkdayKind, _ holiday: ChinaHoliday?) -> String {
        switch (kind, holiday) {
        case (.holiday, let holiday?): return publicHoliday + " · " + name(of: holiday)
        case (.makeupWorkday, _): return makeupWorkday
        default: return ""
        }
    }

    public static func forLanguage(_ language: Language) -> WorkdayWords { byLanguage[language] ?? english }

    static let byLanguage: [Language: WorkdayWords] = [
        .zh: chinese, .zhHant: traditionalChinese, .en: english, .ja: japanese, .ko: korean, .de: german, .fr: french, .es: spanish,
    ]

    static let chinese = WorkdayWords(
        names: ["元旦", "春节", "清明节", "劳动节", "端午节", "中秋节", "国庆节", "抗战胜利纪念日"],
        publicHoliday: "法定假日", makeupWorkday: "调休上班", holidayMark: "休", makeupMark: "班", eventsWord: "有日程")
    static let traditionalChinese = WorkdayWords(
        names: ["元旦", "春節", "清明節", "勞動節", "端午節", "中秋節", "國慶節", "抗戰勝利紀念日"],
        publicHoliday: "法定假日", makeupWorkday: "調休上班", holidayMark: "休", makeupMark: "班", eventsWord: "有行程")
    static let english = WorkdayWords(
        names: ["New Year's Day", "Spring Festival", "Qingming Festival", "Labor Day", "Dragon Boat Festival",
                "Mid-Autumn Festival", "National Day", "Victory Day"],
        publicHoliday: "Public holiday", makeupWorkday: "Make-up workday", holidayMark: "H", makeupMark: "W", eventsWord: "events")
    static let japanese = WorkdayWords(
        names: ["元日", "春節", "清明節", "労働節", "端午節", "中秋節", "国慶節", "抗日戦争勝利記念日"],
        publicHoliday: "法定休日", makeupWorkday: "振替出勤日", holidayMark: "休", makeupMark: "出", eventsWord: "予定あり")
    static let korean = WorkdayWords(
        names: ["신정", "춘절", "청명절", "노동절", "단오절", "중추절", "국경절", "항일전쟁 승리 기념일"],
        publicHoliday: "법정 공휴일", makeupWorkday: "대체 근무일", holidayMark: "휴", makeupMark: "근", eventsWord: "일정 있음")
    static let german = WorkdayWords(
        names: ["Neujahr", "Frühlingsfest", "Qingming-Fest", "Tag der Arbeit", "Drachenbootfest", "Mondfest",
                "Nationalfeiertag", "Tag des Sieges"],
        publicHoliday: "Gesetzlicher Feiertag", makeupWorkday: "Nachgeholter Arbeitstag", holidayMark: "F", makeupMark: "A", eventsWord: "Termine")
    static let french = WorkdayWords(
        names: ["Jour de l’an", "Fête du Printemps", "Fête de Qingming", "Fête du Travail", "Fête des bateaux-dragons",
                "Fête de la mi-automne", "Fête nationale", "Jour de la Victoire"],
        publicHoliday: "Jour férié", makeupWorkday: "Jour ouvré de récupération", holidayMark: "F", makeupMark: "T", eventsWord: "événements")
    static let spanish = WorkdayWords(
        names: ["Año Nuevo", "Fiesta de la Primavera", "Festival de Qingming", "Día del Trabajo", "Festival del Bote del Dragón",
                "Festival del Medio Otoño", "Día Nacional", "Día de la Victoria"],
        publicHoliday: "Festivo oficial", makeupWorkday: "Día laborable de recuperación", holidayMark: "F", makeupMark: "L", eventsWord: "eventos")
}
