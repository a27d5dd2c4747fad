import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Parses raw bytes, the way the connection hands a line to the parser.
private func parse(bytes: [UInt8]) throws(ProtocolError) -> Request? {
    let result: Result<Request?, ProtocolError> = bytes.withUnsafeBytes { raw in
        do throws(ProtocolError) { return .success(try RequestParser.parse(raw)) } catch { return .failure(error) }
    }
    return try result.get()
}

@Suite struct RequestParserTests {
    @Test(arguments: [
        ("greeting", Request.greeting(city: nil)),
        ("greeting 东京", .greeting(city: "东京")),
        ("greeting New York", .greeting(city: "New York")),
        ("greeting   New    York  ", .greeting(city: "New York")),
        ("greeting \"New York\"", .greeting(city: "New York")),
        ("greeting \"New  York\"", .greeting(city: "New  York")),
        ("greeting\t\"Los Angeles\"\t", .greeting(city: "Los Angeles")),
        ("greeting \"say \\\"hi\\\"\"", .greeting(city: "say \"hi\"")),
        ("greeting \"back\\\\slash\"", .greeting(city: "back\\slash")),
        ("greeting New\" \"York", .greeting(city: "New York")),
        ("greeting \"\"", .greeting(city: "")),
        ("time", .time(pattern: nil)),
        ("time %H:%M", .time(pattern: "%H:%M")),
        ("time yyyy-MM-dd HH:mm:ss", .time(pattern: "yyyy-MM-dd HH:mm:ss")),
        ("time \"HH 'h' mm\"", .time(pattern: "HH 'h' mm")),
        ("time EEEE", .time(pattern: "EEEE")),
        ("ago +5m", .ago("+5m")),
        ("ago 2026-12-01 20:00", .ago("2026-12-01 20:00")),
        ("ago @1764590400", .ago("@1764590400")),
        ("duration 125", .duration("125")),
        ("duration abc", .duration("abc")),  // checked when answered, not when parsed
        ("ping", .ping),
        ("version", .version),
        ("help", .help),
        ("session", .session),
        ("quit", .quit),
        ("reload", .reload),
        ("stats", .stats),
    ])
    func commands(line: String, expected: Request) throws {
        #expect(try RequestParser.parse(line) == expected)
        #expect(try parse(bytes: Array(line.utf8)) == expected)
    }

    @Test(arguments: [
        ("PING", Request.ping),
        ("Ping", .ping),
        ("GREETING Tokyo", .greeting(city: "Tokyo")),
        ("Time HH:mm", .time(pattern: "HH:mm")),
        ("DuRaTiOn 5", .duration("5")),
        ("STATS", .stats),
        ("  ping", .ping),
        ("\tping\t ", .ping),
        ("\"ping\"", .ping),
        ("\"GREETING\" Tokyo", .greeting(city: "Tokyo")),
    ])
    func commandWordsAreCaseInsensitiveAndMayBePaddedOrQuoted(line: String, expected: Request) throws {
        #expect(try RequestParser.parse(line) == expected)
    }

    /// Argument text keeps its case: only the command word is folded.
    @Test func argumentsKeepTheirCase() throws {
        #expect(try RequestParser.parse("GREETING NEW YORK") == .greeting(city: "NEW YORK"))
        #expect(try RequestParser.parse("time HH:mm") != .time(pattern: "hh:mm"))
    }

    @Test(arguments: ["", " ", "   ", "\t", " \t \t"])
    func blankLineIsNoRequest(line: String) throws {
        #expect(try RequestParser.parse(line) == nil)
    }

    @Test(arguments: [
        ("greeting \"New York", ProtocolError.Code.badArgument, "unterminated quote"),
        ("time \"HH:mm", .badArgument, "unterminated quote"),
        ("greeting \"a \\\" b", .badArgument, "unterminated quote"),  // the escaped quote does not close
        ("\"ping", .badArgument, "unterminated quote"),
        ("frobnicate", .unknownCommand, "unknown command 'frobnicate'"),
        ("pingg", .unknownCommand, "unknown command 'pingg'"),
        ("ping now", .badArgument, "ping takes no arguments"),
        ("version 2", .badArgument, "version takes no arguments"),
        ("help greeting", .badArgument, "help takes no arguments"),
        ("session x", .badArgument, "session takes no arguments"),
        ("quit now", .badArgument, "quit takes no arguments"),
        ("reload config.json", .badArgument, "reload takes no arguments"),
        ("stats all", .badArgument, "stats takes no arguments"),
        ("ping \"\"", .badArgument, "ping takes no arguments"),
        ("ago", .badArgument, "ago needs a TIME"),
        ("ago   ", .badArgument, "ago needs a TIME"),
        ("duration", .badArgument, "duration needs one argument"),
        ("duration 1 2", .badArgument, "duration needs one argument"),
    ])
    func errors(line: String, code: ProtocolError.Code, message: String) {
        let error = protocolError { () throws(ProtocolError) in try RequestParser.parse(line) }
        #expect(error?.code == code)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func unknownCommandIsEchoedShortAndOnOneLine() {
        let long = String(repeating: "x", count: 100)
        let error = protocolError { () throws(ProtocolError) in try RequestParser.parse(long) }
        #expect(error?.code == .unknownCommand)
        #expect(error?.message.contains("'" + String(repeating: "x", count: 40) + "…'") == true)
        #expect(error?.message.contains(String(repeating: "x", count: 41)) == false)

        let control = protocolError { () throws(ProtocolError) in try parse(bytes: Array("bad\u{1B}[2Jcmd".utf8)) }
        #expect(control?.message.contains("'bad?[2jcmd'") == true, "\(String(describing: control))")
        #expect(control?.description.contains("\u{1B}") == false)
    }

    @Test(arguments: [
        [0xFF],
        Array("greeting ".utf8) + [0xFF],
        Array("greeting ".utf8) + [0xC0, 0x80],              // overlong NUL
        Array("greeting ".utf8) + [0xE6, 0x97],              // 早 cut short
        Array("greeting ".utf8) + [0x80],                    // lone continuation byte
        Array("greeting ".utf8) + [0xED, 0xA0, 0x80],        // a UTF-16 surrogate
        Array("greeting ".utf8) + [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
        [0xE6, 0x97, 0xA9, 0xE5],                            // 早 then a stray lead byte
        Array("\"ping".utf8) + [0xFE],                       // bad before the quote check
    ] as [[UInt8]])
    func badUTF8(bytes: [UInt8]) {
        let error = protocolError { () throws(ProtocolError) in try parse(bytes: bytes) }
        #expect(error?.code == .badEncoding)
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        #expect(try parse(bytes: Array("greeting 东京".utf8)) == .greeting(city: "东京"))
        #expect(try parse(bytes: [0x67, 0x72, 0x65, 0x65, 0x74, 0x69, 0x6E, 0x67, 0x20, 0xF0, 0x9F, 0x8C, 0x85]) == .greeting(city: "🌅"))
    }

    @Test(arguments: [
        ("a b  c", ["a", "b", "c"]),
        ("\"a b\" c", ["a b", "c"]),
        ("x\"y z\"w", ["xy zw"]),
        ("\"\" a", ["", "a"]),
        ("\"\\\"\"", ["\""]),
        ("\"\\\\\"", ["\\"]),
        ("a\\b", ["a\\b"]),  // backslash is only an escape inside quotes
        ("", []),
        ("   ", []),
    ])
    func words(text: String, expected: [String]) throws {
        #expect(try RequestParser.words(text) == expected)
    }
}
