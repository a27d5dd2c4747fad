import ZaoanTime

/// zaoan's recurrence engine: the wall-clock starts a rule gives from DTSTART, in order, as
/// RFC 5545 §3.3.10 defines them. Zones are the caller's (`SeriesExpander` turns each wall
/// clock into an instant: a time in a spring-forward gap moves forward by the gap, one that
/// repeats is the first, §3.3.5).
///
/// Each period of the rule (a year, month, week, day, hour, minute or second, every
/// INTERVAL of them from DTSTART's) gives a set: its days that pass every BYxxx that limits
/// or expands them (`DayFilter`), each at the times BYHOUR, BYMINUTE and BYSECOND give (or
/// DTSTART's), then BYSETPOS picks from that set. What the rule leaves out comes from
/// DTSTART (§3.3.10: "information not contained in the rule ... derived from DTSTART"):
/// YEARLY without a day part repeats DTSTART's month and day, MONTHLY DTSTART's day, WEEKLY
/// its weekday. DTSTART is always the first instance, and counts in COUNT (§3.8.5.3).
///
/// Bounded by construction: a period costs at most its days (a year: 366) times its times;
/// the iterator starts at the period of `from` when it can (no COUNT, or a rule with one
/// instance a period, whose COUNT is counted instead of stepped through), skips days that
/// fail the day parts whole, stops after `CalendarLimits.years`, and gives up after
/// `budget` steps, a period or an instance looked at each (`exhausted`); a period's
/// instances are never made into a list.
public struct RuleIterator {
    public let parts: RuleParts
    public let start: LocalDateTime
    /// Days and times the rule takes, DTSTART's where it gives none.
    private let filter: DayFilter
    /// A YEARLY or MONTHLY rule of the Chinese calendar: its periods are lunar years or
    /// months (nil for every other rule, and for one whose DTSTART the table lacks).
    private let chinese: ChinesePeriods?
    /// For a Chinese rule: the lunar year or month ordinal `through` falls in, looked up once.
    private let chineseThrough: Int64?
    private let times: [Int]  // seconds of the day, for DAILY and longer periods
    private let withinHour: [Int]  // their seconds within the hour, each once, for HOURLY
    /// The next period's index (periods from DTSTART's, each INTERVAL units on).
    private var period: Int64 = 0
    /// The period being given, never made into a list of instances (a YEARLY rule with
    /// every BYHOUR, BYMINUTE and BYSECOND has 31 million a year): its days, the seconds of
    /// the day each is taken at, which of their combinations BYSETPOS chose (nil: all, in
    /// order), and how far they have been given.
    private var periodDays: [Int64] = []
    private var periodTimes: [Int] = []
    private var chosen: [Int]?
    private var cursor = 0
    private var emitted = 0
    private var startGiven = false
    /// The last start given: SKIP may move an instance onto one given already.
    private var lastGiven: LocalDateTime?
    private var finished = false
    private let untilWall: LocalDateTime?
    /// Periods and instances looked at so far (the engine's work).
    public private(set) var steps = 0
    /// The rule was given up after `budget` steps without reaching its end.
    public private(set) var exhausted = false
    private let budget: Int
    private let through: LocalDateTime?

    /// - Parameters:
    ///   - from: the iterator may begin at the period holding this wall clock, skipping what
    ///     comes before (DTSTART then is not given either); nil: from DTSTART.
    ///   - untilWall: where a DATE or floating UNTIL ends the series (a UTC UNTIL is the
    ///     caller's, who knows the zone).
    ///   - through: the iterator ends at the first period that begins after this wall clock
    ///     (the window's end): a rule that gives nothing more costs its periods up to there.
    public init(parts: RuleParts, start: LocalDateTime, from: LocalDateTime? = nil, through: LocalDateTime? = nil,
                budget: Int = CalendarLimits.iterationsPerSeries) {
        self.parts = parts
        self.start = start
        self.budget = budget
        self.through = through
        filter = DayFilter(parts: parts, start: start)
        chinese = parts.isChinese && parts.frequency >= .monthly ? ChinesePeriods(parts: parts, start: start) : nil
        chineseThrough = chinese == nil ? nil : through.flatMap { ChinesePeriods.period(of: $0, frequency: parts.frequency) }
        var hours = parts.hours, minutes = parts.minutes, seconds = parts.seconds
        if hours.isEmpty { hours = [start.hour] }
        if minutes.isEmpty { minutes = [start.minute] }
        if seconds.isEmpty { seconds = [start.second] }
        times = hours.flatMap { hour in minutes.flatMap { minute in seconds.map { hour * 3600 + minute * 60 + $0 } } }.sorted()
        withinHour = minutes.flatMap { minute in seconds.map { minute * 60 + $0 } }.sorted()
        switch parts.until {
        case .day(let day)?: untilWall = LocalDateTime(day, hour: 23, minute: 59, second: 59)
        case .wall(let wall)?: untilWall = wall
        case .utc?, nil: untilWall = nil
        }
        if let from, from > start { skip(to: from) }
    }

