/// LC_TIME of the locales zaoan answers in, as glibc 2.36 compiles them from Debian 12's
/// `locales` package (`localedef -i en_US -f UTF-8`, `localedef -i zh_CN -f UTF-8`, ...,
/// then `locale -k LC_TIME`). Only ja_JP and zh_TW have eras (`%E` forms) and only ja_JP
/// alternative digits (`%O` forms); elsewhere both fall back to the plain conversions.
/// The other locales are in TimeLocale+Locales.swift.
package struct TimeLocale: Sendable {
    /// `abday`, `day`: Sunday first.
    let abbreviatedWeekdays: [String]
    let weekdays: [String]
    /// `abmon`, `mon`, and the standalone forms `ab_alt_mon`, `alt_mon` (`%Ob`, `%OB`).
    let abbreviatedMonths: [String]
    let months: [String]
    let abbreviatedAlternativeMonths: [String]
    let alternativeMonths: [String]
    /// `am_pm`.
    let am: String
    let pm: String
    /// `d_t_fmt` (`%c`), `d_fmt` (`%x`), `t_fmt` (`%X`), `t_fmt_ampm` (`%r`; glibc writes
    /// `%I:%M:%S %p` where it is empty).
    let dateAndTimeFormat: String
    let dateFormat: String
    let timeFormat: String
    let twelveHourTimeFormat: String
    /// `era_d_t_fmt` (`%Ec`), `era_d_fmt` (`%Ex`), `era_t_fmt` (`%EX`): empty means the
    /// plain format.
    let eraDateAndTimeFormat: String
    let eraDateFormat: String
    let eraTimeFormat: String
    /// `era`, in the locale's order (the first that holds a date is its era).
    let eras: [Era]
    /// `alt_digits`: the `%O` form of 0, 1, 2, ... (glibc's go to 99 at most).
    let alternativeDigits: [String]

    init(abbreviatedWeekdays: [String], weekdays: [String], abbreviatedMonths: [String], months: [String],
         abbreviatedAlternativeMonths: [String], alternativeMonths: [String], am: String, pm: String,
         dateAndTimeFormat: String, dateFormat: String, timeFormat: String, twelveHourTimeFormat: String,
         eraDateAndTimeFormat: String = "", eraDateFormat: String = "", eraTimeFormat: String = "",
         eras: [Era] = [], alternativeDigits: [String] = []) {
        self.abbreviatedWeekdays = abbreviatedWeekdays
        self.weekdays = weekdays
        self.abbreviatedMonths = abbreviatedMonths
        self.months = months
        self.abbreviatedAlternativeMonths = abbreviatedAlternativeMonths
        self.alternativeMonths = alternativeMonths
        self.am = am
        self.pm = pm
        self.dateAndTimeFormat = dateAndTimeFormat
        self.dateFormat = dateFormat
        self.timeFormat = timeFormat
        self.twelveHourTimeFormat = twelveHourTimeFormat.isEmpty ? "%I:%M:%S %p" : twelveHourTimeFormat
        self.eraDateAndTimeFormat = eraDateAndTimeFormat
        self.eraDateFormat = eraDateFormat
        self.eraTimeFormat = eraTimeFormat
        self.eras = eras
        self.alternativeDigits = alternativeDigits
    }

    /// The era a day falls in, if the locale has one for it.
    func era(of time: BrokenDownTime) -> Era? {
        eras.first { $0.holds(year: time.year, month: time.month, day: time.day) }
    }

    package static let english = TimeLocale(
        abbreviatedWeekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        weekdays: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
        abbreviatedMonths: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                 "November", "December"],
        abbreviatedAlternativeMonths: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        alternativeMonths: ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                            "October", "November", "December"],
        am: "AM", pm: "PM",
        dateAndTimeFormat: "%a %d %b %Y %r %Z", dateFormat: "%m/%d/%Y", timeFormat: "%r",
        twelveHourTimeFormat: "%I:%M:%S %p")

    package static let chinese = TimeLocale(
        abbreviatedWeekdays: ["日", "一", "二", "三", "四", "五", "六"],
        weekdays: ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"],
        abbreviatedMonths: ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"],
        months: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        abbreviatedAlternativeMonths: ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"],
        alternativeMonths: ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"],
        am: "上午", pm: "下午",
        dateAndTimeFormat: "%Y年%m月%d日 %A %H时%M分%S秒", dateFormat: "%Y年%m月%d日", timeFormat: "%H时%M分%S秒",
        twelveHourTimeFormat: "%p %I时%M分%S秒")
}

