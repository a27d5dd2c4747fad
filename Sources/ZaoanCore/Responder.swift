/// Answers requests. Pure: the caller passes the time and the counters; nothing here touches
/// a socket or a file.
///
/// Answers that depend only on the clock are rendered once per second (per minute for the
/// greeting) and then served from `rendered`, so a busy second costs one format, not one per
/// request.
public final class Responder {
    public private(set) var settings: Settings
    public internal(set) var schedule: LiveSchedule {
        didSet { rotationBuiltAt = nil }
    }
    /// Events from the configured calendars, expanded for the window ahead (the server
    /// reads and watches the files): they count like rooms in `countdown`, `ticker` and
    /// `status`, but are not saved and cannot be changed with `live`.
    public internal(set) var calendarEvents: [LiveRoom] = []
    /// Every configured calendar's name, in the config's order, as the last reading gave
    /// them (`schedule ... calendar=NAME` says which exist); nil until the calendars the
    /// settings name have been read once.
    public internal(set) var calendarNames: [String]?
    /// Rooms (a recurring room as its occurrences ahead) and calendar events together, by
    /// start then ID: what countdowns and the ticker read (`rotation(at:)`). Built when
    /// either changes, and again every `RoomRecurrence.refreshSeconds` as time moves on.
    var rotation: [LiveRoom] = []
    /// The instant (Unix seconds) `rotation` was built for; nil when it must be built again.
    var rotationBuiltAt: Int64?
    /// Recurring rooms' occurrences, by room ID, as the service's reader process expanded
    /// them. A room without one that fits (just loaded, the zone changed) shows its first
    /// start until the next expansion arrives.
    public internal(set) var roomExpansions: [String: RoomExpansion] = [:]
    /// Alarms due after `after` and up to `start` (this run's first second) were sent to no
    /// one, the service not running: each fires once at `start + 1` if its event has not
    /// ended (`noteStart`).
    public internal(set) var missedAlarms: (after: Int, start: Int)?
    public let formatters: FormatterCache
    /// Solar terms and lunar dates for `status_template`, a year computed once and kept.
    /// Not `let`: an almanac computed off the loop at start takes its place (`adopt`).
    public private(set) var almanac = Almanac()
    /// Answers that depend only on the clock, by request, with the instants they are right
    /// for (`validity`).
    private var rendered: [Request: (valid: Range<Int>, reply: Reply)] = [:]
    /// The last of them: the same request again (a bar, a benchmark) is compared, not hashed,
    /// and its period is not worked out again. Four properties, not one optional tuple or box:
    /// a tuple was copied through the runtime's generic witness on every request, and a box
    /// was retained and released around each look (docs/benchmarks.md).
    ///
    /// `lastParsed` is the box the line was parsed into when the request came that way: the
    /// same line again (`ParsedLines` hands out the same box) is then known by identity,
    /// without copying or comparing the request. Held strongly, so no other box can take its
    /// address while it is compared with.
    private var lastRequest: Request?
    private var lastParsed: ParsedRequest?
    private var lastValid = 0..<0
    private var lastReply = Reply.ok

    private func remember(_ request: Request, _ parsed: ParsedRequest?, _ valid: Range<Int>, _ reply: Reply) {
        lastRequest = request
        lastParsed = parsed
        lastValid = valid
        lastReply = reply
    }
    private static let renderedLimit = 256
    /// The bytes `rendered` may hold: 125 distinct `schedule` answers of 0.9 MB each were
    /// kept until the 256th, 250 MB. Past it the cache starts again; a larger answer is not
    /// kept (a `live list` of 10,000 rooms is made from rows that are, `rowCache`).
    private static let renderedByteLimit = 4 << 20
    private var renderedBytes = 0
    /// The blocks of `blocks` lines, by place and request, with the period they were made in:
    /// a greeting beside a seconds clock is encoded once a minute, not every second.
    private var renderedBlocks: [BlockKey: (valid: Range<Int>, block: String)] = [:]
    private struct BlockKey: Hashable {
        let index: Int
        let part: Request
    }
    /// Cities the gazetteer found for requests (`greeting 杭州`), at most `gazetteerCacheLimit`;
    /// cleared with new settings (the language names them).
    var gazetteerCache: [String: Place] = [:]

