import Testing
@testable import ZaoanCore
@testable import ZaoanProtocol

/// What the table derives for every row without a line of code per row: the parser's
/// refusal of words after a row that reads none, and the names other code matches requests
/// by (`case .session:` in the server's switch), which compare by kind.
@Suite struct RequestShapeTests {
    /// Rows that read no arguments (`reads:` left out): every one refuses a word after it
    /// with the same error, from the table's words.
    static let readingNothing = RequestKind.table.filter {
        if case .nothing = $0.reading { return true }
        return false
    }

    @Test func someRowsReadNothing() {
        #expect(Self.readingNothing.map(\.words) == ["ping", "version", "help", "session", "quit", "reload", "stats",
                                                      "live list", "remind list"])
    }

    @Test(arguments: readingNothing.map(\.kind))
    func aRowThatReadsNothingRefusesWords(_ kind: RequestKind) throws {
        let words = kind.descriptor.words
        #expect(try RequestParser.parse(words) == .plain(kind))
        let error = protocolError { () throws(ProtocolError) in try RequestParser.parse(words + " extra") }
        #expect(error?.code == .badArgument)
        #expect(error?.message == "\(words) takes no arguments")
    }

    /// The names the server and the bar match on, each with the line that makes it.
    static let named: [(Request, String)] = [
        (.ping, "ping"), (.version, "version"), (.help, "help"), (.session, "session"), (.quit, "quit"),
        (.reload, "reload"), (.stats, "stats"), (.status, "status"), (.liveList, "live list"), (.watchEvents, "watch events"),
    ]

    /// `case .session:` matches `session` and nothing else: not another request without
    /// arguments, not one with arguments, not one made of it.
    @Test func namesMatchTheirOwnRequestOnly() throws {
        let others: [Request] = try Self.named.map { try #require(try RequestParser.parse($0.1)) } + [
            .text(.greeting, nil), .text(.countdown, "x"), .number(.ticker, 0), .watch(.plain(.session)),
            .formatted(.json, .plain(.stats)), .zoned("Asia/Tokyo", .plain(.status)), .url(.plain(.status)),
        ]
        for (name, line) in Self.named {
            for request in others {
                let matches: Bool
                switch request {
                case name: matches = true
                default: matches = false
                }
                #expect(matches == (request == name), "case \(line) on \(request)")
            }
        }
    }

    /// The patterns the server writes, in its order, pick the branch its switch takes.
    @Test(arguments: [("session", 1), ("quit", 2), ("watch events", 3), ("reload", 4), ("ping", 0), ("status", 0),
                      ("greeting", 0), ("watch ping", 5)])
    func theServersSwitch(line: String, branch: Int) throws {
        let request = try #require(try RequestParser.parse(line))
        let taken: Int
        switch request {
        case .session: taken = 1
        case .quit: taken = 2
        case .watchEvents: taken = 3
        case .reload: taken = 4
        case .watch: taken = 5
        default: taken = 0
        }
        #expect(taken == branch)
    }
}
