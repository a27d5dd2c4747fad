/// A watched bar line (`watch --format=i3bar blocks ...`) whose blocks are all clocks,
/// compiled once for the ticks that follow: the bytes that stay (each block's keys, its
/// instance, a zone's label) are kept as they are, and a tick only formats each clock's
/// time between them. A bar ticks every second all day; its tick then runs the clock's
/// fields and little else (docs/benchmarks.md, "A bar clock").
///
/// The line is byte for byte the one `Responder.answer` gives for the request
/// (WatchedLineTests holds the two together). Where a clock's text needs escaping (`'`, `&`)
/// or `SafeText`'s attention, or is empty, `render` says nil and the caller answers the
/// ordinary way, which escapes it or says what is wrong. The watch hub compiles its lines
/// again whenever settings or rooms change (`WatchHub.refresh`).
public final class WatchedLine {
    /// One clock: a read LDML pattern in a zone, in the configured language, and the bytes
    /// that follow it. A class: a tick reads it in place, where a struct of this size would
    /// be copied out of the array first.
    final class Clock {
        let pattern: LDMLPattern
        let zone: ZoneInfo
        let zoneIdentifier: String?
        let language: LDMLLanguage
        let after: [UInt8]

        init(_ field: Field, after: [UInt8]) {
            (pattern, zone, zoneIdentifier, language) = (field.pattern, field.zone, field.zoneIdentifier, field.language)
            self.after = after
        }
    }

    /// What a clock formats, as read from its block.
    struct Field {
        let pattern: LDMLPattern
        let zone: ZoneInfo
        let zoneIdentifier: String?
        let language: LDMLLanguage
    }

    /// The bytes before the first clock, then each clock with the bytes after it (the last
    /// ends with the line's `]` and LF).
    let head: [UInt8]
    let clocks: [Clock]
    private let size: Int

    init(head: [UInt8], clocks: [Clock]) {
        self.head = head
        self.clocks = clocks
        // Room for the fixed bytes and a date and time in each clock.
        size = clocks.reduce(head.count) { $0 + $1.after.count + 32 }
    }

    /// The line at `now`; nil when a clock's text needs what only the ordinary answer does.
    public func render(at now: Instant) -> Reply? {
        var bytes = head
        bytes.reserveCapacity(size)
        for clock in clocks {
            let start = bytes.count
            LDMLRenderer.render(clock.pattern, instant: now.unixSeconds, nanoseconds: now.nanosecondsPastUnixSeconds,
                                zone: clock.zone, zoneIdentifier: clock.zoneIdentifier, language: clock.language, into: &bytes)
            guard bytes.count > start, Self.isPlain(bytes[start...]) else { return nil }
            bytes += clock.after
        }
        return Reply(bytes: bytes, isError: false)
    }

    /// Text that neither JSON, Pango nor `SafeText` changes: no control character, none of
    /// JSON's and Pango's escaped characters, and nothing `SafeText.visible` replaces or
    /// removes (judged by `visible` itself where there is more than ASCII: 十二月, 星期一, the
    /// narrow no-break space of en's `h:mm a`). Between the fixed pieces' ASCII ends, such a
    /// text is written as it is, as the ordinary answer writes it.
    static func isPlain(_ bytes: ArraySlice<UInt8>) -> Bool {
        var ascii = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "'"),
                 0..<0x20, 0x7F:
                return false
            case 0x80...: ascii = false
            default: continue
            }
        }
        if ascii { return true }
        let text = String(decoding: bytes, as: UTF8.self)
        return SafeText.visible(text) == text
    }
}

extension Responder {
    /// The request compiled for its watch's ticks, when it is a bar line of clocks only (LDML
    /// patterns; `%` formats and other blocks are answered the ordinary way); nil else.
    public func watchedLine(_ request: Request) -> WatchedLine? {
        var request = request
        if case .watch(let inner) = request { request = inner }
        guard case .formatted(.i3bar, .blocks(let parts)) = request, !parts.isEmpty else { return nil }
        // The line as `blocks` writes it, each clock's text left out: the text between two
        // clocks (the end of one block, a comma, the start of the next) is one fixed piece.
        var fixed = ["["]
        var fields: [WatchedLine.Field] = []
        for (index, part) in parts.enumerated() {
            guard let field = watchedField(part) else { return nil }
            let block = OutputFormat.i3barBlock(Answer("", state: "time"), instance: "\(index)-\(part.commandWord)",
                                                label: zoneLabel(part), pangoMarkup: settings.i3barPango)
            let (head, tail) = block.encodedAroundFullTextEnd
            fixed[fixed.count - 1] += (index > 0 ? "," : "") + head
            fixed.append(tail)
            fields.append(field)
        }
        fixed[fixed.count - 1] += "]"
        // As `Reply.line` makes the whole line visible-safe; each piece is bounded by ASCII.
        var pieces = fixed.map { Array(SafeText.visible($0).utf8) }
        pieces[pieces.count - 1].append(0x0A)
        return WatchedLine(head: pieces[0], clocks: zip(fields, pieces.dropFirst()).map { WatchedLine.Clock($0, after: $1) })
    }

    /// A `time PATTERN` block (in the configured zone, or `@ZONE`'s) with an LDML pattern that
    /// reads; nil for anything else, which the ordinary answer renders or refuses.
    private func watchedField(_ part: Request) -> WatchedLine.Field? {
        let zone: Zone, pattern: String?
        switch part {
        case .text(.time, let text): (zone, pattern) = (settings.zone, text)
        case .zoned(let spec, .text(.time, let text)):
            guard let place = try? place(spec) else { return nil }  // not compiled: the ordinary answer says what is wrong
            (zone, pattern) = (place.zone, text)
        default: return nil
        }
        let ldml = pattern ?? settings.timeFormat
        guard !ldml.utf8.contains(UInt8(ascii: "%")), case .success(let read) = formatters.pattern(ldml) else { return nil }
        return WatchedLine.Field(pattern: read, zone: zone.info(), zoneIdentifier: zone.tzName, language: settings.language.ldml)
    }
}
