/// Solar terms and lunar dates, each year computed once and kept.
///
/// Computing a year costs a few milliseconds (24 terms, 13 or 14 new moons, each a handful of
/// evaluations of the Sun's and Moon's places), so a status line rendered every second must
/// not do it: the almanac keeps the last `capacity` years of each kind, and the requests of a
/// running service only ever look up this year and the next.
///
///     let almanac = Almanac()
///     almanac.solarTerm(on: CivilDay(year: 2026, month: 12, day: 22))   // .winterSolstice
///     almanac.lunarDate(on: CivilDay(year: 2026, month: 11, day: 30))   // 2026 10 22: 丙午年十月廿二
///
/// Not thread-safe: like the responder that owns it, it lives on one thread.
public final class Almanac {
    public let capacity: Int
    private var termYears: BoundedCache<Int, [SolarTermInstant]>
    private var spans: BoundedCache<Int, LunarYearSpan>
    private var festivalYears: BoundedCache<Int, [FestivalDay]>

    public init(capacity: Int = 8) {
        precondition(capacity >= 2, "an almanac keeps at least two years: a span needs the year before")
        self.capacity = capacity
        termYears = BoundedCache(capacity: capacity)
        spans = BoundedCache(capacity: capacity)
        festivalYears = BoundedCache(capacity: capacity)
    }

    /// The 24 solar terms of a Gregorian year, 小寒 first, 冬至 last.
    public func solarTerms(ofYear year: Int) -> [SolarTermInstant] {
        termYears.value(for: year) { SolarTermSearch.terms(ofYear: year) }
    }

    /// The term that falls on a day (in China, see `ChinaTime`), if any.
    public func solarTerm(on day: CivilDay) -> SolarTermInstant? {
        solarTerms(ofYear: day.date.year).first { $0.day == day }
    }

    /// The first term falling after a day.
    public func nextSolarTerm(after day: CivilDay) -> SolarTermInstant {
        let year = day.date.year
        return solarTerms(ofYear: year).first { $0.day > day } ?? solarTerms(ofYear: year + 1)[0]
    }

    /// The Chinese calendar's date of a Gregorian day.
    public func lunarDate(on day: CivilDay) -> LunarDate {
        let year = day.date.year
        let span = self.span(endingInYear: year)
        return day < span.end ? span.date(of: day) : self.span(endingInYear: year + 1).date(of: day)
    }

    /// The festivals (`Festival`) whose day falls in a Gregorian year, by day. From the two
    /// spans that cover the year (the one ending with its winter solstice's month and the
    /// next: 腊八 and 除夕 of the lunar year before come in January or February, a 腊八 may
    /// come in late December) and the year's 清明 and 冬至.
    public func festivals(ofYear year: Int) -> [FestivalDay] {
        festivalYears.value(for: year) {
            let lunar = (span(endingInYear: year).festivalDays + span(endingInYear: year + 1).festivalDays)
                .filter { $0.day.date.year == year }
            let terms = solarTerms(ofYear: year)
            let solar = Festival.allCases.compactMap { festival in
                festival.solarTerm.map { FestivalDay(festival: festival, day: terms[$0.rawValue].day) }
            }
            return (lunar + solar).sorted(by: FestivalDay.inOrder)
        }
    }

    /// The festivals of a day: none, or one (no two of them share a day in 1901–2100).
    public func festivals(on day: CivilDay) -> [Festival] {
        festivals(ofYear: day.date.year).filter { $0.day == day }.map(\.festival)
    }

    /// The first festival after a day (a festival's own day names the one after it).
    public func nextFestival(after day: CivilDay) -> FestivalDay {
        let year = day.date.year
        // A year holds 11 to 13 (腊八 comes twice in some, in none in others), 清明 always.
        return festivals(ofYear: year).first { $0.day > day } ?? festivals(ofYear: year + 1)[0]
    }

    /// An almanac with `year` and the next computed, made on any thread (the service's
    /// worker, at start) and then used by one: the first `{lunar}` or `{festival}` after a
    /// start took 50–200 ms of the loop when computed there.
    public static func prepared(around year: Int) -> AlmanacHandOff {
        let almanac = Almanac()
        // The festivals of both years need their terms, the years around them, and the spans.
        _ = almanac.festivals(ofYear: year)
        _ = almanac.festivals(ofYear: year + 1)
        return AlmanacHandOff(almanac: almanac)
    }

    /// Years computed since the almanac was made (each kind counted): for tests of the cache.
    public var yearsComputed: Int { termYears.misses + spans.misses + festivalYears.misses }

    private func span(endingInYear year: Int) -> LunarYearSpan {
        spans.value(for: year) {
            let solsticeBefore = solarTerms(ofYear: year - 1)[SolarTerm.winterSolstice.rawValue]
            return LunarYearSpan(year: year, solsticeBefore: solsticeBefore, terms: solarTerms(ofYear: year))
        }
    }
}

/// An almanac passed from the thread that computed it to the one that uses it: owned by
/// one thread at a time, never shared (hence unchecked).
public struct AlmanacHandOff: @unchecked Sendable {
    public let almanac: Almanac
}

/// A dictionary that forgets its least recently used entry when full.
struct BoundedCache<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: (value: Value, lastUse: Int)] = [:]
    private var clock = 0
    private(set) var misses = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func value(for key: Key, make: () -> Value) -> Value {
        clock += 1
        if let entry = entries[key] {
            entries[key] = (entry.value, clock)
            return entry.value
        }
        misses += 1
        let value = make()
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries.removeValue(forKey: oldest)
        }
        entries[key] = (value, clock)
        return value
    }
}

/// A month of the Chinese calendar: its first day, length, number and whether it is a leap
/// month, for the recurrence rules of that calendar (RFC 7529's RSCALE=CHINESE).
public struct LunarMonth: Hashable, Sendable {
    public let firstDay: CivilDay
    /// 29 or 30 days.
    public let length: Int
    /// 1–12; a leap month repeats the number of the month before it.
    public let number: Int
    public let isLeap: Bool
}

extension Almanac {
    /// The months of the lunar year whose 正月 begins in Gregorian `year`, in order: 12, or
    /// 13 with a leap month.
    public func lunarMonths(ofYear year: Int) -> [LunarMonth] {
        // The year's months lie in the span that ends with `year`'s month 11 and the next.
        let spans = [span(endingInYear: year), span(endingInYear: year + 1)]
        var months: [LunarMonth] = []
        for span in spans {
            for (index, month) in span.months.enumerated() where month.relatedYear == year {
                let next = index + 1 < span.months.count ? span.months[index + 1].start : span.end
                months.append(LunarMonth(firstDay: month.start, length: next.daysSince1970 - month.start.daysSince1970,
                                         number: month.number, isLeap: month.isLeap))
            }
        }
        return months
    }
}
