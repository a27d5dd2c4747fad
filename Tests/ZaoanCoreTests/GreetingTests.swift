import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// A local time of day and the greeting each standard table gives for it.
struct GreetingBoundary: Sendable, CustomTestStringConvertible {
    let hour: Int
    let minute: Int
    let chinese: String
    let english: String

    var testDescription: String { String(format: "%02d:%02d", hour, minute) }

    /// Both sides of every row boundary of both tables, plus midnight and the day's last minute.
    static let all: [GreetingBoundary] = [
        GreetingBoundary(hour: 0, minute: 0, chinese: "晚安", english: "Good night"),
        GreetingBoundary(hour: 4, minute: 59, chinese: "晚安", english: "Good night"),
        GreetingBoundary(hour: 5, minute: 0, chinese: "早安", english: "Good morning"),
        GreetingBoundary(hour: 10, minute: 59, chinese: "早安", english: "Good morning"),
        GreetingBoundary(hour: 11, minute: 0, chinese: "午安", english: "Good morning"),
        GreetingBoundary(hour: 11, minute: 59, chinese: "午安", english: "Good morning"),
        GreetingBoundary(hour: 12, minute: 0, chinese: "午安", english: "Good afternoon"),
        GreetingBoundary(hour: 13, minute: 59, chinese: "午安", english: "Good afternoon"),
        GreetingBoundary(hour: 14, minute: 0, chinese: "下午好", english: "Good afternoon"),
        GreetingBoundary(hour: 17, minute: 59, chinese: "下午好", english: "Good afternoon"),
        GreetingBoundary(hour: 18, minute: 0, chinese: "晚上好", english: "Good evening"),
        GreetingBoundary(hour: 22, minute: 59, chinese: "晚上好", english: "Good evening"),
        GreetingBoundary(hour: 23, minute: 0, chinese: "晚安", english: "Good night"),
        GreetingBoundary(hour: 23, minute: 59, chinese: "晚安", english: "Good night"),
    ]
}

/// A zone with the built-in city that stands for it, in both languages.
struct CityZone: Sendable, CustomTestStringConvertible {
    let zone: String
    let chinese: String
    let english: String
    var testDescription: String { zone }

    static let all: [CityZone] = [
        CityZone(zone: "Asia/Shanghai", chinese: "北京", english: "Beijing"),
        CityZone(zone: "Asia/Tokyo", chinese: "东京", english: "Tokyo"),
        CityZone(zone: "Europe/Berlin", chinese: "柏林", english: "Berlin"),
        CityZone(zone: "America/New_York", chinese: "纽约", english: "New York"),
        CityZone(zone: "Asia/Kolkata", chinese: "孟买", english: "Mumbai"),  // a half-hour offset
    ]
}

@Suite struct GreetingTableTests {
    @Test(arguments: GreetingBoundary.all)
    func chineseTable(_ row: GreetingBoundary) {
        #expect(GreetingTable.chinese.greeting(hour: row.hour, minute: row.minute) == row.chinese)
    }

    @Test(arguments: GreetingBoundary.all)
    func englishTable(_ row: GreetingBoundary) {
        #expect(GreetingTable.english.greeting(hour: row.hour, minute: row.minute) == row.english)
    }

    @Test func standardTablePerLanguage() {
        #expect(GreetingTable.standard(for: .zh) == .chinese)
        #expect(GreetingTable.standard(for: .en) == .english)
        #expect(GreetingTable.standard(for: .zhHant) == .traditionalChinese)
        #expect(GreetingTable.standard(for: .ja) == .japanese)
        #expect(GreetingTable.standard(for: .ko) == .korean)
        #expect(GreetingTable.standard(for: .de) == .german)
        #expect(GreetingTable.standard(for: .fr) == .french)
        #expect(GreetingTable.standard(for: .es) == .spanish)
    }

    @Test func rowsAreSortedAndTheLastWrapsPastMidnight() {
        let table = GreetingTable([
            GreetingPeriod(start: 20 * 60, text: "night"),
            GreetingPeriod(start: 8 * 60, text: "day"),
        ])
        #expect(table.periods.map(\.start) == [8 * 60, 20 * 60])
        #expect(table.greeting(hour: 0, minute: 0) == "night")
        #expect(table.greeting(hour: 7, minute: 59) == "night")
        #expect(table.greeting(hour: 8, minute: 0) == "day")
        #expect(table.greeting(hour: 19, minute: 59) == "day")
        #expect(table.greeting(hour: 20, minute: 0) == "night")
    }

