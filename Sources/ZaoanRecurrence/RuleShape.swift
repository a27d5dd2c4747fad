import CICal

/// Rules that can never match, found from their parts before libical iterates them.
///
/// libical's `icalrecur_iterator_next` keeps stepping until an instance matches or its last
/// year (2582): `FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=31` from 1970 is five million steps, about
/// 20 s, inside one call that no budget checked between calls can interrupt. libical
/// refuses some such rules itself (YEARLY), not these. What is left unknown here is bounded
/// by the CPU budgets (`CalendarLimits.cpuSecondsPerSeries`) and, for the service, by the
/// reader process being ended (`ReaderProcess`).
package enum RuleShape {
    /// Why `rule` has no instance whatever its start, or nil if it may have one.
    package static func impossibility(of rule: icalrecurrencetype) -> String? {
        var rule = rule
        let months = values(&rule.by_month).map { Int(icalrecurrencetype_month_month($0)) }
        let monthDays = values(&rule.by_month_day).map(Int.init)
        let yearDays = values(&rule.by_year_day).map(Int.init)
        if !months.isEmpty, !monthDays.isEmpty {
            let fits = months.contains { month in monthDays.contains { abs($0) >= 1 && abs($0) <= longest(month) } }
            if !fits {
                return "BYMONTHDAY=\(monthDays.map(String.init).joined(separator: ",")) never falls in BYMONTH=\(months.map(String.init).joined(separator: ","))"
            }
        }
        if !monthDays.isEmpty, !monthDays.contains(where: { abs($0) >= 1 && abs($0) <= 31 }) {
            return "BYMONTHDAY=\(monthDays.map(String.init).joined(separator: ",")) is no day of any month"
        }
        if !yearDays.isEmpty, !yearDays.contains(where: { abs($0) >= 1 && abs($0) <= 366 }) {
            return "BYYEARDAY=\(yearDays.map(String.init).joined(separator: ",")) is no day of any year"
        }
        return nil
    }

    /// Days in the longest `month` (February: 29); 0 for a month that does not exist.
    private static func longest(_ month: Int) -> Int {
        switch month {
        case 2: return 29
        case 4, 6, 9, 11: return 30
        case 1...12: return 31
        default: return 0
        }
    }

    /// A BY… list: libical ends it with `ICAL_RECURRENCE_ARRAY_MAX` unless it is full.
    private static func values<T>(_ tuple: inout T) -> [Int16] {
        withUnsafeBytes(of: &tuple) { raw in
            Array(raw.bindMemory(to: Int16.self).prefix { $0 != Int16(ICAL_RECURRENCE_ARRAY_MAX.rawValue) })
        }
    }
}
