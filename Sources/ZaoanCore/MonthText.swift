import ZaoanProtocol
import ZaoanText
import ZaoanTime

/// A month's grid in words, in three forms from one layout: plain text (`month`), Pango
/// markup (the waybar tooltip, and `zaoan cal`'s colours), and one line a day (`month days`).
///
/// The layout is `cal -w`'s: the title, the weekdays' names, then a row a week, its number
/// first. A day is `[ 6]` when it is today and followed by `*` when rooms or events touch it;
/// with the lunar calendar or China's workdays each day takes two lines and eight columns —
/// the number, the mark of a holiday (休) or make-up workday (班), and under it the cell's
/// text (`MonthDay.cell`). Below the grid, a line for each day with a festival, a solar term,
/// a holiday's first day or a make-up workday names them.
public struct MonthText: Sendable {
    public let grid: MonthGrid
    public let words: MonthWords
    public let workdayWords: WorkdayWords
    public let language: Language
    /// Two lines a day: the lunar calendar, China's workdays, or both, are on.
    public let wide: Bool

    public init(grid: MonthGrid, language: Language, wide: Bool) {
        self.grid = grid
        self.language = language
        words = MonthWords.forLanguage(language)
        workdayWords = WorkdayWords.forLanguage(language)
        self.wide = wide
    }

    /// How a piece of the grid looks in markup.
    enum Style: Equatable {
        case plain, title, weekNumber, weekend, holiday, makeup, today, lunar, marked
        /// A day's `*` in the colour of its first event's calendar.
        case event(BarColor)
    }

    typealias Piece = (text: String, style: Style, underline: Bool)

    /// Colours, as waybar's clock calendar uses them: weekends and holidays red, as printed
    /// calendars print Sundays and holidays, make-up workdays amber.
    static func colour(_ style: Style) -> String? {
        switch style {
        case .weekNumber, .lunar: return "#8a8a8a"
        case .weekend, .holiday: return "#e05561"
        case .makeup: return "#d8a03d"
        case .marked: return "#4a9fe0"
        case .event(let color): return color.hex
        case .plain, .title, .today: return nil
        }
    }

    private var cellColumns: Int { wide ? 8 : 5 }

    /// The grid's lines as pieces.
    func pieces() -> [[Piece]] {
        let width = 3 + 7 * cellColumns
        let title = words.title(year: grid.year, month: grid.month)
        let pad = max(0, (width - DisplayWidth.columns(title)) / 2)
        var lines: [[Piece]] = [[(String(repeating: " ", count: pad) + title, .title, false)]]
        var header: [Piece] = [("   ", .plain, false)]
        for offset in 0..<7 {
            let weekday = (grid.rule.firstWeekday + offset) % 7
            let name = words.weekday(weekday)
            let style: Style = weekday == 0 || weekday == 6 ? .weekend : .plain
            // Over the day's number (columns 1–2): a name of up to three columns right-aligned
            // to it, a wider one (周日) from column 1.
            let narrow = !wide && DisplayWidth.columns(name) <= 3
            header.append((narrow ? Self.fit(name, columns: 3, right: true) + "  " : " " + Self.fit(name, columns: cellColumns - 1, right: false),
                           style, false))
        }
        lines.append(header)
        for week in grid.weeks {
            var numbers: [Piece] = [(Self.padded(String(week.number), 2) + " ", .weekNumber, false)]
            var under: [Piece] = [("   ", .plain, false)]
            for place in week.days {
                guard let day = place else {
                    numbers.append((String(repeating: " ", count: cellColumns), .plain, false))
                    under.append((String(repeating: " ", count: cellColumns), .plain, false))
                    continue
                }
                numbers.append(contentsOf: dayPieces(day))
                if wide {
                    under.append((" " + Self.fit(day.cell, columns: cellColumns - 1, right: false),
                                  day.marks.isEmpty ? .lunar : .marked, false))
                }
            }
            lines.append(numbers)
            if wide { lines.append(under) }
        }
        for note in notes() { lines.append([(note, .plain, false)]) }
        return lines
    }

    /// A day's number with its marks: `[ 6]*休`.
    private func dayPieces(_ day: MonthDay) -> [Piece] {
        let isToday = grid.today == day.day
        let number = Self.padded(String(day.day.date.day), 2)
        let style: Style
        switch day.kind {
        case .holiday: style = .holiday
        case .makeupWorkday: style = .makeup
        case .weekend: style = .weekend
        case .workday: style = .plain
        }
        var pieces: [Piece] = [(isToday ? "[" : " ", .plain, false),
                               (number, isToday ? .today : style, day.events > 0),
                               (isToday ? "]" : " ", .plain, false),
                               (day.events > 0 ? "*" : " ", day.events > 0 ? day.eventColor.map(Style.event) ?? .plain : .plain, false)]
        if wide {
            let mark = day.kind == .holiday ? workdayWords.holidayMark : day.kind == .makeupWorkday ? workdayWords.makeupMark : ""
            pieces.append((Self.fit(mark, columns: 2, right: false) + " ", style, false))
        }
        return pieces
    }