    @Test(arguments: [(0, 0), (5, 0), (12, 30), (23, 59)])
    func singleRowTableAlwaysAnswersItsRow(hour: Int, minute: Int) {
        let table = GreetingTable([GreetingPeriod(start: 9 * 60, text: "hello")])
        #expect(table.greeting(hour: hour, minute: minute) == "hello")
    }
}

@Suite struct GreetingThroughResponderTests {
    /// The boundaries on an ordinary winter day in every zone, through `greeting CITY`.
    @Test(arguments: CityZone.all, GreetingBoundary.all)
    func chineseInEveryZone(_ city: CityZone, _ row: GreetingBoundary) throws {
        let responder = Responder(settings: try makeSettings(language: "zh"))
        let now = try localInstant(2026, 1, 15, row.hour, row.minute, in: city.zone)
        #expect(try responder.greeting(city: city.chinese, now: now) == "\(row.chinese)·\(city.chinese)")
    }

    /// The same in summer (New York and Berlin on daylight time) and in English.
    @Test(arguments: CityZone.all, GreetingBoundary.all)
    func englishInEveryZone(_ city: CityZone, _ row: GreetingBoundary) throws {
        let responder = Responder(settings: try makeSettings(language: "en"))
        let now = try localInstant(2026, 7, 15, row.hour, row.minute, in: city.zone)
        #expect(try responder.greeting(city: city.english, now: now) == "\(row.english) · \(city.english)")
    }

    /// Instants worked out by hand, so the table above does not only agree with Calendar.
    /// Berlin switches to CEST at 01:00Z on 2026-03-29 and back at 01:00Z on 2026-10-25;
    /// New York switches to EDT at 07:00Z on 2026-03-08.
    @Test(arguments: [
        ("2026-01-14T20:59:00Z", "北京", "晚安·北京"),       // 04:59 CST
        ("2026-01-14T21:00:00Z", "北京", "早安·北京"),       // 05:00 CST
        ("2026-01-15T01:59:00Z", "东京", "早安·东京"),       // 10:59 JST
        ("2026-01-15T02:00:00Z", "东京", "午安·东京"),       // 11:00 JST
        ("2026-01-15T22:59:00Z", "纽约", "下午好·纽约"),     // 17:59 EST
        ("2026-01-15T23:00:00Z", "纽约", "晚上好·纽约"),     // 18:00 EST
        ("2026-07-16T02:59:00Z", "纽约", "晚上好·纽约"),     // 22:59 EDT
        ("2026-07-16T03:00:00Z", "纽约", "晚安·纽约"),       // 23:00 EDT
        ("2026-03-28T03:59:00Z", "柏林", "晚安·柏林"),       // 04:59 CET, the day before DST
        ("2026-03-28T04:00:00Z", "柏林", "早安·柏林"),       // 05:00 CET
        ("2026-03-29T00:59:00Z", "柏林", "晚安·柏林"),       // 01:59 CET, just before the jump
        ("2026-03-29T01:00:00Z", "柏林", "晚安·柏林"),       // 03:00 CEST, just after it
        ("2026-03-29T02:59:00Z", "柏林", "晚安·柏林"),       // 04:59 CEST on the DST day
        ("2026-03-29T03:00:00Z", "柏林", "早安·柏林"),       // 05:00 CEST on the DST day
        ("2026-03-29T03:59:00Z", "柏林", "早安·柏林"),       // 05:59 CEST (04:59 had it stayed CET)
        ("2026-03-29T08:59:00Z", "柏林", "早安·柏林"),       // 10:59 CEST
        ("2026-03-29T09:00:00Z", "柏林", "午安·柏林"),       // 11:00 CEST
        ("2026-10-24T03:00:00Z", "柏林", "早安·柏林"),       // 05:00 CEST, the day before
        ("2026-10-25T03:59:00Z", "柏林", "晚安·柏林"),       // 04:59 CET on the day DST ends
        ("2026-10-25T04:00:00Z", "柏林", "早安·柏林"),       // 05:00 CET on the day DST ends
        ("2026-10-25T09:59:00Z", "柏林", "早安·柏林"),       // 10:59 CET
        ("2026-10-25T10:00:00Z", "柏林", "午安·柏林"),       // 11:00 CET
        ("2026-03-07T09:59:00Z", "纽约", "晚安·纽约"),       // 04:59 EST
        ("2026-03-08T08:59:00Z", "纽约", "晚安·纽约"),       // 04:59 EDT on the DST day
        ("2026-03-08T09:00:00Z", "纽约", "早安·纽约"),       // 05:00 EDT on the DST day
        ("2026-01-14T23:29:00Z", "孟买", "晚安·孟买"),       // 04:59 IST (+05:30)
        ("2026-01-14T23:30:00Z", "孟买", "早安·孟买"),       // 05:00 IST
    ])
    func handWorkedInstants(utc: String, city: String, expected: String) throws {
        let responder = Responder(settings: try makeSettings(language: "zh"))
        #expect(try responder.greeting(city: city, now: try instant(utc)) == expected)
    }

