import Foundation
import Testing
import ZaoanAlmanac
@testable import ZaoanCore

/// The festival rules at their edges (leap months, a short 12th month, a festival's own day,
/// the turn of the year) and the cost rule: a year is computed once, and nothing is computed
/// for answers that do not ask for festivals.
@Suite struct FestivalTests {
    /// One per test: an almanac lives on one thread, and tests of a suite run in parallel.
    let almanac = Almanac()

    func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDay { CivilDay(year: year, month: month, day: day) }

    @Test("a leap month holds no festival: 闰二月初二 2023 is not 龙抬头, 闰五月初五 2009 not 端午",
          arguments: [((2023, 3, 23), (2023, 2, 21), 2, Festival.dragonRaisesHead), ((2009, 6, 27), (2009, 5, 28), 5, .dragonBoat)])
    func leapMonths(leap: (Int, Int, Int), ordinary: (Int, Int, Int), month: Int, festival: Festival) {
        let almanac = self.almanac
        let leapDay = day(leap.0, leap.1, leap.2)
        let date = almanac.lunarDate(on: leapDay)
        #expect(date.isLeapMonth && date.month == month && date.day == festival.lunarMonthDay?.day, "\(date)")
        #expect(almanac.festivals(on: leapDay).isEmpty)
        #expect(almanac.festivals(on: day(ordinary.0, ordinary.1, ordinary.2)) == [festival])
    }

    @Test("除夕 is the last day of the 12th month, a 29th or a 30th", arguments: [((2027, 2, 5), 29), ((2024, 2, 9), 30)])
    func newYearsEve(eve: (Int, Int, Int), length: Int) {
        let almanac = self.almanac
        let eveDay = day(eve.0, eve.1, eve.2)
        let date = almanac.lunarDate(on: eveDay)
        #expect(date.month == 12 && !date.isLeapMonth && date.day == length, "\(date)")
        #expect(almanac.festivals(on: eveDay) == [.newYearsEve])
        #expect(almanac.festivals(on: eveDay.adding(days: 1)) == [.springFestival])
        #expect(almanac.festivals(on: eveDay.adding(days: -1)).isEmpty)
    }

    @Test("the next festival after a day: across the year's end, and past a festival's own day")
    func nextFestival() {
        let almanac = self.almanac
        #expect(almanac.nextFestival(after: day(2026, 12, 22)).description == "2027-01-15 laba")  // 冬至's day names 腊八
        #expect(almanac.nextFestival(after: day(2026, 12, 21)).description == "2026-12-22 winterSolstice")
        #expect(almanac.nextFestival(after: day(2027, 2, 5)).description == "2027-02-06 springFestival")
        // 2022 has two 腊八 (01-10 and 12-30), 2023 none.
        #expect(almanac.festivals(ofYear: 2022).filter { $0.festival == .laba }.map(\.day.description) == ["2022-01-10", "2022-12-30"])
        #expect(!almanac.festivals(ofYear: 2023).contains { $0.festival == .laba })
    }

    func responder(template: String = Settings.defaultStatusTemplate, festivals: Bool = false, language: String = "zh") throws -> Responder {
        var file = ConfigFile()
        file.language = language
        file.timezone = "Asia/Shanghai"
        file.statusTemplate = template
        var settings = try Settings.resolve(file)
        settings.festivals = festivals
        return Responder(settings: settings)
    }

    @Test("{festival} and {next_festival} in zh and en; the days counted on the configured zone's dates")
    func placeholders() throws {
        let now = try instant("2027-02-05T23:30:00+08:00")  // 除夕, half an hour before 春节
        let zh = try responder(template: "{festival}|{next_festival}")
        #expect(try zh.structured(.status, now: now, counters: ServiceFigures(startedAt: now)).text == "除夕|春节 还有1天")
        let en = try responder(template: "{festival}|{next_festival}", language: "en")
        #expect(try en.structured(.status, now: now.adding(seconds: 3600), counters: ServiceFigures(startedAt: now)).text
                == "Spring Festival|Lantern Festival in 14 days")
    }

    @Test("a year's festivals are computed once; status without almanac placeholders and a rotation without festivals compute nothing")
    func computedOncePerYear() throws {
        let now = try instant("2026-12-02T07:30:00+08:00")
        let plain = try responder()
        for second in 0..<5 {
            let at = now.adding(seconds: Double(second))
            _ = plain.answer(.status, now: at, counters: ServiceFigures(startedAt: now))
            _ = plain.answer(.schedule(hours: 744, calendar: nil), now: at, counters: ServiceFigures(startedAt: now))
            _ = plain.answer(.countdown(id: nil), now: at, counters: ServiceFigures(startedAt: now))
        }
        #expect(plain.almanac.yearsComputed == 0)

        let festive = try responder(template: "{festival} {next_festival}", festivals: true)
        var computed: [Int] = []
        for hour in 0..<72 {  // three days: each hour renders again and rebuilds the rotation
            let at = now.adding(seconds: Double(hour) * 3600)
            _ = festive.answer(.status, now: at, counters: ServiceFigures(startedAt: now))
            _ = festive.answer(.schedule(hours: 744, calendar: nil), now: at, counters: ServiceFigures(startedAt: now))
            computed.append(festive.almanac.yearsComputed)
        }
        // 2026's and 2027's festivals (the next after late December is in January), with
        // their spans and terms, once.
        #expect(computed[0] > 0 && computed.allSatisfy { $0 == computed[0] }, "\(computed)")
    }

    @Test("every language names every festival in its own words, and says the days to go")
    func everyLanguageHasItsNames() {
        let english = FestivalText.forLanguage(.en)
        for language in Language.allCases {
            let text = FestivalText.forLanguage(language)
            let names = Festival.allCases.map { text.name(of: $0) }
            #expect(Set(names).count == Festival.allCases.count, "\(language): \(names)")
            if language != .en { #expect(names != Festival.allCases.map { english.name(of: $0) }, "\(language) reads English") }
            let next = text.next(.midAutumn, inDays: 67)
            #expect(next.contains("67") && next.contains(text.name(of: .midAutumn)), "\(language): \(next)")
        }
    }
}
