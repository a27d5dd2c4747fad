import ZaoanText

/// Turns one request line (without its LF) into a `Request`.
///
/// Words are separated by spaces or tabs; "double quotes" group words, and inside quotes
/// `\"` and `\\` stand for `"` and `\`. Command words are case-insensitive. Arguments that
/// span several words (a city, a pattern, a time) are the words joined by one space; quote
/// them to keep other spacing.
public enum RequestParser {
    /// - Returns: the request, or nil for a blank line (which gets no answer).
    public static func parse(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> Request? {
        var isASCII = true
        for byte in line where byte >= 0x80 {
            isASCII = false
            break
        }
        if !isASCII && String(validating: line, as: UTF8.self) == nil {
            throw ProtocolError(.badEncoding, "the request is not valid UTF-8; send text encoded as UTF-8")
        }
        var start = 0
        while start < line.count, isBlank(line[start]) { start += 1 }
        guard start < line.count else { return nil }
        var end = start
        while end < line.count, !isBlank(line[end]) { end += 1 }
        let commandBytes = UnsafeRawBufferPointer(rebasing: line[start..<end])
        let rest = UnsafeRawBufferPointer(rebasing: line[end..<line.count])
        if commandBytes.contains(UInt8(ascii: "\"")) {
            // Rare: a quoted command word. Take the general path.
            var quoted: [Int] = []
            let words = try self.words(line, quoted: &quoted)
            guard let first = words.first else { return nil }
            return try request(command: first.lowercased(), arguments: Array(words.dropFirst()), quoted: quoted.map { $0 - 1 })
        }
        var quoted: [Int] = []
        let arguments = rest.allSatisfy(isBlank) ? [] : try words(rest, quoted: &quoted)
        let (command, key) = lowercasedASCII(commandBytes)
        return try request(command: command, key: key, arguments: arguments, quoted: quoted)
    }

    /// The command word with ASCII letters lowercased; short words stay in a small String,
    /// with no allocation on the request path. With it, the word packed for `CommandWord.find`
    /// from the bytes just written, cheaper than reading them back out of the String.
    private static func lowercasedASCII(_ bytes: UnsafeRawBufferPointer) -> (word: String, key: PackedWord) {
        var key = PackedWord()
        let word = String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index] = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            }
            key = PackedWord(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<bytes.count]))
            return bytes.count
        }
        return (word, key)
    }

    /// Convenience for tests and the CLI.
    public static func parse(_ line: String) throws(ProtocolError) -> Request? {
        let bytes = Array(line.utf8)
        let result: Result<Request?, ProtocolError> = bytes.withUnsafeBytes { raw in
            do throws(ProtocolError) { return .success(try parse(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Finds the row the words name in the table (`CommandWord`), then reads its arguments.
    /// - Parameter key: `command` packed, when the caller has it at hand.
    /// - Parameter quoted: which arguments began with a quote (`live add` keeps a quoted
    ///   `key=value` word in the title).
    static func request(command: String, key: PackedWord? = nil, arguments: [String], quoted: [Int] = []) throws(ProtocolError) -> Request {
        guard let word = CommandWord.find(key ?? PackedWord(command)) else {
            let hint = suggestion(for: command).map { " (did you mean '\($0)'?)" } ?? ""
            throw ProtocolError(.unknownCommand, "unknown command '\(shorten(command))'\(hint); send help for the list")
        }
        let group = word.group.map { CommandWord.groups[$0] }
        if let group, let second = arguments.first, let kind = group.row(second.lowercased()) {
            return try request(kind, arguments: Array(arguments.dropFirst()), command: command, quoted: quoted.map { $0 - 1 })
        }
        guard let kind = word.row else {
            // A word that only leads others (`live`), without one of them after it.
            let listed = CommandWord.secondWords(after: command)
            guard let second = arguments.first else {
                throw ProtocolError(.badArgument, "\(command) needs \(listed); send help")
            }
            let hint = Spelling.suggestion(for: second.lowercased(), among: CommandWord.secondWordList(after: command))
                .map { "; did you mean '\(command) \($0)'?" } ?? ""
            throw ProtocolError(.unknownCommand, "unknown \(command) command '\(shorten(second.lowercased()))'; use \(command) \(listed)\(hint)")
        }
        return try request(kind, arguments: arguments, command: command, quoted: quoted)
    }

    /// The request a mistyped first word most likely meant, as it is typed: `greting` →
    /// `greeting`, `add` → `live add` (a word that only follows another), `--fromat` →
    /// `--format=`. Nil when nothing is close (`Spelling`).
    public static func suggestion(for command: String) -> String? {
        let word = command.lowercased()
        if let option = word.firstIndex(of: "="), word.hasPrefix("-") {
            return suggestion(for: String(word[..<option])).map { $0.hasSuffix("=") ? $0 + word[word.index(after: option)...] : $0 }
        }
        if let leading = CommandWord.firstWord(leading: word) { return "\(leading) \(word)" }
        return Spelling.suggestion(for: word, among: CommandWord.firstWordList)
    }

    /// A row's arguments: one case per kind, so a new row does not compile without them.
    /// - Parameter command: the first word as typed, lowercased; an option's value is in it.
    private static func request(_ kind: RequestKind, arguments: [String], command: String, quoted: [Int] = []) throws(ProtocolError) -> Request {
        let joined = arguments.isEmpty ? nil : arguments.joined(separator: " ")
        switch kind {
        case .greeting:
            // `greeting @Tokyo` is `greeting Tokyo`: a city or a zone either way.
            if arguments.count == 1, let zone = try zoneWord(arguments[0]) { return .greeting(city: zone) }
            return .greeting(city: joined)
        case .time, .chineseTime:
            return try time(arguments)
        case .ago:
            guard let joined else { throw ProtocolError(.badArgument, "ago needs a TIME, e.g. ago 2026-12-01T08:00+08:00") }
            return .ago(joined)
        case .duration:
            guard arguments.count == 1 else {
                throw ProtocolError(.badArgument, "duration needs one argument, a number of seconds, e.g. duration 125")
            }
            return .duration(arguments[0])
        case .ping: try noArguments(kind, arguments); return .ping
        case .version: try noArguments(kind, arguments); return .version
        case .help: try noArguments(kind, arguments); return .help
        case .session: try noArguments(kind, arguments); return .session
        case .quit: try noArguments(kind, arguments); return .quit
        case .reload: try noArguments(kind, arguments); return .reload
        case .stats: try noArguments(kind, arguments); return .stats
        case .countdown:
            guard arguments.count <= 1 else { throw ProtocolError(.badArgument, "countdown takes at most one room ID") }
            return .countdown(id: arguments.first)
        case .ticker:
            guard arguments.count <= 1 else { throw ProtocolError(.badArgument, "ticker takes at most one number, SKIP") }
            guard let skip = arguments.isEmpty ? 0 : Int(arguments[0]), skip >= 0, skip < 1_000_000 else {
                throw ProtocolError(.badArgument, "ticker SKIP must be a whole number from 0, e.g. ticker 1 for the next room")
            }
            return .ticker(skip: skip)
        case .status:
            if arguments.count == 1, let zone = try zoneWord(arguments[0]) { return .zoned(zone, .status) }
            try noArguments(kind, arguments)
            return .status
        case .liveAdd: return .liveAdd(try LiveCommandParser.draft(arguments, quoted: Set(quoted)))
        case .liveRemove: return .liveRemove(id: try LiveCommandParser.singleID(arguments, of: kind))
        case .liveSkip:
            guard arguments.count == 2 else { throw ProtocolError(.badArgument, "usage: \(kind.descriptor.usage)") }
            try LiveCommandParser.checkID(arguments[0])
            guard RoomLimits.isDate(arguments[1]) else {
                throw ProtocolError(.badArgument, "'\(shorten(arguments[1]))' is not a date; write it as 2026-12-24")
            }
            return .liveSkip(id: arguments[0], date: arguments[1])
        case .liveList: try noArguments(kind, arguments); return .liveList
        case .liveShow:
            // A calendar event by the ID `watch events` gives it, `calendar:` and its UID.
            if arguments.count == 1, arguments[0].hasPrefix(Request.calendarEventPrefix) {
                let id = arguments[0]
                guard id.utf8.count > Request.calendarEventPrefix.utf8.count, id.utf8.count <= Request.maxCalendarEventIDBytes else {
                    throw ProtocolError(.badArgument, "a calendar event's ID is calendar: and its UID, at most \(Request.maxCalendarEventIDBytes) bytes, as watch events gives it")
                }
                return .liveShow(id: id)
            }
            return .liveShow(id: try LiveCommandParser.singleID(arguments, of: kind))
        case .watchEvents: try noArguments(kind, arguments); return .watchEvents
        case .url:
            guard let first = arguments.first else { throw ProtocolError(.badArgument, "usage: url \(kind.descriptor.arguments)") }
            let inner = try request(command: first.lowercased(), arguments: Array(arguments.dropFirst()))
            switch inner {
            case .countdown, .ticker, .status: return .url(inner)
            default: throw ProtocolError(.badArgument, "url takes countdown, ticker or status, the requests that show a room or event")
            }
        case .schedule:
            return try schedule(arguments)
        case .blocks: return try blocks(arguments)
        case .format:
            // The value follows the option's word and its `=`.
            let value = Substring(command.utf8.dropFirst(kind.descriptor.words.utf8.count + 1))
            return try formatted(String(value), arguments)
        case .watch:
            guard let first = arguments.first else {
                throw ProtocolError(.badArgument, "watch needs a request, e.g. watch countdown or watch time HH:mm:ss")
            }
            if arguments.count == 2, arguments[1].lowercased() == "events", first.lowercased().hasPrefix("--format=") {
                // `watch events` is JSON lines already: --format=json is allowed, no other.
                guard first.lowercased() == "--format=json" else {
                    throw ProtocolError(.badArgument, "watch events streams JSON lines only; leave out \(shorten(first))")
                }
                return .watchEvents
            }
            let inner = try request(command: first.lowercased(), arguments: Array(arguments.dropFirst()))
            guard inner.isWatchable else {
                throw ProtocolError(.notWatchable, "'\(shorten(first))' cannot be watched; watch greeting, time, countdown, ticker, stats, live list ...")
            }
            return .watch(inner)
        }
    }

    /// `time [PATTERN] [@ZONE]`, and `time PATTERN calendar=chinese`.
    private static func time(_ arguments: [String]) throws(ProtocolError) -> Request {
        var words = arguments
        var zone: String?
        if let last = words.last, let name = try zoneWord(last) {
            zone = name
            words.removeLast()
        }
        let chinese = words.contains { $0.lowercased() == "calendar=chinese" }
        words.removeAll { $0.lowercased() == "calendar=chinese" }
        let pattern = words.isEmpty ? nil : words.joined(separator: " ")
        if chinese, let pattern, pattern.utf8.contains(UInt8(ascii: "%")) {
            throw ProtocolError(.badArgument, "calendar=chinese takes an LDML pattern such as U年MMMd or r年MMMd, not strftime")
        }
        let time: Request = chinese ? .chineseTime(pattern: pattern) : .time(pattern: pattern)
        return zone.map { .zoned($0, time) } ?? time
    }

    /// `schedule [HOURS] [calendar=NAME]`: NAME is the rest of the words, joined by a space
    /// (quote it to keep other spacing), compared without regard to case by the Responder.
    private static func schedule(_ arguments: [String]) throws(ProtocolError) -> Request {
        var words = arguments[...]
        var hours = Request.defaultScheduleHours
        if let first = words.first, !first.lowercased().hasPrefix(Request.scheduleCalendarPrefix) {
            guard let number = Int(first), (1...Request.maxScheduleHours).contains(number) else {
                throw ProtocolError(.badArgument, "schedule HOURS must be a whole number from 1 to \(Request.maxScheduleHours), e.g. schedule 24")
            }
            hours = number
            words = words.dropFirst()
        }
        guard let first = words.first else { return .schedule(hours: hours, calendar: nil) }
        guard first.lowercased().hasPrefix(Request.scheduleCalendarPrefix) else {
            throw ProtocolError(.badArgument, "schedule takes HOURS and calendar=NAME, e.g. schedule 24 calendar=Work")
        }
        let name = ([String(first.dropFirst(Request.scheduleCalendarPrefix.count))] + words.dropFirst()).joined(separator: " ")
        guard !name.isEmpty else {
            throw ProtocolError(.badArgument, "calendar= needs a calendar's name, e.g. schedule 24 calendar=Work (quote a name with spaces)")
        }
        guard name.utf8.count <= CalendarNameRule.maxBytes else {
            throw ProtocolError(.badArgument, "a calendar's name is at most \(CalendarNameRule.maxBytes) bytes; no calendar has '\(shorten(name))'")
        }
        return .schedule(hours: hours, calendar: name)
    }

    /// `--format=FMT REQUEST...`; `--format=json watch X` means `watch --format=json X`.
    private static func formatted(_ name: String, _ arguments: [String]) throws(ProtocolError) -> Request {
        guard let format = OutputFormat(rawValue: name.lowercased()) else {
            throw ProtocolError(.badArgument, "unknown format '\(shorten(name))'; use --format= with \(OutputFormat.names)")
        }
        guard let first = arguments.first else {
            throw ProtocolError(.badArgument, "--format=\(format.rawValue) needs a request after it, e.g. --format=\(format.rawValue) greeting")
        }
        let inner = try request(command: first.lowercased(), arguments: Array(arguments.dropFirst()))
        switch inner {
        case .watch(let watched):
            return .watch(.formatted(format, watched))
        case .formatted:
            throw ProtocolError(.badArgument, "give --format once")
        case _ where inner.kind.descriptor.effect != .readsOnly:
            throw ProtocolError(.badArgument, "\(inner.commandWord) has no formats; send it without --format")
        default:
            return format == .plain ? inner : .formatted(format, inner)
        }
    }

    /// The most requests one `blocks` takes.
    public static let maxBlocks = 16

    /// `blocks REQUEST ; REQUEST ...`: each part a watchable request without a format of
    /// its own. A word that is `;` (quoted or not) always separates parts.
    private static func blocks(_ arguments: [String]) throws(ProtocolError) -> Request {
        var parts: [Request] = []
        var current: [String] = []
        func finish() throws(ProtocolError) {
            guard let first = current.first else {
                throw ProtocolError(.badArgument, "blocks needs requests separated by ' ; ', e.g. blocks ticker ; time HH:mm:ss")
            }
            let part = try request(command: first.lowercased(), arguments: Array(current.dropFirst()))
            switch part {
            case .blocks, .watch, .formatted, .stats:
                throw ProtocolError(.badArgument, "a part of blocks is a plain request (not stats), without blocks, watch or --format")
            default:
                guard part.isWatchable, !part.isRoomChange else {
                    throw ProtocolError(.badArgument, "'\(shorten(first))' cannot be a block; use greeting, time, countdown, ticker, status ...")
                }
            }
            parts.append(part)
            guard parts.count <= maxBlocks else {
                throw ProtocolError(.badArgument, "blocks takes at most \(maxBlocks) requests")
            }
            current.removeAll()
        }
        for word in arguments {
            if word == ";" { try finish() } else { current.append(word) }
        }
        try finish()
        return .blocks(parts)
    }

    /// Splits on blanks, grouping "quoted words".
    public static func words(_ text: String) throws(ProtocolError) -> [String] {
        let bytes = Array(text.utf8)
        let result: Result<[String], ProtocolError> = bytes.withUnsafeBytes { raw in
            do throws(ProtocolError) { return .success(try words(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Splits UTF-8 bytes on blanks, grouping "quoted words". Works on bytes: a quote, a
    /// backslash and the blanks are ASCII, so they never occur inside a multi-byte character.
    static func words(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> [String] {
        var quoted: [Int] = []
        return try words(bytes, quoted: &quoted)
    }

    /// The same, noting in `quoted` the index of each word that began with a quote (no
    /// allocation for a line without quotes).
    static func words(_ bytes: UnsafeRawBufferPointer, quoted: inout [Int]) throws(ProtocolError) -> [String] {
        var words: [String] = []
        var startedQuoted = false
        var current: [UInt8] = []
        var inWord = false
        var inQuotes = false
        var escaped = false
        for byte in bytes {
            if inQuotes {
                if escaped {
                    current.append(byte)
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                } else {
                    current.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                if !inWord { startedQuoted = true }
                inQuotes = true
                inWord = true
            } else if isBlank(byte) {
                if inWord {
                    if startedQuoted { quoted.append(words.count) }
                    words.append(String(decoding: current, as: UTF8.self))
                }
                current.removeAll(keepingCapacity: true)
                inWord = false
                startedQuoted = false
            } else {
                current.append(byte)
                inWord = true
            }
        }
        if inQuotes {
            throw ProtocolError(.badArgument, "unterminated quote; close every \" you open")
        }
        if inWord {
            if startedQuoted { quoted.append(words.count) }
            words.append(String(decoding: current, as: UTF8.self))
        }
        return words
    }

    /// The longest zone or city name after `@`.
    public static let maxZoneNameBytes = 64

    /// `@Asia/Tokyo` → `Asia/Tokyo`; nil for a word that does not start with `@` or is `@`
    /// alone (a pattern may still show a literal `@`).
    static func zoneWord(_ word: String) throws(ProtocolError) -> String? {
        guard word.utf8.first == UInt8(ascii: "@"), word.utf8.count > 1 else { return nil }
        let name = String(word.dropFirst())
        guard name.utf8.count <= maxZoneNameBytes else {
            throw ProtocolError(.badArgument, "the zone '@\(shorten(name))' is longer than \(maxZoneNameBytes) bytes; name an IANA zone such as @Asia/Tokyo or a city such as @东京")
        }
        return name
    }

    private static func noArguments(_ kind: RequestKind, _ arguments: [String]) throws(ProtocolError) {
        guard arguments.isEmpty else {
            throw ProtocolError(.badArgument, "\(kind.descriptor.words) takes no arguments")
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Echoing user text in an error: keep it short and on one line.
    package static func shorten(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
    }
}