    /// `live list`'s lines without their countdowns, in order; nil when the rooms changed.
    var listRows: [ListRow]?
    /// The same by room ID, kept across changes: a room that did not change is not formatted
    /// again. Cleared with new settings (zone, language).
    var rowCache: [String: ListRow] = [:]
    struct ListRow {
        let room: LiveRoom
        /// ID, start and end, each followed by a TAB.
        let head: String
        /// A TAB and the title.
        let tail: String
    }

    /// What `version` answers; the executable adds the commit it was built from.
    public var versionText = Version.describe(commit: nil)

    public init(settings: Settings, schedule: LiveSchedule = LiveSchedule()) {
        self.settings = settings
        self.schedule = schedule
        self.formatters = FormatterCache(capacity: settings.formatterCacheSize)
    }

    /// Takes new settings (after `reload`). The formatter cache is kept: its keys include
    /// locale and zone, so old entries are simply not hit.
    /// An almanac prepared off the loop (`Almanac.prepared`), if this one has computed
    /// nothing yet (a request that came first computed what it needed itself).
    public func adopt(_ prepared: AlmanacHandOff) {
        if almanac.yearsComputed == 0 { almanac = prepared.almanac }
    }

    public func apply(_ settings: Settings) {
        if settings.calendars != self.settings.calendars { calendarNames = nil }
        self.settings = settings
        rowCache.removeAll()
        gazetteerCache.removeAll()
        rotationBuiltAt = nil  // a new zone moves recurring rooms' wall clock
        forgetRendered()
    }

    /// Settings or rooms changed: nothing rendered before is right any more.
    func forgetRendered() {
        rendered.removeAll(keepingCapacity: true)
        renderedBytes = 0
        renderedBlocks.removeAll(keepingCapacity: true)
        lastRequest = nil
        lastParsed = nil
        lastValid = 0..<0
        listRows = nil
    }

    /// Answers a request that needs no connection state. `session` and `quit` answers are
    /// decided by the connection; `reload` and room changes by the server. `counters` is
    /// only evaluated for `stats`, so the request path does not gather them.
    public func answer(_ request: Request, now: Instant, counters: @autoclosure () -> ServiceFigures) -> Reply {
        answer(request, parsed: nil, now: now, counters: counters())
    }

    /// The same for a request as `ParsedLines` gave it: the line sent again within its
    /// period is answered from its box's identity.
    public func answer(_ parsed: ParsedRequest, now: Instant, counters: @autoclosure () -> ServiceFigures) -> Reply {
        if case .plain(.ping) = parsed.request { return .pong }  // the benchmark's request: no work at all
        if lastParsed === parsed, lastValid.contains(now.unixSeconds) { return lastReply }
        return answer(parsed.request, parsed: parsed, now: now, counters: counters())
    }

    private func answer(_ request: Request, parsed: ParsedRequest?, now: Instant, counters: @autoclosure () -> ServiceFigures) -> Reply {
        if case .plain(.ping) = request { return .pong }  // the benchmark's request: no work at all
        if case .watch(let inner) = request { return answer(inner, now: now, counters: counters()) }
        let instant = now.unixSeconds
        if lastValid.contains(instant), lastRequest == request {
            if parsed != nil && lastParsed !== parsed { lastParsed = parsed }
            return lastReply
        }
        let (inner, format) = request.withFormat
        if case .blocks(let parts) = inner { return blocks(parts, format: format, now: now) }
        guard let seconds = renderPeriod(inner) else {
            return render(inner, format: format, now: now, counters: counters())
        }
        if let hit = rendered[request], hit.valid.contains(instant) {
            remember(request, parsed, hit.valid, hit.reply)
            return hit.reply
        }
        let valid = validity(inner, at: instant, seconds: seconds)
        let reply = render(inner, format: format, now: now, counters: counters())
        let size = reply.bytes.count
        if let stale = rendered[request] { renderedBytes -= stale.reply.bytes.count }
        if rendered.count >= Self.renderedLimit || renderedBytes + size > Self.renderedByteLimit {
            rendered.removeAll(keepingCapacity: true)
            renderedBytes = 0
        }
        if size <= Self.renderedByteLimit {
            rendered[request] = (valid, reply)
            renderedBytes += size
        }
        remember(request, parsed, valid, reply)
        return reply
    }

