/// One row of the request table (`RequestKind.table`): everything about a request but how
/// it is answered (a function of the Responder's, found by its kind). The parser's dispatch
/// and how it reads the arguments, `help`,
/// `isWatchable`, `isRoomChange`, `commandWord` and the render period come from here; the
/// shell completions and docs/protocol.md are checked against it (RequestTableFilesTests).
///
/// A class, made once per row: reading a field of a row on the request path (the render
/// period, the command word) then costs a reference, not a copy of every field's strings
/// (measured: docs/benchmarks.md).
public final class RequestDescriptor: Sendable {
    public let kind: RequestKind
    /// The command words, lowercase, as typed: `ping`, `live add`, or `--format` for an option.
    public let words: String
    /// Other spellings the parser takes, not shown anywhere (`live remove` for `live rm`).
    public let aliases: [String]
    /// What follows the words, in `help`'s notation: `[CITY|@ZONE]`, `ID START [TITLE...]`;
    /// empty for none. An option's value comes first, after `=`: `FMT REQUEST`.
    public let arguments: String
    public let shape: Shape
    public let effect: Effect
    /// Whether `watch` can stream it. For a request made of requests (`--format`, `blocks`),
    /// every request inside must be watchable too.
    public let isWatchable: Bool
    public let changes: Changes
    public let help: Help
    /// How the words after the command words are read into a `Request`.
    let reading: Reading

    /// How a row's arguments are read (`RequestParser`).
    enum Reading: Sendable {
        /// None may follow: `ping`. A word after it is refused, "ping takes no arguments".
        case nothing
        /// This function reads them (`ReadArguments`): checks them, and makes the request in
        /// the shape they have (`Request.text(kind, ...)`, `.number`, ...).
        case words(@Sendable (RequestWords) throws(ProtocolError) -> Request)
    }

    /// How the words relate to other requests.
    public enum Shape: Sendable {
        /// A request of its own: `greeting`, `live add`.
        case request
        /// Made of other requests: `watch REQUEST`, `blocks REQUEST ; ...`.
        case combinator
        /// An option word in front of a request (`--format=FMT REQUEST`): it changes only how
        /// the answer is written, so logs, errors and bars name the request inside.
        case option
    }

    /// What answering does besides reading the clock, the rooms and the settings.
    public enum Effect: Sendable {
        case readsOnly
        /// `session`: the connection answers it about itself, and stays open for more lines;
        /// a one-shot client such as `zaoan ask` has no use for it (the completions leave it out).
        case entersSession
        /// `quit`: answered, then the connection is closed (left out of the completions too).
        case endsConnection
        /// `reload`: the server re-reads the config; the caller needs the right to change zaoan.
        case reloadsSettings
        /// `live add`, `live rm`: saved to disk before they are answered, several read in one
        /// loop turn with one write (the server's group commit).
        case changesRooms
        /// `event add`, `event rm`: a file written into (or removed from) a calendar folder
        /// the config names, off the loop, answered once it is on disk; the caller needs the
        /// right to change zaoan, as for `live add`.
        case writesCalendars

        /// `session` and `quit`: about the connection, not the service.
        public var controlsConnection: Bool { self == .entersSession || self == .endsConnection }
    }

    /// How long one rendering of the answer stays right, for answers that depend only on the
    /// clock, the rooms and the settings (a room or settings change forgets every rendering).
    public enum Changes: Sendable {
        /// Rendered for every request: never cached (`ago`, `stats`, the changes).
        case everyRequest
        case everySecond
        /// On the minute of the request's zone.
        case everyMinute
        /// Fixed until the settings change: a client asking in a loop costs a lookup.
        case withSettings
        /// Decided when answered: `time` by its pattern's smallest field, a combinator by the
        /// requests inside (the Responder's `renderPeriod`).
        case byArguments

        /// Seconds one rendering stays right; nil: render every time, or decided elsewhere.
        public var seconds: Int? {
            switch self {
            case .everyRequest, .byArguments: return nil
            case .everySecond: return 1
            case .everyMinute: return 60
            case .withSettings: return Request.fixedRenderPeriod
            }
        }
    }

    /// The row's place in `help`.
    public enum Help: Sendable {
        /// A line of its own: the usage, then this summary from column 24 (or three blanks
        /// after a longer usage).
        case line(String)
        /// The usage alone, long enough to say what it does (`live add ID START ...`).
        case usageOnly
        /// After the line above, separated by ` | ` (`live rm ID | live list | live show ID`).
        case sameLineAsAbove
    }

    init(_ kind: RequestKind, _ words: String, _ arguments: String = "", aliases: [String] = [], reads reading: Reading = .nothing,
         shape: Shape = .request, effect: Effect = .readsOnly, watchable: Bool, changes: Changes, help: Help) {
        self.kind = kind
        self.words = words
        self.aliases = aliases
        self.arguments = arguments
        self.shape = shape
        self.effect = effect
        self.isWatchable = watchable
        self.changes = changes
        self.help = help
        self.reading = reading
    }

    /// The words and arguments as `help` shows them: `live show ID`, `--format=FMT REQUEST`.
    public var usage: String {
        if arguments.isEmpty { return words }
        return words + (shape == .option ? "=" : " ") + arguments
    }

    /// The first word, the one a shell completes first (`live` of `live add`).
    public var firstWord: Substring {
        words.split(separator: " ", maxSplits: 1).first ?? Substring(words)
    }
}

extension RequestKind {
    /// `help`'s answer, one line per row or group of rows, in the table's order.
    public static let helpLines: [String] = {
        let column = 24
        var lines: [String] = []
        for row in table {
            switch row.help {
            case .line(let summary):
                let usage = row.usage
                let blanks = usage.count < column ? column - usage.count : 3
                lines.append(usage + String(repeating: " ", count: blanks) + summary)
            case .usageOnly:
                lines.append(row.usage)
            case .sameLineAsAbove:
                precondition(!lines.isEmpty, "the table's first row cannot share a help line")
                lines[lines.count - 1] += " | " + row.usage
            }
        }
        return lines
    }()
}
