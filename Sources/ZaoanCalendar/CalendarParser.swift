import ZaoanRecurrence
import CICal

/// A line of a VEVENT that libical could not read (it dropped the property).
struct UnreadLine {
    let line: Int
    let property: String
    /// Nothing but spaces after the `:` (`RRULE:`): a property written without its value.
    let isEmpty: Bool
}

/// A break in a file's BEGIN/END structure that reading went past.
struct StructureProblem {
    let line: Int?
    /// What is wrong, as an error for the whole file says it.
    let reason: String
    /// What was left out for it.
    let consequence: String

    var message: String { (line.map { "line \($0): " } ?? "") + reason + "; " + consequence }
}

/// What libical built of a file's text, and what it could not use.
struct ParsedCalendar {
    /// The VCALENDARs, owned by the caller.
    var roots: [OpaquePointer] = []
    /// By VEVENT, in the order they were given to libical (the order of the roots' VEVENTs).
    var unreadLines: [Int: [UnreadLine]] = [:]
    var structure: [StructureProblem] = []
    /// VEVENTs given to libical.
    var events = 0
}

/// Gives a file's content lines to libical, checking the BEGIN/END structure itself, so a
/// stray or missing END is a problem with a line, not a guess of libical's.
///
/// A component directly inside a VCALENDAR (a VEVENT, VTIMEZONE, VTODO…) is given to libical
/// once its END has come and its BEGINs and ENDs pair. One that does not (`END:VTOOD`, an
/// END missing, the text ending inside it) is left out alone, named with its line, and
/// reading goes on at the next calendar component (RFC 5545 3.6: VEVENT, VTODO, VJOURNAL,
/// VFREEBUSY, VTIMEZONE), at the calendar's END or at the next BEGIN:VCALENDAR. Lines
/// outside any VCALENDAR are left out, named once per run of them; a stray END inside the
/// calendar is left out. A VCALENDAR the text does not end is ended for it.
///
/// The whole file is refused — it is not a calendar, or a costly one — for a NUL byte, a
/// line, component or depth over `CalendarLimits`, and when no VEVENT could be read out of a
/// broken structure (with its first problem) or there is no VCALENDAR at all.
struct CalendarParser {
    static func parse(_ bytes: [UInt8]) throws(CalendarReadError.Place) -> ParsedCalendar {
        guard let handle = icalparser_new() else { throw .init(line: nil, reason: "libical could not start a parser") }
        defer { icalparser_free(handle) }
        var reader = CalendarParser(parser: handle)
        do throws(CalendarReadError.Place) {
            try ContentLines.forEach(in: bytes) { (line: inout ContentLine) throws(CalendarReadError.Place) in
                try reader.add(line)
            }
            try reader.finish()
        } catch {
            for root in reader.result.roots { icalcomponent_free(root) }
            LibICal.prepare()
            throw error
        }
        LibICal.prepare()
        return reader.result
    }

    /// The components a VCALENDAR holds at its top and nothing nests: where reading starts
    /// again after a broken one.
    static let calendarComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

    private let parser: OpaquePointer
    private(set) var result = ParsedCalendar()
    /// The open components, outermost (the VCALENDAR) first.
    private var open: [(name: String, line: Int)] = []
    /// The name of the broken component being read past, up to its END or the next start.
    private var skipping: String?
    /// Outside a VCALENDAR, in a run of lines already reported.
    private var inStrayRun = false
    private var components = 0
    private var lastLine: Int?
    private var pending = PendingComponent()

    private init(parser: OpaquePointer) {
        self.parser = parser
    }