    /// How many seconds one rendering of a request stays right (nil: render every time):
    /// a `time` pattern by its smallest field, the rest as `Request.renderPeriod` says.
    func renderPeriod(_ request: Request) -> Int? {
        switch request {
        case .text(.time, let pattern): return RenderPeriod.seconds(forTimePattern: pattern ?? settings.timeFormat)
        case .text(.chineseTime, let pattern):
            return RenderPeriod.seconds(forTimePattern: pattern ?? Self.chineseDatePattern(settings.language))
        case .zoned(_, let inner): return renderPeriod(inner)
        case .blocks(let parts):
            // The line changes as often as its most changeable part.
            return parts.map { renderPeriod($0) ?? 1 }.min() ?? 1
        default: return request.renderPeriod
        }
    }

    /// How often a watched request's answer can change: 0 for never with the clock
    /// (`version`, `help`), 60 for a greeting or a clock without seconds in a zone whose
    /// offset is whole minutes, else 1. (`watch` ticks once a minute while only such requests
    /// are watched, and not at all for fixed answers.) Settings changes re-render everything.
    public func changePeriod(_ request: Request, now: Instant) -> Int {
        let inner = request.withFormat.request
        let seconds = renderPeriod(inner) ?? 1
        if seconds >= Request.fixedRenderPeriod { return 0 }
        guard seconds == 60 else { return 1 }
        return WallClock.offset(zone(of: inner), at: now.unixSeconds) % 60 == 0 ? 60 : 1
    }

    /// The instants a rendering made at `instant` stays right for: its second; its minute
    /// (or hour) on the wall clock of the request's zone, as the tz database has it, so it
    /// turns with the zone's minutes even where the offset has seconds, and ends where the
    /// offset may change; or its whole period for longer ones. Worked out once per
    /// rendering: later requests only compare their instant with it.
    private func validity(_ request: Request, at instant: Int, seconds: Int) -> Range<Int> {
        if seconds >= Request.fixedRenderPeriod { return Int.min..<Int.max }
        if seconds <= 1 { return instant..<(instant + 1) }
        if seconds >= 86_400 {
            let start = CivilCalendar.floorDivide(instant, seconds) * seconds
            return start..<(start + seconds)
        }
        return zone(of: request).info().localPeriod(around: instant, seconds: seconds)
    }

    private func render(_ request: Request, format: OutputFormat, now: Instant, counters: @autoclosure () -> ServiceFigures) -> Reply {
        do {
            let answer = try structured(request, now: now, counters: counters())
            return format.encode(answer, name: request.commandWord, pangoMarkup: settings.i3barPango)
        } catch {
            return .error(error)
        }
    }

    /// The answer with what bars want to know about it; `OutputFormat` writes it out. A
    /// request of its own is answered by its kind's line of the answer table below; one made
    /// of requests by what it is made of.
    public func structured(_ request: Request, now: Instant, counters: @autoclosure () -> ServiceFigures) throws(ProtocolError) -> Answer {
        try structured(request, now: now, formats: defaultCountdownFormats, counters: counters)
    }

