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

    /// A row's arguments, read as its row says (`RequestDescriptor.reading`).
    /// - Parameter command: the first word as typed, lowercased; an option's value is in it.
    private static func request(_ kind: RequestKind, arguments: [String], command: String, quoted: [Int] = []) throws(ProtocolError) -> Request {
        switch kind.descriptor.reading {
        case .nothing:
            guard arguments.isEmpty else { throw ProtocolError(.badArgument, "\(kind.descriptor.words) takes no arguments") }
            return .plain(kind)
        case .words(let read):
            return try read(RequestWords(kind: kind, words: arguments, quoted: quoted, command: command))
        }
    }

    /// The most requests one `blocks` takes.
    public static let maxBlocks = 16

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

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Echoing user text in an error: keep it short and on one line.
    package static func shorten(_ text: String) -> String {
        // Most texts are short and printable: as they are, without building them anew.
        if text.utf8.count <= 40, !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return text }
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
    }
}