    /// The lines under the grid: `21 冬至`, `1–3 元旦 · 法定假日`, `4 调休上班`.
    func notes() -> [String] {
        var notes: [String] = []
        var index = 0
        let days = grid.days
        while index < days.count {
            let day = days[index]
            var parts = day.marks
            var through = index
            if day.kind == .holiday, let holiday = day.holiday,
               index == 0 || days[index - 1].kind != .holiday || days[index - 1].holiday != holiday {
                while through + 1 < days.count, days[through + 1].kind == .holiday, days[through + 1].holiday == holiday { through += 1 }
                parts.append(workdayWords.text(.holiday, holiday))
            } else if day.kind == .makeupWorkday {
                parts.append(workdayWords.text(.makeupWorkday, day.holiday) + (day.holiday.map { " · " + workdayWords.name(of: $0) } ?? ""))
            }
            if !parts.isEmpty {
                let first = day.day.date.day
                let last = days[through].day.date.day
                notes.append((through > index ? "\(first)–\(last)" : "\(first)") + " " + parts.joined(separator: ", "))
            }
            index += 1
        }
        return notes
    }

    /// The grid as plain lines (what `month` answers) and as Pango markup in a monospace
    /// font (the tooltip), from one layout: every text escaped, today bold, weekends and
    /// holidays red, make-up workdays amber, days with events underlined.
    public func rendered() -> (lines: [String], markup: String) {
        let rows = pieces()
        let lines = rows.map { line in Self.trailingSpacesTrimmed(line.map(\.text).joined()) }
        let marked = rows.map { line in
            line.map { piece -> String in
                var text = SafeText.pango(SafeText.visible(piece.text))
                if piece.underline { text = "<u>" + text + "</u>" }
                if piece.style == .today || piece.style == .title { text = "<b>" + text + "</b>" }
                if let colour = Self.colour(piece.style) { text = "<span foreground=\"\(colour)\">" + text + "</span>" }
                return text
            }.joined()
        }.joined(separator: "\n")
        guard let fonts = monospaceFonts else { return (lines, "<tt>" + marked + "</tt>") }
        return (lines, "<span font_family=\"\(fonts)\">" + marked + "</span>")
    }

    /// The grid lines up only in a font whose CJK characters are exactly two columns wide:
    /// `<tt>`'s monospace (DejaVu Sans Mono on Debian) has none and borrows them from a font
    /// of other proportions. So a Chinese, Japanese or Korean grid names the monospace CJK
    /// fonts Debian ships (fonts-noto-cjk, fonts-wqy-zenhei) before monospace.
    var monospaceFonts: String? {
        let noto: String
        switch language {
        case .zh: noto = "Noto Sans Mono CJK SC"
        case .zhHant: noto = "Noto Sans Mono CJK TC"
        case .ja: noto = "Noto Sans Mono CJK JP"
        case .ko: noto = "Noto Sans Mono CJK KR"
        case .en, .de, .fr, .es: return nil
        }
        return noto + ",WenQuanYi Zen Hei Mono,monospace"
    }

    /// The title and the grid's row that holds today (the first row in another month), in
    /// one line: `2026年12月 · W49 30 1 2 3 4 [5] 6`.
    public var todayLine: String {
        let rows = grid.weeks
        let row = rows.first { $0.days.contains { $0?.day == grid.today } } ?? rows.first
        guard let row else { return "" }
        let days = row.days.map { place -> String in
            guard let day = place else { return "" }
            let number = String(day.day.date.day)
            return (grid.today == day.day ? "[\(number)]" : number) + (day.events > 0 ? "*" : "")
        }.filter { !$0.isEmpty }
        return words.title(year: grid.year, month: grid.month) + " · W\(row.number) " + days.joined(separator: " ")
    }

    /// `month days`: `DATE<TAB>LUNAR DAY<TAB>MARKS<TAB>KIND<TAB>EVENTS`, a line a day.
    public var dayLines: [String] {
        grid.days.map { day in
            let marks = day.marks.isEmpty ? "-" : day.marks.joined(separator: ",")
            return "\(day.day)\t\(day.lunarDay)\t\(marks)\t\(day.kind.rawValue)\t\(day.events)"
        }
    }

    // MARK: - Columns

    static func padded(_ text: String, _ columns: Int) -> String {
        String(repeating: " ", count: max(0, columns - DisplayWidth.columns(text))) + text
    }

    /// `text` cut to `columns` and padded to them, on the left when `right`.
    static func fit(_ text: String, columns: Int, right: Bool) -> String {
        let cut = DisplayWidth.prefix(text, columns: columns)
        let padding = String(repeating: " ", count: max(0, columns - DisplayWidth.columns(cut)))
        return right ? padding + cut : cut + padding
    }

    static func trailingSpacesTrimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line = line.dropLast() }
        return String(line)
    }
}
