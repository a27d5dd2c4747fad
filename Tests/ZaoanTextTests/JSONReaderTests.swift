import Testing
@testable import ZaoanText

/// The JSON reader with positions: both dialects, every error with its line and column,
/// the limits, numbers at the edges of Int64, and text that is not UTF-8.
@Suite struct JSONReaderTests {
    private func read(_ text: String, _ dialect: JSONReader.Dialect = .jsonc, limits: JSONReader.Limits = .standard,
                      duplicates: JSONReader.DuplicateKeys = .refused) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(Array(text.utf8), dialect: dialect, limits: limits, duplicateKeys: duplicates)
    }

    private func failure(_ text: String, _ dialect: JSONReader.Dialect = .jsonc, limits: JSONReader.Limits = .standard,
                         sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        failure(Array(text.utf8), dialect, limits: limits, sourceLocation: sourceLocation)
    }

    private func failure(_ bytes: [UInt8], _ dialect: JSONReader.Dialect = .jsonc, limits: JSONReader.Limits = .standard,
                         sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        do {
            let value = try JSONReader.read(bytes, dialect: dialect, limits: limits)
            Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesAndTheirPositions() throws {
        let text = """
            {
              "city": "东京",
              "n": -12.5e1,
            \t"list": [true, false, null, {}],
              "é": "x"
            }
            """
        let value = try read(text, .strict)
        #expect(value.position == TextPosition(line: 1, column: 1))
        let members = try #require(value.members)
        try #require(members.map(\.key) == ["city", "n", "list", "é"])
        #expect(members[0].keyPosition == TextPosition(line: 2, column: 3))
        #expect(members[0].value == JSONValue(.string("东京"), at: TextPosition(line: 2, column: 11)))
        #expect(members[1].value.number?.text == "-12.5e1")
        #expect(members[1].value.number?.integer == -125)
        #expect(members[1].value.number?.double == -125)
        // A tab is one column.
        #expect(members[2].keyPosition == TextPosition(line: 4, column: 2))
        let items = try #require(members[2].value.items)
        try #require(items.count == 4)
        #expect(items.map(\.position.column) == [11, 17, 24, 30])
        #expect(items[0].bool == true && items[1].bool == false && items[2].isNull && items[3].members == [])
        // Columns count characters: "东京" is two, whatever its bytes.
        #expect(members[3].keyPosition == TextPosition(line: 5, column: 3))
        #expect(members[3].value.position == TextPosition(line: 5, column: 8))
        #expect(value.member("n")?.value.number?.integer == -125)
        #expect(value.member("missing") == nil)
    }

    @Test func commentsAndTrailingCommas() throws {
        let text = """
            // the config
            {
              /* a block
                 over lines */ "a": 1, // after a value
              "b": [1, 2, /* inside */ 3,],
              "c": {"d": "// not a comment", "e": "/* nor this */",},
            }
            // the end
            """
        let value = try read(text)
        #expect(value.position == TextPosition(line: 2, column: 1))
        #expect(value.member("a")?.keyPosition == TextPosition(line: 4, column: 20))
        #expect(value.member("b")?.value.items?.compactMap(\.number?.integer) == [1, 2, 3])
        #expect(value.member("c")?.value.member("d")?.value.string == "// not a comment")
        #expect(value.member("c")?.value.member("e")?.value.string == "/* nor this */")
        // A byte order mark is skipped, and the first character is still column 1.
        let marked = try JSONReader.read([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8), dialect: .jsonc)
        #expect(marked.position == .start && marked.member("a")?.keyPosition == TextPosition(line: 1, column: 2))
        // A comment at the very end, without a line break after it.
        #expect(try read("[1] // end").items?.count == 1)
        #expect(try read("[1] /**/").items?.count == 1)
    }

    @Test("the strict dialect refuses what only JSONC allows, naming the place", arguments: [
        ("// c\n{}", 1, 1, "comment"),
        ("{\"a\": 1 /* c */}", 1, 9, "comment"),
        ("[1, 2,]", 1, 6, "a comma before ']'"),
        ("{\"a\": 1,\n}", 1, 8, "a comma before '}'"),
    ])
    func strictDialect(text: String, line: Int, column: Int, message: String) {
        let error = failure(text, .strict)
        #expect(error?.position == TextPosition(line: line, column: column), "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.kind == .syntax)
        #expect((try? read(text, .jsonc)) != nil)
    }

    @Test("every syntax error says where and what", arguments: [
        ("{", 1, 1, "the object that starts here is not closed"),
        ("[1, 2", 1, 1, "the array that starts here is not closed"),
        ("{\n  \"a\": [1,\n", 2, 8, "the array that starts here is not closed"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after the value of \"a\", found '\"'"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an item of the array that starts at 1:1, found '2'"),
        ("{a: 1}", 1, 2, "expected a key in double quotes, found 'a'"),
        ("{'a': 1}", 1, 2, "single quote"),
        ("{,}", 1, 2, "a comma with no member before it"),
        ("[,]", 1, 2, "a comma with no value before it"),
        ("[1,,2]", 1, 4, "a comma with no value before it"),
        ("{\"a\": 1,, }", 1, 9, "a comma with no member before it"),
        ("\"abc", 1, 1, "the string that starts here is not closed"),
        ("{\"a\": \"x\ny\"}", 1, 7, "does not end on its line"),
        ("[\"a\tb\"]", 1, 4, "a tab inside a string; write it as \\t"),
        ("[\"a\u{1}b\"]", 1, 4, "the control character U+0001 inside a string"),
        ("[\"\\q\"]", 1, 3, "unknown escape '\\q'"),
        ("[\"\\u12\"]", 1, 3, "\\u must be followed by four hex digits"),
        ("[\"\\uD800\"]", 1, 3, "first half of a surrogate pair with no second half"),
        ("[\"\\uD800\\u0041\"]", 1, 3, "the \\u after it is not a second half"),
        ("[\"\\uDC00\"]", 1, 3, "second half of a surrogate pair with no first half"),
        ("[01]", 1, 2, "leading zero"),
        ("[-]", 1, 2, "a '-' must be followed by digits"),
        ("[+1]", 1, 2, "cannot start with '+'"),
        ("[.5]", 1, 2, "cannot start with '.'"),
        ("[1.]", 1, 2, "a digit must follow the decimal point"),
        ("[1e]", 1, 2, "digits must follow the exponent"),
        ("[1e+]", 1, 2, "digits must follow the exponent"),
        ("[NaN]", 1, 2, "found 'NaN'"),
        ("[Infinity]", 1, 2, "found 'Infinity'"),
        ("[tru]", 1, 2, "found 'tru'"),
        ("[truer]", 1, 2, "found 'truer'"),
        ("[nul]", 1, 2, "found 'nul'"),
        ("{\"language\": zh}", 1, 14, "expected a value (an object, array, string, number, true, false or null), found 'zh'"),
        ("{} x", 1, 4, "expected the end of the text after the value that starts at 1:1, found 'x'"),
        ("{}\n\n  {}", 3, 3, "expected the end of the text"),
        ("/ {}", 1, 1, "a '/' that starts no comment"),
        ("/* {}", 1, 1, "the comment that starts here is not closed"),
        ("{\n  /* open\n\n", 2, 3, "the comment that starts here is not closed"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "the key \"a\" appears twice in one object (first at 1:2)"),
        ("{\"a\": 1, \"\\u0061\": 2}", 1, 10, "appears twice"),
        ("[\u{0}]", 1, 2, "found U+0000"),
        ("[é]", 1, 2, "found 'é' (U+00E9)"),
        ("{\"a\":", 1, 1, "the object that starts here is not closed"),
        ("{\"a\"", 1, 1, "the object that starts here is not closed"),
        ("[\"x\\", 1, 4, "the text ends inside an escape"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        let error = failure(text)
        #expect(error?.position == TextPosition(line: line, column: column), "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\(line):\(column): ") == true)
    }

    @Test("blanks and comments only: an empty text, not a syntax error", arguments: ["", "  \n\t", "// nothing\n/* at all */"])
    func empty(text: String) {
        #expect(failure(text)?.kind == .empty)
    }

    @Test func repeatedKeysKeptWhenAsked() throws {
        let value = try read("{\"a\": 1, \"a\": 2}", duplicates: .kept)
        #expect(value.members?.map(\.key) == ["a", "a"])
        #expect(value.members?.map(\.keyPosition.column) == [2, 10])
    }

    @Test func escapes() throws {
        let value = try read(#"["\"\\\/\b\f\n\r\t", "\u00e9\u6771\ud83d\ude00", "\u0000"]"#, .strict)
        #expect(value.items?.map(\.string) == ["\"\\/\u{08}\u{0C}\n\r\t", "é東😀", "\u{0}"])
    }

    @Test("whole numbers are exact on the decimal text, at and past the edges of Int64", arguments: [
        ("0", Int64(0), true), ("-0", 0, true), ("60", 60, true), ("60.0", 60, true), ("6e1", 60, true), ("600e-1", 60, true),
        ("6.0E+1", 60, true), ("0.0e5", 0, true),
        ("9223372036854775807", Int64.max, true), ("-9223372036854775808", Int64.min, true),
        ("9223372036854775808", nil, true), ("-9223372036854775809", nil, true),
        ("92233720368547758070e-1", Int64.max, true), ("9.223372036854775807e18", Int64.max, true),
        ("1e19", nil, true), ("1e400", nil, true), ("1e999999999999999999999", nil, true),
        ("60.5", nil, false), ("1e-1", nil, false), ("1e-999999999999999999999", nil, false),
        ("0.1", nil, false), ("123456789012345678901234567890", nil, true),
    ] as [(String, Int64?, Bool)])
    func numbers(text: String, integer: Int64?, isWhole: Bool) throws {
        let number = try #require(try read("[\(text)]", .strict).items?.first?.number)
        #expect(number.text == text)
        #expect(number.integer == integer)
        #expect(number.isWhole == isWhole)
        #expect(JSONNumber(text)?.integer == integer)
    }

    @Test func doubles() throws {
        #expect(try read("[1e400]").items?.first?.number?.double == nil)  // beyond Double: no value, no trap
        #expect(try read("[-1.5e-3]").items?.first?.number?.double == -0.0015)
        #expect(JSONNumber("1.") == nil && JSONNumber("") == nil && JSONNumber("--1") == nil && JSONNumber("1 ") == nil)
    }

    @Test("text that is not UTF-8 is refused at the first bad byte", arguments: [
        ([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], 1, 3, "0xFF"),
        ([0x5B, 0x0A, 0x22, 0xC3, 0x28, 0x22, 0x5D], 2, 2, "0xC3"),         // a lead byte without its continuation
        ([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], 1, 3, "0xC0"),               // overlong '/'
        ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], 1, 3, "0xED"),         // an encoded surrogate
        ([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], 1, 3, "0xF4"),   // past U+10FFFF
        ([0x5B, 0x22, 0xE6, 0x9D, 0xB1, 0x80, 0x22, 0x5D], 1, 4, "0x80"),   // a stray continuation after 東
        ([0x2F, 0x2F, 0x20, 0xFE, 0x0A, 0x7B, 0x7D], 1, 4, "0xFE"),         // in a comment too
        ([0x5B, 0x22, 0xE6, 0x9D], 1, 3, "0xE6"),                           // cut off at the end
    ] as [([UInt8], Int, Int, String)])
    func invalidUTF8(bytes: [UInt8], line: Int, column: Int, byte: String) {
        let error = failure(bytes)
        #expect(error?.kind == .encoding)
        #expect(error?.position == TextPosition(line: line, column: column), "\(String(describing: error))")
        #expect(error?.message.contains("byte \(byte) is not UTF-8") == true, "\(String(describing: error))")
    }

    @Test func nestingDepth() throws {
        let limit = JSONReader.Limits.standard.maxDepth
        #expect(try read(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).items?.count == 1)
        let deep = failure(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1))
        #expect(deep?.kind == .limit && deep?.position == TextPosition(line: 1, column: limit + 1), "\(String(describing: deep))")
        #expect(deep?.message.contains("nested more than \(limit) deep") == true)
        // Objects count too, and a hostile text far deeper costs no more than the limit.
        let objects = String(repeating: "{\"a\":", count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(failure(objects)?.kind == .limit)
        #expect(failure(String(repeating: "[", count: 1_000_000))?.kind == .limit)
    }

    @Test func sizeLimits() throws {
        var limits = JSONReader.Limits.standard
        limits.maxBytes = 10
        #expect(failure("[1, 2, 3, 4]", limits: limits)?.kind == .limit)
        #expect(try read("[1, 2, 34]", limits: limits).items?.count == 3)

        limits = .standard
        limits.maxStringBytes = 4
        #expect(try read(#"["abcd", "東"]"#, limits: limits).items?.count == 2)
        let long = failure(#"[1, "abcde"]"#, limits: limits)
        #expect(long?.kind == .limit && long?.position == TextPosition(line: 1, column: 5) && long?.message.contains("longer than 4 bytes") == true)
        #expect(failure(#"["東京"]"#, limits: limits)?.kind == .limit)  // 6 bytes of UTF-8
        #expect(failure(#"["\u00e9\u00e9\u00e9"]"#, limits: limits)?.kind == .limit)  // counted decoded
        #expect(failure(#"{"abcde": 1}"#, limits: limits)?.kind == .limit)  // keys too

        limits = .standard
        limits.maxNumberLength = 5
        #expect(try read("[12345, -1234]", limits: limits).items?.count == 2)
        #expect(failure("[123456]", limits: limits)?.message.contains("longer than 5 characters") == true)

        limits = .standard
        limits.maxValues = 4
        #expect(try read("[1, 2, 3]", limits: limits).items?.count == 3)
        let many = failure("[1, 2, 3, 4]", limits: limits)
        #expect(many?.kind == .limit && many?.position == TextPosition(line: 1, column: 11), "\(String(describing: many))")
    }

    /// Columns are counted from the last position asked for, not from the start of the line:
    /// a one-line text of 100,000 values reads in linear time.
    @Test func longLine() throws {
        let count = 99_999
        let text = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
        let items = try #require(try read(text).items)
        #expect(items.count == count)
        #expect(items.last?.position == TextPosition(line: 1, column: 2 * count))
    }
}
