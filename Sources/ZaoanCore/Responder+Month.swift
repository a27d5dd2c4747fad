import ZaoanAlmanac
import ZaoanProtocol
import ZaoanTime

/// `month [YYYY-MM|+N|-N] [@ZONE] [days]`: a month's grid, or a line a day, with the Chinese
/// calendar's days, festivals and solar terms from the almanac, China's workdays when on, and
/// how many rooms and calendar events touch each day (those the service knows: rooms 48 hours
/// ahead, events `calendar_window_hours`).
extension Responder {
    /// The month an `Asked` names, laid out and worded.
    func monthText(_ asked: Asked) throws(ProtocolError) -> MonthText {
        let zone = asked.place?.zone ?? settings.zone
        let instant = asked.now.unixSeconds
        let today = CivilDay(unixSeconds: Double(instant), offsetSeconds: WallClock.offset(zone, at: instant))
        let selector = try asked.text.map { word throws(ProtocolError) in try MonthSelector(word: word) } ?? .this
        let (thisYear, thisMonth, _) = today.date
        let (year, month) = try selector.resolved(thisYear: thisYear, month: thisMonth)
        let language = settings.language
        let options = settings.month
        var days = MonthGrid.daysOf(year: year, month: month).map(MonthDay.init(day:))
        let festivalWords = FestivalText.forLanguage(language)
        for index in days.indices {
            let day = days[index].day
            let lunar = almanac.lunarDate(on: day)
            var marks = almanac.festivals(on: day).map(festivalWords.name(of:))
            if let term = almanac.solarTerm(on: day)?.term {
                let name = ChineseCalendar.name(of: term, language: language)
                if !marks.contains(name) { marks.append(name) }
            }
            days[index].marks = marks
            days[index].lunarDay = Self.lunarDayText(lunar, language: language)
            if options.lunar {
                let fitting = marks.first { DisplayWidth.columns($0) <= MonthGrid.lunarColumns }
                days[index].cell = fitting ?? Self.lunarCell(lunar, language: language)
            }
            let kind = options.workdays?.kind(of: day)
                ?? (WeekRule.weekday(of: day) % 6 == 0 ? (WorkdayKind.weekend, nil) : (WorkdayKind.workday, nil))
            (days[index].kind, days[index].holiday) = kind
        }
        countEvents(into: &days, zone: zone, now: asked.now)
        let grid = MonthGrid(year: year, month: month, rule: options.weekRule, days: days, today: today)
        return MonthText(grid: grid, language: language, wide: options.lunar || options.workdays != nil)
    }

    /// `month`: the grid; as waybar's JSON the month's title with the grid as the tooltip's
    /// markup, as an i3bar block (and for polybar and tmux) the title and the week with today.
    func monthAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        let text = try monthText(asked)
        let (lines, markup) = text.rendered()
        var answer = Answer(lines: lines)
        answer.tooltipMarkup = markup
        answer.barText = text.todayLine
        answer.barTitle = text.words.title(year: text.grid.year, month: text.grid.month)
        return answer
    }

    /// Counts, for each day, the rooms and calendar events (not festivals or holidays) that
    /// touch it: the days' starts in the zone worked out once, then one pass over the
    /// rotation, each event adding to the days it spans.
    private func countEvents(into days: inout [MonthDay], zone: Zone, now: Instant) {
        guard let last = days.last?.day else { return }
        // Each day's first instant (a midnight the clocks skip: when they resume), and the next month's.
        let starts = (days.map(\.day) + [last.adding(days: 1)]).map { day in
            Double(WallClock.resolve(day.daysSince1970 &* 86_400, in: zone).first)
        }
        let duration = Double(settings.liveDefaultDuration)
        for room in rotation(at: now) where room.source != Self.festivalSource {
            let begins = room.start.secondsSince1970
            let ends = max(room.end?.secondsSince1970 ?? begins + duration, begins + 1)
            guard begins < starts[days.count], ends > starts[0] else { continue }
            for index in days.indices where begins < starts[index + 1] && ends > starts[index] {
                days[index].events += 1
                if days[index].eventColor == nil { days[index].eventColor = room.color }
            }
        }
    }

    /// The grid's text under a day: the day's name (初一 … 三十), the month's on 初一 (闰四月,
    /// 腊月); outside Chinese the day's number, `10/1` on the first.
    static func lunarCell(_ date: LunarDate, language: Language) -> String {
        guard language.isChinese else {
            return date.day == 1 ? "\(date.isLeapMonth ? "L" : "")\(date.month)/1" : String(date.day)
        }
        return date.day == 1 ? lunarMonthName(date, language: language) : LunarDate.dayNames[date.day - 1]
    }

    /// `month days`' lunar day: 十月十五, 闰六月初八; outside Chinese `10-15`, `L06-08`.
    static func lunarDayText(_ date: LunarDate, language: Language) -> String {
        guard language.isChinese else {
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
            return (date.isLeapMonth ? "L" : "") + two(date.month) + "-" + two(date.day)
        }
        return lunarMonthName(date, language: language) + LunarDate.dayNames[date.day - 1]
    }

    private static func lunarMonthName(_ date: LunarDate, language: Language) -> String {
        let name = language == .zhHant && date.month == 12 ? "臘月" : LunarDate.monthNames[date.month - 1]
        return (date.isLeapMonth ? (language == .zhHant ? "閏" : "闰") : "") + name
    }
}