    private mutating func add(_ line: ContentLine) throws(CalendarReadError.Place) {
        guard !line.isBlank else { return }
        lastLine = line.number
        let isBegin = line.starts(with: "BEGIN")
        let isEnd = !isBegin && line.starts(with: "END")
        if isBegin {
            components += 1
            guard components <= CalendarLimits.componentsPerFile else {
                throw CalendarReadError.Place(line: line.number, reason: "more than \(CalendarLimits.componentsPerFile) components (BEGIN lines); the file is not read")
            }
        }
        let component = isBegin || isEnd ? line.value : ""
        if open.isEmpty {
            outside(line, isBegin: isBegin, isEnd: isEnd, component: component)
            return
        }
        if let broken = skipping {
            let resumes = (isBegin && (Self.calendarComponents.contains(component) || component == "VCALENDAR"))
                || (isEnd && component == "VCALENDAR")
            if isEnd && component == broken { skipping = nil }
            guard resumes else { return }
            skipping = nil
        }
        if isBegin && component == "VCALENDAR" {
            restart(at: line)
        } else if open.count == 1 {
            try inCalendar(line, isBegin: isBegin, isEnd: isEnd, component: component)
        } else {
            try inComponent(line, isBegin: isBegin, isEnd: isEnd, component: component)
        }
    }

    /// A line before the first VCALENDAR or after one ended.
    private mutating func outside(_ line: ContentLine, isBegin: Bool, isEnd: Bool, component: String) {
        if isBegin && component == "VCALENDAR" {
            inStrayRun = false
            open.append((component, line.number))
            give(line)
            return
        }
        guard !inStrayRun else { return }
        inStrayRun = true
        let reason = isBegin ? "BEGIN:\(SafeName.short(component)) where BEGIN:VCALENDAR was expected"
            : isEnd ? "END:\(SafeName.short(component)) with nothing open"
            : "text outside BEGIN:VCALENDAR … END:VCALENDAR"
        report(line.number, reason, "it and the lines after it up to the next BEGIN:VCALENDAR are left out")
    }

    /// A line directly inside a VCALENDAR: one of its properties, the start of a component,
    /// its END.
    private mutating func inCalendar(_ line: ContentLine, isBegin: Bool, isEnd: Bool, component: String) throws(CalendarReadError.Place) {
        if isBegin {
            open.append((component, line.number))
            pending.clear()
            pending.append(line, watched: false)
        } else if isEnd && component == "VCALENDAR" {
            open.removeLast()
            give(line)
        } else if isEnd {
            report(line.number, "END:\(SafeName.short(component)) where END:VCALENDAR (for line \(open[0].line)) was expected", "the line is left out")
        } else {
            give(line)
        }
    }

    /// A line inside a component of the VCALENDAR (or deeper).
    private mutating func inComponent(_ line: ContentLine, isBegin: Bool, isEnd: Bool, component: String) throws(CalendarReadError.Place) {
        let child = open[1]
        if isBegin && Self.calendarComponents.contains(component) {
            // Nothing nests these: the one open has lost its END.
            leaveOut(child, line.number, "BEGIN:\(SafeName.short(component)) inside the \(SafeName.short(child.name)) of line \(child.line), which has no END:\(SafeName.short(child.name))")
            try inCalendar(line, isBegin: isBegin, isEnd: isEnd, component: component)
        } else if isBegin {
            guard open.count < CalendarLimits.componentDepth else {
                throw CalendarReadError.Place(line: line.number, reason: "components nested more than \(CalendarLimits.componentDepth) deep")
            }
            open.append((component, line.number))
            pending.append(line, watched: false)
        } else if isEnd, let innermost = open.last, innermost.name != component {
            leaveOut(child, line.number, "END:\(SafeName.short(component)) where END:\(SafeName.short(innermost.name)) (for line \(innermost.line)) was expected")
            if component == "VCALENDAR" {
                open.removeLast()
                give(line)
            } else if component != child.name {
                skipping = child.name
            }
        } else if isEnd {
            open.removeLast()
            pending.append(line, watched: false)
            if open.count == 1 { giveComponent(named: child.name) }
        } else if open.count == 2 && child.name == "VEVENT" {
            pending.append(OwnRule.renamed(line), watched: true)
        } else if open.count == 3 && child.name == "VTIMEZONE" {
            pending.append(OwnRule.renamed(line), watched: false)  // a STANDARD's or DAYLIGHT's own line
        } else {
            pending.append(line, watched: false)
        }
    }

