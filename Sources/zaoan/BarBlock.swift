import ZaoanClient
import ZaoanProtocol
import ZaoanText

/// One block of `zaoan bar`: what it asks the service, its `watch` connection, and what it
/// shows now.
final class BarBlock {
    /// What the block watches; clicks change the ticker's skip and the clock's pattern.
    enum Source: Equatable {
        case ticker(skip: Int, others: Bool)
        /// `formatIndex` is the pattern's place in `bar_clock_formats`, nil if the block's
        /// own pattern is not one of them; `zone` the entry of `bar_clock_zones` shown, nil
        /// for the configured zone.
        case clock(formatIndex: Int?, pattern: String, zone: String? = nil)
        /// The month grid: the month it shows now, and the words after it (`@ZONE`, `days`).
        case month(MonthSelector, rest: [String])
        case request(String)
    }

    let index: Int
    /// The request's command word: with the index, the block's i3bar `instance`.
    let kind: String
    var source: Source
    /// The block as written to the bar; nil until there is something to show.
    var shown: String?
    /// `shown` says the service is down or busy: the bar shows that once, not per block.
    var showsOutage = false

    var instance: String { "\(index)-\(kind)" }

    var requestLine: String {
        switch source {
        case .ticker(let skip, let others): return Self.line(["ticker"] + (others ? ["others"] : []) + (skip == 0 ? [] : [String(skip)]))
        case .clock(_, let pattern, let zone): return Self.line(["time", pattern] + (zone.map { ["@" + $0] } ?? []))
        case .month(let selector, let rest): return Self.line(["month"] + (selector == .this ? [] : [selector.word]) + rest)
        case .request(let line): return line
        }
    }

    /// A block for one entry of `bar_blocks`. The bar asks for `--format=i3bar` itself, so a
    /// `--format=...` word in the entry is dropped.
    init(index: Int, entry: String, clockFormats: [String]) {
        self.index = index
        var words = (try? RequestParser.words(entry)) ?? []  // the config check refused an entry that has no words; none is left here
        var line = entry
        if let first = words.first, first.lowercased().hasPrefix("--format=") {
            words.removeFirst()
            line = Self.line(words)
        }
        let request = (try? RequestParser.parse(line)) ?? nil  // not a request: the block asks it as written and shows the service's error
        switch request {
        case .number(.ticker, let skip)?, .number(.tickerOthers, let skip)?:
            kind = "ticker"
            source = .ticker(skip: skip, others: request?.kind == .tickerOthers)
        case .text(.time, let pattern)?:
            kind = "time"
            if let pattern {
                source = .clock(formatIndex: clockFormats.firstIndex(of: pattern), pattern: pattern)
            } else {
                source = .clock(formatIndex: 0, pattern: clockFormats[0])
            }
        case .zoned(let zone, .text(.time, let pattern))?:
            kind = "time"
            let shown = pattern ?? clockFormats[0]
            source = .clock(formatIndex: clockFormats.firstIndex(of: shown), pattern: shown, zone: zone)
        case .text(.month, let selector)?, .text(.monthDays, let selector)?, .zoned(_, .text(.month, let selector))?, .zoned(_, .text(.monthDays, let selector))?:
            kind = "month"
            // The request parsed above, so its month word reads: no error is lost here. The
            // other words (`@ZONE`, `days`) are those that are not a month.
            let given = selector.flatMap { try? MonthSelector(word: $0) } ?? .this  // the request parsed, so its word reads; no word is this month
            let rest = words.dropFirst().filter { word in (try? MonthSelector(word: word)) == nil || word.hasPrefix("@") }  // a test: not a month word
            source = .month(given, rest: Array(rest))
        default:
            kind = request?.commandWord ?? "block"
            source = .request(line)
        }
    }

    /// Words as a request line. Blocks come from a checked config (`bar_blocks`, and
    /// `bar_clock_formats` hold no control characters), so this cannot fail there.
    private static func line(_ words: [String]) -> String {
        (try? RequestWords.line(words)) ?? ""  // checked words: cannot fail (see above)
    }

    /// The request whose shown room or event's link `open-link` opens: the ticker's, a
    /// countdown's or the status's (`url` takes these); nil for other blocks.
    var linkRequest: String? {
        switch source {
        case .ticker: return requestLine
        case .request where BarClicks.linkBlocks.contains(kind): return requestLine
        default: return nil
        }
    }

    /// A click of i3bar's `button` as `clicks` binds it (zaoan's defaults unless told
    /// otherwise), for the actions that change the request: whether it changed.
    func click(button: Int, clockFormats: [String], zones: [String] = [], clicks: BarClicks = BarClicks()) -> Bool {
        guard let button = ClickButton(i3bar: button) else { return false }
        return apply(clicks.action(block: kind, button: button), clockFormats: clockFormats, zones: zones)
    }

    /// Carries out a built-in action that changes what the block asks for. Returns whether
    /// the request changed (and must be watched anew). `next` and `previous` move the
    /// ticker's skip; `next-format` and `previous-format` cycle a clock through
    /// `clockFormats`; `next-zone` moves a clock to the next of `zones`, and after the last
    /// back to the configured zone. Any other pairing changes nothing.
    func apply(_ action: ClickAction, clockFormats: [String], zones: [String] = []) -> Bool {
        switch (action, source) {
        case (.next, .ticker(let skip, let others)), (.previous, .ticker(let skip, let others)):
            let next = max(0, skip + (action == .next ? 1 : -1))
            guard next != skip, next < 1_000_000 else { return false }
            source = .ticker(skip: next, others: others)
            return true
        case (.nextZone, .clock(let formatIndex, let pattern, let zone)):
            guard !zones.isEmpty else { return false }
            let next = zone.flatMap { zones.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            source = .clock(formatIndex: formatIndex, pattern: pattern, zone: next < zones.count ? zones[next] : nil)
            return true
        case (.nextFormat, .clock(let formatIndex, _, let zone)), (.previousFormat, .clock(let formatIndex, _, let zone)):
            let step = action == .nextFormat ? 1 : -1
            let count = clockFormats.count
            guard count > 0 else { return false }
            let next: Int
            if let formatIndex {
                next = ((formatIndex + step) % count + count) % count
            } else {
                next = step > 0 ? 0 : count - 1
            }
            let updated = Source.clock(formatIndex: next, pattern: clockFormats[next], zone: zone)
            guard updated != source else { return false }
            source = updated
            return true
        case (.nextMonth, .month(let selector, let rest)), (.previousMonth, .month(let selector, let rest)):
            guard let next = selector.stepped(by: action == .nextMonth ? 1 : -1) else { return false }
            source = .month(next, rest: rest)
            return true
        case (.thisMonth, .month(let selector, let rest)):
            guard selector != .this else { return false }
            source = .month(.this, rest: rest)
            return true
        default:
            return false
        }
    }
}