    /// The next start, or nil once the rule ends (COUNT, UNTIL, the last year) or is given up.
    public mutating func next() -> LocalDateTime? {
        while !finished {
            if !startGiven {
                startGiven = true
                return give(start)
            }
            guard steps < budget else {
                exhausted = true
                finished = true
                return nil
            }
            if cursor < (chosen?.count ?? periodDays.count * periodTimes.count) {
                let index = chosen?[cursor] ?? cursor
                cursor += 1
                steps += 1
                guard let wall = LocalDateTime(secondsAsIfUTC: periodSeconds(at: index)) else { continue }
                if wall <= start { continue }  // before DTSTART, or DTSTART itself (given already)
                if let lastGiven, wall <= lastGiven { continue }
                return give(wall)
            }
            if let through, periodBegins(after: through) {
                finished = true
                return nil
            }
            steps += 1
            fillPeriod()
        }
        return nil
    }

    private mutating func give(_ wall: LocalDateTime) -> LocalDateTime? {
        if let untilWall, wall > untilWall {
            finished = true
            return nil
        }
        emitted += 1
        lastGiven = wall
        if let count = parts.count, emitted >= count { finished = true }
        return wall
    }

    // MARK: - Periods

    private var unit: Int64 {
        switch parts.frequency {
        case .secondly: 1
        case .minutely: 60
        case .hourly: 3600
        case .daily: 86_400
        case .weekly: 7 * 86_400
        case .monthly, .yearly: 0
        }
    }

    /// DTSTART's period's first moment, as seconds on the wall clock read as UTC (a week
    /// begins on WKST).
    private var firstPeriodStart: Int64 {
        let wall = start.secondsAsIfUTC
        switch parts.frequency {
        case .secondly: return wall
        case .minutely: return wall - Int64(start.second)
        case .hourly: return wall - Int64(start.secondOfDay % 3600)
        case .daily: return start.day.dayNumber * 86_400
        case .weekly:
            let days = start.day.dayNumber
            return (days - Int64(DayFilter.daysIntoWeek(days, weekStart: parts.weekStart))) * 86_400
        case .monthly, .yearly: return start.day.dayNumber * 86_400
        }
    }

    /// Whether the next period begins after `wall`.
    private func periodBegins(after wall: LocalDateTime) -> Bool {
        let (step, overflow) = period.multipliedReportingOverflow(by: Int64(parts.interval))
        guard !overflow else { return true }
        if let chinese {
            // Beyond the table's years the next period ends the rule anyway.
            guard let last = wall == through ? chineseThrough : ChinesePeriods.period(of: wall, frequency: parts.frequency) else { return false }
            return chinese.firstPeriod(parts.frequency) + step > last
        }
        switch parts.frequency {
        case .yearly:
            return Int64(start.day.year) + step > Int64(wall.day.year)
        case .monthly:
            let month = Int64(start.day.year) * 12 + Int64(start.day.month - 1) + step
            return month > Int64(wall.day.year) * 12 + Int64(wall.day.month - 1)
        default:
            let (offset, far) = step.multipliedReportingOverflow(by: unit)
            return far || firstPeriodStart + offset > wall.secondsAsIfUTC
        }
    }