    /// A BEGIN:VCALENDAR inside one: the one open has lost its END; it ends here.
    private mutating func restart(at line: ContentLine) {
        let calendar = open[0]
        if open.count > 1 {
            leaveOut(open[1], line.number, "BEGIN:VCALENDAR inside the \(SafeName.short(open[1].name)) of line \(open[1].line), which has no END:\(SafeName.short(open[1].name))")
        } else {
            report(line.number, "BEGIN:VCALENDAR inside the VCALENDAR of line \(calendar.line), which has no END:VCALENDAR", "that one is ended here")
        }
        endCalendar()
        open.append(("VCALENDAR", line.number))
        give(line)
    }

    /// The end of the text: what is still open is left out, or ended for it.
    private mutating func finish() throws(CalendarReadError.Place) {
        if open.count > 1, let innermost = open.last {
            leaveOut(open[1], lastLine, "the text ends inside BEGIN:\(SafeName.short(innermost.name)) of line \(innermost.line)")
        } else if open.count == 1, skipping == nil {
            report(lastLine, "the text ends inside BEGIN:VCALENDAR of line \(open[0].line)", "what it holds is read")
        }
        if !open.isEmpty { endCalendar() }
        if let first = result.structure.first, result.events == 0 {
            throw CalendarReadError.Place(line: first.line, reason: first.reason)
        }
        guard !result.roots.isEmpty else { throw CalendarReadError.Place(line: nil, reason: "no BEGIN:VCALENDAR: not iCalendar data") }
    }

    /// Ends the open VCALENDAR for libical (what is open inside it is already left out).
    private mutating func endCalendar() {
        open.removeAll()
        skipping = nil
        give(ContentLine(number: lastLine ?? 0, bytes: Array("END:VCALENDAR\u{0}".utf8)))
    }

    /// Drops the component `child` of the calendar (and what is open inside it).
    private mutating func leaveOut(_ child: (name: String, line: Int), _ line: Int?, _ reason: String) {
        report(line, reason, "the \(SafeName.short(child.name)) of line \(child.line) is left out")
        pending.clear()
        open.removeSubrange(1...)
    }

    private mutating func report(_ line: Int?, _ reason: String, _ consequence: String) {
        result.structure.append(StructureProblem(line: line, reason: reason, consequence: consequence))
    }

    /// One line to libical.
    private mutating func give(_ line: ContentLine) {
        let parser = parser
        var bytes = line.bytes
        let finished = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { icalparser_add_line(parser, $0.baseAddress) }
        }
        if let finished { result.roots.append(finished) }
    }

    /// The component just ended, whole, to libical, noting which of a VEVENT's lines it
    /// could not read.
    private mutating func giveComponent(named name: String) {
        let ordinal = result.events
        if name == "VEVENT" { result.events += 1 }
        var unread: [Int] = []
        var finished: [OpaquePointer] = []
        let lines = pending.lines
        let parser = parser
        pending.bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                for (index, entry) in lines.enumerated() {
                    if let root = icalparser_add_line(parser, text.baseAddress! + entry.start) { finished.append(root) }
                    if entry.watched && icalparser_get_state(parser) == ICALPARSER_ERROR { unread.append(index) }
                }
            }
        }
        result.roots += finished
        for index in unread {
            let entry = lines[index]
            let text = pending.bytes[entry.start..<entry.end]
            result.unreadLines[ordinal, default: []].append(
                UnreadLine(line: entry.number, property: ContentLine.name(of: text), isEmpty: ContentLine.hasEmptyValue(text)))
        }
        pending.clear()
    }
}

/// The lines of the component being read, kept until its END: one buffer for all of them,
/// each line NUL-terminated for libical.
private struct PendingComponent {
    var bytes: [UInt8] = []
    /// Where each line is in `bytes` (its NUL at `end`), its number, and whether libical's
    /// verdict on it is wanted (a property of a VEVENT).
    var lines: [(start: Int, end: Int, number: Int, watched: Bool)] = []

    mutating func append(_ line: ContentLine, watched: Bool) {
        let start = bytes.count
        bytes += line.bytes
        lines.append((start, bytes.count - 1, line.number, watched))
    }

    mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }
}