/// What glibc's own `strftime` writes for one conversion given with no flags and no width.
///
/// That is how GNU date gets its locale-dependent text: gnulib's `nstrftime` (which `date`
/// uses) cannot read the C library's locale tables, so for `%a %A %b %B %c %x %X %p %r`, the
/// `E` forms of `%C %Y %y` and the `O` forms of numbers it calls the C library's `strftime`
/// with just `%` + modifier + letter, and pads or recases the result itself. glibc's rules
/// differ from gnulib's in places (`%Y` is not padded to four digits inside `%c`, `%EC`
/// rounds negative centuries down), so they are kept apart here.
enum LibcTimeText {
    /// Appends glibc's text for `%<modifier><letter>`; `modifier` is 0, `E` or `O`.
    static func append(_ letter: UInt8, modifier: UInt8, time: BrokenDownTime, locale: TimeLocale, to out: inout [UInt8]) {
        let alternative = modifier == UInt8(ascii: "O")
        let era = modifier == UInt8(ascii: "E") ? locale.era(of: time) : nil
        /// `DO_NUMBER`, in the locale's alternative digits for an `O` form.
        func number(_ value: Int, digits: Int, spaces: Bool = false, to out: inout [UInt8]) {
            if alternative, value >= 0, value < locale.alternativeDigits.count {
                out += locale.alternativeDigits[value].utf8
            } else {
                LibcTimeText.number(value, digits: digits, spaces: spaces, to: &out)
            }
        }
        /// `%Ec %Ex %EX`: the era's format where the locale has one.
        func format(_ plain: String, era eraFormat: String) -> String {
            modifier == UInt8(ascii: "E") && !eraFormat.isEmpty ? eraFormat : plain
        }
        // `%EC %Ey %EY` in an era: its name, its year (two digits at least), its format.
        if let era {
            switch letter {
            case UInt8(ascii: "C"): return out += era.name.utf8
            case UInt8(ascii: "y"): return number(era.year(of: time.year), digits: 2, to: &out)
            case UInt8(ascii: "Y"): return appendFormat(era.format, time: time, locale: locale, to: &out)
            default: break
            }
        }
        switch letter {
        case UInt8(ascii: "a"): out += locale.abbreviatedWeekdays[time.weekday].utf8
        case UInt8(ascii: "A"): out += locale.weekdays[time.weekday].utf8
        case UInt8(ascii: "b"), UInt8(ascii: "h"):
            out += (alternative ? locale.abbreviatedAlternativeMonths : locale.abbreviatedMonths)[time.month - 1].utf8
        case UInt8(ascii: "B"): out += (alternative ? locale.alternativeMonths : locale.months)[time.month - 1].utf8
        case UInt8(ascii: "c"):
            appendFormat(format(locale.dateAndTimeFormat, era: locale.eraDateAndTimeFormat), time: time, locale: locale, to: &out)
        case UInt8(ascii: "x"): appendFormat(format(locale.dateFormat, era: locale.eraDateFormat), time: time, locale: locale, to: &out)
        case UInt8(ascii: "X"): appendFormat(format(locale.timeFormat, era: locale.eraTimeFormat), time: time, locale: locale, to: &out)
        case UInt8(ascii: "r"): appendFormat(locale.twelveHourTimeFormat, time: time, locale: locale, to: &out)
        case UInt8(ascii: "D"): appendFormat("%m/%d/%y", time: time, locale: locale, to: &out)
        case UInt8(ascii: "F"): appendFormat("%Y-%m-%d", time: time, locale: locale, to: &out)
        case UInt8(ascii: "R"): appendFormat("%H:%M", time: time, locale: locale, to: &out)
        case UInt8(ascii: "T"): appendFormat("%H:%M:%S", time: time, locale: locale, to: &out)
        case UInt8(ascii: "p"): out += (time.hour > 11 ? locale.pm : locale.am).utf8
        case UInt8(ascii: "P"): out += (time.hour > 11 ? locale.pm : locale.am).lowercasedASCII.utf8
        case UInt8(ascii: "Z"): out += time.zoneAbbreviation.utf8
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "%"): out.append(UInt8(ascii: "%"))
        case UInt8(ascii: "C"):
            number(time.year / 100 - (time.year % 100 < 0 ? 1 : 0), digits: 1, to: &out)
        case UInt8(ascii: "Y"): number(time.year, digits: 1, to: &out)
        case UInt8(ascii: "y"): number(((time.year - 1900) % 100 + 100) % 100, digits: 2, to: &out)
        case UInt8(ascii: "d"): number(time.day, digits: 2, to: &out)
        case UInt8(ascii: "e"): number(time.day, digits: 2, spaces: true, to: &out)
        case UInt8(ascii: "H"): number(time.hour, digits: 2, to: &out)
        case UInt8(ascii: "I"): number(time.hour12, digits: 2, to: &out)
        case UInt8(ascii: "k"): number(time.hour, digits: 2, spaces: true, to: &out)
        case UInt8(ascii: "l"): number(time.hour12, digits: 2, spaces: true, to: &out)
        case UInt8(ascii: "j"): number(time.dayOfYear + 1, digits: 3, to: &out)
        case UInt8(ascii: "M"): number(time.minute, digits: 2, to: &out)
        case UInt8(ascii: "m"): number(time.month, digits: 2, to: &out)
        case UInt8(ascii: "S"): number(time.second, digits: 2, to: &out)
        case UInt8(ascii: "s"): number(time.unixSeconds, digits: 1, to: &out)
        case UInt8(ascii: "u"): number((time.weekday + 6) % 7 + 1, digits: 1, to: &out)
        case UInt8(ascii: "w"): number(time.weekday, digits: 1, to: &out)
        case UInt8(ascii: "U"): number((time.dayOfYear - time.weekday + 7) / 7, digits: 2, to: &out)
        case UInt8(ascii: "W"): number((time.dayOfYear - (time.weekday + 6) % 7 + 7) / 7, digits: 2, to: &out)
        case UInt8(ascii: "V"), UInt8(ascii: "g"), UInt8(ascii: "G"):
            let week = ISOWeek(time)
            let year = time.year + week.yearAdjustment
            switch letter {
            case UInt8(ascii: "g"): number((year % 100 + 100) % 100, digits: 2, to: &out)
            case UInt8(ascii: "G"): number(year, digits: 1, to: &out)
            default: number(week.week, digits: 2, to: &out)
            }
        case UInt8(ascii: "z"):
            out.append(time.utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let minutes = abs(time.utcOffset) / 60
            number(minutes / 60 * 100 + minutes % 60, digits: 4, to: &out)
        default:
            // Not reached: StrftimeFormat sends only conversions glibc knows. glibc copies
            // what it does not know.
            out.append(UInt8(ascii: "%"))
            if modifier != 0 { out.append(modifier) }
            out.append(letter)
        }
    }