    /// Starts at the period that holds `target` (or the one before it).
    private mutating func skip(to target: LocalDateTime) {
        let interval = Int64(parts.interval)
        var index: Int64
        switch parts.frequency {
        case .monthly where chinese != nil, .yearly where chinese != nil:
            guard let chinese, let period = ChinesePeriods.period(of: target, frequency: parts.frequency) else { return }
            index = (period - chinese.firstPeriod(parts.frequency)) / interval
        case .monthly:
            let months = Int64(target.day.year - start.day.year) * 12 + Int64(target.day.month - start.day.month)
            index = months / interval
        case .yearly:
            index = Int64(target.day.year - start.day.year) / interval
        default:
            index = (target.secondsAsIfUTC - firstPeriodStart) / (unit * interval)
        }
        guard index > 0 else { return }
        if parts.count != nil {
            // Only where each period holds exactly one instance can the ones skipped be counted.
            guard parts.isPlain, parts.frequency != .monthly, parts.frequency != .yearly else { return }
            guard index < Int64(parts.count!) else {
                finished = true
                return
            }
            emitted = Int(index)  // DTSTART and one a period after it, up to the skipped one
        }
        period = index
        startGiven = true
    }

    /// The instances of the next period, sorted, into `pending`; the end of the rule sets
    /// `finished`.
    private mutating func fillPeriod() {
        periodDays.removeAll(keepingCapacity: true)
        cursor = 0
        chosen = nil
        let index = period
        period += 1
        let (step, overflow) = index.multipliedReportingOverflow(by: Int64(parts.interval))
        guard !overflow else { return finish() }
        if parts.isChinese, parts.frequency >= .monthly {
            // A lunar year or month; none past the table's years (nor any for a DTSTART
            // outside them).
            guard let chinese, step <= 200 * 13,
                  let days = parts.frequency == .yearly ? chinese.days(ofYear: chinese.startYear + Int(step)) : chinese.days(ofMonth: chinese.startMonth + step)
            else { return finish() }
            return collect(days: days)
        }
        switch parts.frequency {
        case .yearly:
            guard step <= Int64(CalendarLimits.years.upperBound - start.day.year) else { return finish() }
            let year = start.day.year + Int(step)
            collect(days: filter.days(inYear: year))
        case .monthly:
            guard step <= Int64(CalendarLimits.years.upperBound) * 12 else { return finish() }
            let monthIndex = Int64(start.day.year) * 12 + Int64(start.day.month - 1) + step
            let year = Int(monthIndex / 12), month = Int(monthIndex % 12) + 1
            guard year <= CalendarLimits.years.upperBound else { return finish() }
            collect(days: filter.days(inMonth: month, of: year))
        case .weekly, .daily:
            let (daysOn, far) = step.multipliedReportingOverflow(by: unit / 86_400)
            let first = firstPeriodStart / 86_400 + daysOn
            guard !far, CivilDay.inCalendar(daysSince1970: first) != nil else { return finish() }
            let length: Int64 = parts.frequency == .weekly ? 7 : 1
            var days: [Int64] = []
            for offset in 0..<length where filter.passes(first + offset) { days.append(first + offset) }
            if days.isEmpty, parts.frequency == .daily, let next = filter.nextPossibleDay(after: first) {
                // A day the month leaves out: on to the first period in a month it takes.
                jumpToPeriod(startingAtOrAfter: next * 86_400)
            }
            collect(days: days)
        case .hourly, .minutely, .secondly:
            let (offset, far) = step.multipliedReportingOverflow(by: unit)
            guard !far else { return finish() }
            let moment = firstPeriodStart + offset
            guard let wall = LocalDateTime(secondsAsIfUTC: moment) else { return finish() }
            let day = wall.day.dayNumber
            guard filter.passes(day) else {
                // The whole day fails: on to the first period of a day that may pass.
                jumpToPeriod(startingAtOrAfter: (filter.nextPossibleDay(after: day) ?? day + 1) * 86_400)
                return
            }
            var found: [Int] = []
            let second = wall.secondOfDay
            switch parts.frequency {
            case .hourly:
                let hour = second / 3600
                if parts.hours.isEmpty || parts.hours.contains(hour) {
                    found = withinHour.map { hour * 3600 + $0 }
                } else {
                    jumpToPeriod(startingAtOrAfter: nextAllowed(after: moment, unitSeconds: 3600, allowed: parts.hours, of: 24))
                }
            case .minutely:
                let hour = second / 3600, minute = second / 60 % 60
                if !parts.hours.isEmpty, !parts.hours.contains(hour) {
                    jumpToPeriod(startingAtOrAfter: nextAllowed(after: moment, unitSeconds: 3600, allowed: parts.hours, of: 24))
                } else if parts.minutes.isEmpty || parts.minutes.contains(minute) {
                    let secondsList = parts.seconds.isEmpty ? [start.second] : parts.seconds
                    found = secondsList.map { hour * 3600 + minute * 60 + $0 }
                }
            default:
                let hour = second / 3600, minute = second / 60 % 60, secondOfMinute = second % 60
                if !parts.hours.isEmpty, !parts.hours.contains(hour) {
                    jumpToPeriod(startingAtOrAfter: nextAllowed(after: moment, unitSeconds: 3600, allowed: parts.hours, of: 24))
                } else if !parts.minutes.isEmpty, !parts.minutes.contains(minute) {
                    jumpToPeriod(startingAtOrAfter: moment - Int64(secondOfMinute) + 60)
                } else if parts.seconds.isEmpty || parts.seconds.contains(secondOfMinute) {
                    found = [second]
                }
            }
            collect(days: found.isEmpty ? [] : [day], times: found)
        }
    }