    @Test func defaultCityJoinedInChinese() throws {
        let responder = Responder(settings: try makeSettings(language: "zh"))
        let now = try instant("2026-01-15T01:00:00Z")  // 09:00 in Beijing
        #expect(try responder.greeting(city: nil, now: now) == "早安·北京")
        #expect(responder.answer(.greeting(city: nil), now: now, counters: ServiceFigures(startedAt: now)).text == "早安·北京")
    }

    @Test func defaultCityJoinedInEnglish() throws {
        let responder = Responder(settings: try makeSettings(language: "en"))
        let now = try instant("2026-01-15T01:00:00Z")
        #expect(try responder.greeting(city: nil, now: now) == "Good morning · Beijing")
        let reply = responder.answer(.greeting(city: nil), now: now, counters: ServiceFigures(startedAt: now))
        #expect(reply.bytes == Array("Good morning · Beijing\n".utf8))
        #expect(!reply.isError)
    }

    @Test func defaultCityFollowsTheConfiguredZone() throws {
        let responder = Responder(settings: try makeSettings(language: "zh", timezone: "Asia/Tokyo"))
        #expect(try responder.greeting(city: nil, now: try instant("2026-01-15T02:00:00Z")) == "午安·东京")
    }

    @Test func englishCityNamesAreCaseInsensitive() throws {
        let responder = Responder(settings: try makeSettings(language: "en"))
        let now = try instant("2026-01-15T14:00:00Z")  // 09:00 in New York
        #expect(try responder.greeting(city: "NEW YORK", now: now).hasPrefix("Good morning · "))
        #expect(try responder.greeting(city: "new york", now: now).hasPrefix("Good morning · "))
    }

    /// (An IANA zone is a place too: `greeting Asia/Shanghai` is answered, see ZonePerRequestTests.)
    @Test(arguments: ["Atlantis", "", "北京市", "Asia/Atlantis", "../zoneinfo/UTC"])
    func unknownCity(_ name: String) throws {
        let responder = Responder(settings: try makeSettings(language: "zh"))
        let now = try instant("2026-01-15T01:00:00Z")
        let error = protocolError { () throws(ProtocolError) in try responder.greeting(city: name, now: now) }
        #expect(error?.code == .unknownCity)
        #expect(error?.message.contains("'\(name)'") == true)

        let reply = responder.answer(.greeting(city: name), now: now, counters: ServiceFigures(startedAt: now))
        #expect(reply.isError)
        #expect(reply.text.hasPrefix("ERR unknown-city "))
    }

    @Test func configDefinedCitiesAddToAndOverrideTheBuiltIns() throws {
        let settings = try makeSettings(
            language: "zh", cities: ["Gotham": "America/New_York", "北京": "Europe/Berlin"])
        let responder = Responder(settings: settings)
        let now = try instant("2026-01-15T10:30:00Z")  // 05:30 New York, 11:30 Berlin, 18:30 Shanghai
        #expect(try responder.greeting(city: "Gotham", now: now) == "早安·Gotham")
        #expect(try responder.greeting(city: "北京", now: now) == "午安·北京")
        #expect(try responder.greeting(city: "上海", now: now) == "晚上好·上海")
    }

    @Test(arguments: [
        ("2026-01-15T05:59:00Z", "Sleep | Home"),
        ("2026-01-15T06:00:00Z", "Rise | Home"),
        ("2026-01-15T12:29:00Z", "Rise | Home"),
        ("2026-01-15T12:30:00Z", "Lunch | Home"),
        ("2026-01-15T20:59:00Z", "Lunch | Home"),
        ("2026-01-15T21:00:00Z", "Sleep | Home"),
        ("2026-01-15T00:00:00Z", "Sleep | Home"),
    ])
    func customGreetingTableAndSeparator(utc: String, expected: String) throws {
        let settings = try makeSettings(
            language: "en", city: "Home", timezone: "UTC",
            greetings: ["06:00": "Rise", "12:30": "Lunch", "21:00": "Sleep"], separator: " | ")
        let responder = Responder(settings: settings)
        #expect(try responder.greeting(city: nil, now: try instant(utc)) == expected)
        #expect(try responder.greeting(city: "Home", now: try instant(utc)) == expected)
    }
}