    /// A locale format (`d_t_fmt`, an era's `%EC%Ey年` and the like): conversions with at
    /// most a modifier, no flags or widths.
    static func appendFormat(_ format: String, time: BrokenDownTime, locale: TimeLocale, to out: inout [UInt8]) {
        var bytes = format.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%"), var letter = bytes.next() else {
                out.append(byte)
                continue
            }
            var modifier: UInt8 = 0
            if letter == UInt8(ascii: "E") || letter == UInt8(ascii: "O"), let next = bytes.next() {
                modifier = letter
                letter = next
            }
            append(letter, modifier: modifier, time: time, locale: locale, to: &out)
        }
    }

    /// glibc's `DO_NUMBER` without flags: at least `digits` characters, zeros (or spaces)
    /// in front, a minus sign before the zeros.
    static func number(_ value: Int, digits: Int, spaces: Bool = false, to out: inout [UInt8]) {
        var magnitude = value.magnitude
        var reversed: [UInt8] = []
        repeat {
            reversed.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        let length = reversed.count + (value < 0 ? 1 : 0)
        let padding = max(0, digits - length)
        if spaces {
            out += repeatElement(UInt8(ascii: " "), count: padding)
            if value < 0 { out.append(UInt8(ascii: "-")) }
        } else {
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out += repeatElement(UInt8(ascii: "0"), count: padding)
        }
        out += reversed.reversed()
    }
}

/// The ISO 8601 week (weeks start on Monday; week 1 holds the year's first Thursday) and
/// whether it belongs to the calendar year before or after, as C's strftime computes them.
struct ISOWeek {
    /// 1...53
    let week: Int
    /// -1, 0 or 1: add to the calendar year to get the ISO year.
    let yearAdjustment: Int

    init(_ time: BrokenDownTime) {
        /// Days from the Monday of week 1 to the given day of the year.
        func daysSinceWeekOne(_ dayOfYear: Int) -> Int {
            dayOfYear - (dayOfYear - time.weekday + 4 + 378) % 7 + 3
        }
        var days = daysSinceWeekOne(time.dayOfYear)
        var adjustment = 0
        if days < 0 {
            adjustment = -1
            days = daysSinceWeekOne(time.dayOfYear + 365 + (CivilCalendar.isLeap(time.year - 1) ? 1 : 0))
        } else {
            let next = daysSinceWeekOne(time.dayOfYear - 365 - (CivilCalendar.isLeap(time.year) ? 1 : 0))
            if next >= 0 {
                adjustment = 1
                days = next
            }
        }
        week = days / 7 + 1
        yearAdjustment = adjustment
    }
}

extension String {
    /// ASCII letters lowercased, everything else as it is: what C's `tolower` does byte by
    /// byte in a UTF-8 locale.
    var lowercasedASCII: String {
        String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