    private mutating func finish() { finished = true }

    /// The period's set: `days`, each at `times` (the rule's, for DAILY and longer), and
    /// the positions BYSETPOS chooses in it.
    private mutating func collect(days: [Int64], times: [Int]? = nil) {
        periodDays = days
        periodTimes = times ?? self.times
        let size = periodDays.count * periodTimes.count
        if !parts.setPositions.isEmpty {
            chosen = Self.chosen(parts.setPositions, of: size)
            return
        }
        // The set is in order: what lies before DTSTART (in its first period) is passed over
        // by halving, not walked (every second of a year is 31 million steps).
        var low = 0, high = size
        while low < high {
            let middle = (low + high) / 2
            if periodSeconds(at: middle) <= start.secondsAsIfUTC {
                low = middle + 1
            } else {
                high = middle
            }
        }
        cursor = low
    }

    /// The period's instance at `index` (days times their times, in order), as wall seconds
    /// read as UTC.
    private func periodSeconds(at index: Int) -> Int64 {
        periodDays[index / periodTimes.count] * 86_400 + Int64(periodTimes[index % periodTimes.count])
    }

    /// The indexes BYSETPOS's `positions` choose in a set of `count`, in order, each once.
    static func chosen(_ positions: [Int], of count: Int) -> [Int] {
        var indexes: [Int] = []
        for position in positions {
            let index = position > 0 ? position - 1 : count + position
            if index >= 0, index < count, !indexes.contains(index) { indexes.append(index) }
        }
        return indexes.sorted()
    }

    /// The next period to look at is the first that starts at or after `moment` (wall
    /// seconds read as UTC).
    private mutating func jumpToPeriod(startingAtOrAfter moment: Int64) {
        let length = unit * Int64(parts.interval)
        guard length > 0 else { return }
        let distance = moment - firstPeriodStart
        let index = distance <= 0 ? 0 : (distance + length - 1) / length
        if index > period { period = index }
    }

    /// The start of the next `unitSeconds` slot after `moment` whose number within its
    /// cycle of `count` (hours of the day) is allowed: where to look next.
    private func nextAllowed(after moment: Int64, unitSeconds: Int64, allowed: [Int], of count: Int) -> Int64 {
        let slot = CivilCalendar.floorDivide(Int(moment), Int(unitSeconds))
        for ahead in 1...count {
            let candidate = slot + ahead
            if allowed.contains(CivilCalendar.floorModulo(candidate, count)) { return Int64(candidate) * unitSeconds }
        }
        return Int64(slot + count) * unitSeconds
    }
}