    private func structured(_ request: Request, now: Instant, formats: CountdownFormatSet?, counters: () -> ServiceFigures) throws(ProtocolError) -> Answer {
        switch request {
        case .plain, .text, .number, .query, .pair, .room:
            return try answer(request.kind, Asked(request: request, place: nil, now: now, formats: formats), counters: counters)
        case .zoned(let spec, let inner) where inner.isOfItsOwn:
            return try answer(inner.kind, Asked(request: inner, place: try place(spec), now: now, formats: formats), counters: counters)
        case .url(let inner): return Answer(try shownRoom(inner, now: now)?.url ?? "")
        case .join(let inner): return Answer(try shownRoom(inner, now: now)?.join?.url ?? "")
        case .blocks:
            throw ProtocolError(.badArgument, "blocks answers as i3bar only; send --format=i3bar blocks ...")
        case .countdownFormat(let name, let inner):
            return try structured(inner, now: now, formats: try countdownFormatSet(named: name), counters: counters)
        case .watch(let inner), .formatted(_, let inner), .zoned(_, let inner):
            return try structured(inner, now: now, formats: formats, counters: counters)
        }
    }

    /// The answer table: for each kind of request, the one function that answers it. A request
    /// of its own (`.plain`, `.text`, ...) comes here from `structured` as an `Asked`, with the
    /// place a `@ZONE` named and the time (Responder+Answers.swift); combinators (`watch`,
    /// `--format`, `blocks`, `url`, `join`) are answered by what they are made of and never reach
    /// their row's line. `counters` is evaluated for `stats` alone.
    ///
    /// An exhaustive `switch` rather than an array of functions, so that a row without an
    /// answer does not compile (an array could only be checked by a test), and each line is a
    /// direct call: no closure is read from a table on the request path.
    func answer(_ kind: RequestKind, _ asked: Asked, counters: () -> ServiceFigures) throws(ProtocolError) -> Answer {
        switch kind {
        case .greeting: return try greetingAnswer(asked)
        case .cities: return try citiesAnswer(name: asked.text ?? "")
        case .time: return try timeAnswer(asked)
        case .chineseTime: return try chineseTimeAnswer(asked)
        case .ago: return try agoAnswer(asked)
        case .duration: return try durationAnswer(asked)
        case .ping: return Answer("pong")
        case .version: return Answer(versionText)
        case .help: return Answer(lines: RequestKind.helpLines)
        case .session, .reload: return Answer("ok")
        case .quit: return Answer("bye")
        case .stats: return Answer(lines: stats(now: asked.now, counters: counters()))
        case .countdown: return try countdownAnswer(id: asked.text, now: asked.now, formats: asked.formats)
        case .status: return try statusAnswer(now: asked.now, place: asked.place, formats: asked.formats)
        case .ticker: return tickerAnswer(now: asked.now, skip: asked.number, formats: asked.formats)
        case .tickerOthers: return tickerAnswer(now: asked.now, skip: asked.number, formats: asked.formats, others: true)
        case .remindList: return Answer(lines: remindList(now: asked.now))
        case .liveAdd, .liveRemove, .liveSkip, .remindSnooze, .remindDismiss, .privacy:
            throw ProtocolError(.badArgument, "\(kind.descriptor.words) changes the rooms; the server applies it")
        case .eventAdd, .eventRemove:
            throw ProtocolError(.badArgument, "\(kind.descriptor.words) writes a calendar folder; the server does it (calendarWrite)")
        case .liveList: return Answer(lines: liveList(now: asked.now))
        case .liveShow: return Answer(lines: try liveShow(id: asked.text ?? "", now: asked.now))
        case .schedule:
            let query = asked.request.scheduleQuery ?? ScheduleQuery()
            return Answer(lines: try schedule(hours: query.hours, calendar: query.calendar, search: query.search, now: asked.now))
        case .month: return try monthAnswer(asked)
        case .monthDays: return Answer(lines: try monthText(asked).dayLines)
        case .watchEvents: throw ProtocolError(.badArgument, "watch events is a stream; the connection answers it")
        case .url, .join, .watch, .format, .blocks:
            throw ProtocolError(.badArgument, "\(kind.descriptor.words) is made of requests; send it with one")
        }
    }

    /// `blocks`: each part's i3bar block (a refused part as a block saying so), as one JSON
    /// array on one line: a bar's status line, as `zaoan bar` writes it. Each block's
    /// `instance` is its place and command word (`0-time`, `1-ticker`), so a click names the
    /// block; a clock in another zone is labelled with it (`Tokyo 09:30`).
    private func blocks(_ parts: [Request], format: OutputFormat, now: Instant) -> Reply {
        guard format == .i3bar else {
            return .error(ProtocolError(.badArgument, "blocks answers as i3bar only; send --format=i3bar blocks ..."))
        }
        let instant = now.unixSeconds
        var line = "["
        for (index, part) in parts.enumerated() {
            if index > 0 { line += "," }
            let key = BlockKey(index: index, part: part)
            let seconds = renderPeriod(part)
            if seconds != nil, let kept = renderedBlocks[key], kept.valid.contains(instant) {
                line += kept.block
                continue
            }
            let block = self.block(part, index: index, now: now)
            if let seconds {
                if renderedBlocks.count >= Self.renderedLimit { renderedBlocks.removeAll(keepingCapacity: true) }
                renderedBlocks[key] = (validity(part, at: instant, seconds: seconds), block)
            }
            line += block
        }
        return .line(line + "]")
    }

    /// One part of `blocks`, encoded; a refused part as a block saying so.
    private func block(_ part: Request, index: Int, now: Instant) -> String {
        let pango = settings.i3barPango
        let instance = "\(index)-\(part.commandWord)"
        do {
            let answer = try structured(part, now: now, counters: ServiceFigures(startedAt: now))
            return OutputFormat.i3barBlock(answer, instance: instance, label: zoneLabel(part), pangoMarkup: pango).encoded
        } catch {
            let text = SafeText.visible("zaoan: " + Reply.error(error).text.dropFirst(4))
            return I3barBlock(instance: instance, fullText: pango ? SafeText.pango(text) : text,
                              shortText: "zaoan ⚠", pango: pango).encoded
        }
    }

    /// What goes before a clock showing another zone: a city as named, a zone by its city's
    /// name in the configured language (`Europe/Berlin` as 柏林 or Berlin), else by its last
    /// component (`America/Port_of_Spain` as `Port of Spain`).
    func zoneLabel(_ request: Request) -> String? {
        guard case .zoned(let zone, let inner) = request else { return nil }
        switch inner.kind {
        case .time, .chineseTime: break
        default: return nil
        }
        // An unknown zone: the block itself shows the error; the label is its name's last part.
        return (try? place(zone))?.name ?? BuiltinCities.name(forZone: zone, language: settings.language)
    }

    /// "早安·北京": the greeting for the hour in the city's zone, then the city.
    public func greeting(city: String?, now: Instant) throws(ProtocolError) -> String {
        try greetingAnswer(city: city, now: now).text
    }

    func greetingAnswer(city: String?, now: Instant) throws(ProtocolError) -> Answer {
        try greetingAnswer(at: try place(city), now: now)
    }

    func greetingAnswer(at place: Place, now: Instant) throws(ProtocolError) -> Answer {
        let name = place.name, zone = place.zone
        let local = WallClock.local(now.unixSeconds, in: zone)
        let minuteOfDay = ((local % 86_400 + 86_400) % 86_400) / 60
        let period = settings.greetings.period(hour: minuteOfDay / 60, minute: minuteOfDay % 60)
        let word = period.text
        let date = formatters.string(from: now, ownPattern: settings.language.longDatePattern(settings.hourCycle),
                                     language: settings.language, zone: zone)
        return Answer(word + settings.separator + name, shortText: word, tooltip: "\(name) \(date)",
                      state: period.dayPart.rawValue)
    }

    /// A text on one line of a multi-line answer: control characters become `?`.
    public static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
